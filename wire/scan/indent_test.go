package scan

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIndentJSON: IndentJSON indents what encoding/json writes as
// json.Indent does, on every JSON value of the fixtures (re-encoded), on
// values with empty objects and arrays, escapes, quotes and backslashes in
// strings and names, and on random nestings.
func TestIndentJSON(t *testing.T) {
	var vals []any
	err := filepath.WalkDir(filepath.Join("..", "..", "testdata"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") && !strings.HasSuffix(path, ".jsonl") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range bytes.Split(b, []byte("\n")) {
			var v any
			if i < 200 && json.Unmarshal(line, &v) == nil {
				vals = append(vals, v)
			}
		}
		var v any
		if json.Unmarshal(b, &v) == nil {
			vals = append(vals, v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(vals) < 300 {
		t.Fatalf("only %d fixtures", len(vals))
	}
	vals = append(vals, map[string]any{}, []any{}, map[string]any{"a": []any{}, "b": map[string]any{}, "c": []any{map[string]any{}}},
		"plain", 1.5, nil, true, map[string]any{`q"\`: `x\"y\\`, "\\": "\\\\", "u": "\u2028<>&\x01é"})
	r := rand.New(rand.NewPCG(2, 3))
	var gen func(d int) any
	gen = func(d int) any {
		switch n := r.IntN(7); {
		case d > 5 || n == 0:
			return strings.Repeat(`a"\{}[],: `[r.IntN(11):], r.IntN(3))
		case n == 1:
			return r.Float64() * 1e6
		case n < 4:
			var a []any
			for range r.IntN(4) {
				a = append(a, gen(d+1))
			}
			return a
		default:
			m := map[string]any{}
			for range r.IntN(4) {
				m[`k"`+strings.Repeat(`\,`, r.IntN(3))] = gen(d + 1)
			}
			return m
		}
	}
	for range 2000 {
		vals = append(vals, gen(0))
	}
	for _, v := range vals {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		compact := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		var want bytes.Buffer
		if err := json.Indent(&want, compact, "    ", "  "); err != nil {
			t.Fatal(err)
		}
		if got := IndentJSON(nil, compact, "    ", "  "); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%.200s:\nIndentJSON %.300s\njson.Indent %.300s", compact, got, want.Bytes())
		}
	}
}
