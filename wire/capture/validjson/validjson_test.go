package validjson

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// sureCases are values Sure must accept, each valid by jsontext too.
var sureCases = []string{
	`{}`, `[]`, `""`, `0`, `-0`, `1.5e+10`, `-12.25E-3`, `true`, `false`, `null`,
	` {"a" : [1, 2.0 ,{"b":null}] } `,
	`{"model":"m","stream":true,"messages":[{"role":"user","content":"` + strings.Repeat("w", 4099) + `"}]}`,
	`"tab\tnewline\nquote\"slash\/back\\u\u00e9\uFFFD"`,
	`"é → 漢字 😀 ` + "\uFFFD" + `"`,
	`{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}`, // a name again in another object
	`{"ab":1,"a":2,"b":3}`,
	"\r\n\t[1]\n",
}

// notSureCases are values Sure must leave to jsontext: invalid ones, and
// valid ones it does not judge (escaped names, surrogate escapes).
var notSureCases = []string{
	``, ` `, `{`, `[`, `{"a":1,"a":2}`, `{"a":1,"b":{"c":1},"a":3}`, `[01]`, `01`, `1.`, `.5`, `-`, `1e`, `1e+`, `+1`,
	`[1,]`, `{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"a":}`, `[1 2]`, `tru`, `nul`, `truex`, `[true false]`, `"abc`, `"a\x"`, `"\u12"`,
	`"\u12G4"`, "\"a\x01b\"", "\"\xff\"", "\"\xed\xa0\x80\"", `"\ud83d\ude00"`, `"\ud800"`, `{"\u0061":1,"a":2}`, `{"\u0061":1}`,
	`{} {}`, `[] x`, `{}` + "\u00a0", `NaN`, `Infinity`, `[1,2]]`, `{"a":1}}`, `'a'`,
	strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1),
	manyNames(maxNames + 1),
}

func manyNames(n int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strings.Repeat("x", i) + `":1`)
	}
	b.WriteByte('}')
	return b.String()
}

func TestSure(t *testing.T) {
	for _, s := range sureCases {
		if !jsontext.Value(s).IsValid() {
			t.Errorf("case %q is not valid JSON: fix the table", s)
		}
		if !Sure([]byte(s)) {
			t.Errorf("Sure(%.60q) = false, want true", s)
		}
	}
	for _, s := range notSureCases {
		if Sure([]byte(s)) {
			t.Errorf("Sure(%.60q) = true, want false (jsontext's IsValid: %t)", s, jsontext.Value(s).IsValid())
		}
	}
	if !Sure([]byte(manyNames(maxNames))) {
		t.Error("an object of maxNames members with distinct names is not sure")
	}
	deep := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	if !Sure([]byte(deep)) {
		t.Error("nesting of maxDepth is not sure")
	}
}

// TestSureAgreesOnFixtures: on every JSON document and JSON line of the
// fixtures, Sure never accepts what jsontext refuses, and accepts every
// valid one whose names have no escapes (the fast path's reason to be).
func TestSureAgreesOnFixtures(t *testing.T) {
	var docs, sure int
	check := func(where string, b []byte) {
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			return
		}
		docs++
		valid := jsontext.Value(b).IsValid()
		got := Sure(b)
		if got && !valid {
			t.Errorf("%s: Sure accepts what jsontext refuses: %.80q", where, b)
		}
		if got {
			sure++
		}
	}
	err := filepath.WalkDir("../../../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".json":
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			check(path, b)
		case ".jsonl":
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 64<<20)
			for n := 1; sc.Scan(); n++ {
				check(path, sc.Bytes())
			}
			return sc.Err()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if docs < 100 || sure < docs/2 {
		t.Errorf("%d documents, %d of them sure: want at least 100, and most of them sure", docs, sure)
	}
}

// FuzzSure: Sure never accepts what jsontext refuses.
func FuzzSure(f *testing.F) {
	for _, s := range append(append([]string{}, sureCases...), notSureCases[:len(notSureCases)-2]...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if Sure(b) && !jsontext.Value(b).IsValid() {
			t.Errorf("Sure accepts what jsontext refuses: %q", b)
		}
	})
}

func BenchmarkSure(b *testing.B) {
	body := []byte(`{"model":"m","stream":true,"messages":[{"role":"user","content":"` + strings.Repeat("w", 40<<10) + `"}]}`)
	for _, c := range []struct {
		name string
		f    func([]byte) bool
	}{{"sure", Sure}, {"jsontext", func(b []byte) bool { return jsontext.Value(b).IsValid() }}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			for b.Loop() {
				if !c.f(body) {
					b.Fatal("not valid")
				}
			}
		})
	}
}
