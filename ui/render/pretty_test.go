package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/themes"
	"github.com/wirelens/wirelens/ui/cells"
	"github.com/wirelens/wirelens/wire/scan"
)

// TestPrettyJSONToolSchema: a one-line tool schema is shown indented, the
// same JSON, every byte outside whitespace at the place the map gives.
func TestPrettyJSONToolSchema(t *testing.T) {
	schema := `{"name":"read_file","description":"Read a file: \"path\" {not a brace}","input_schema":{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"extra":{},"list":[]}}`
	got, m := PrettyJSON(schema)
	want := `{
  "name": "read_file",
  "description": "Read a file: \"path\" {not a brace}",
  "input_schema": {
    "type": "object",
    "properties": {
      "path": {
        "type": "string"
      }
    },
    "required": [
      "path"
    ],
    "extra": {},
    "list": []
  }
}`
	if got != want {
		t.Fatalf("pretty:\n%s\nwant:\n%s", got, want)
	}
	var a, b bytes.Buffer
	if json.Compact(&a, []byte(schema)) != nil || json.Compact(&b, []byte(got)) != nil || a.String() != b.String() {
		t.Fatal("the pretty text is not the same JSON")
	}
	for i := 0; i < len(schema); i++ {
		if schema[i] == ' ' && !strings.Contains(schema[max(0, i-20):i], `"`) {
			continue
		}
		if j := m.at(i); j >= len(got) || got[j] != schema[i] {
			t.Fatalf("byte %d (%q) maps to %d", i, schema[i], j)
		}
	}
	for _, text := range []string{"{\"a\":1}\n{\"b\":2}", "plain", `{"a":`, "{\n  \"a\": 1\n}", `"just a string"`} {
		if got, m := PrettyJSON(text); got != text || m != nil {
			t.Errorf("%q is changed to %q", text, got)
		}
	}
}

// TestContentPrettyJSONKeepsMarks: a one-line JSON segment is drawn
// pretty-printed, with its hazard, search match, escape and cache cut (all
// at offsets into the text as sent) on the bytes they belong to.
func TestContentPrettyJSONKeepsMarks(t *testing.T) {
	text := `{"name":"deploy","description":"Run \u0007 then` + "\u202e" + `rm &lt;x&gt;","n":1}`
	st := themes.New(themes.Mono)
	c := Content{Bracket: cells.Width(st.MarkOpen + st.MarkClose)}
	hz := scan.Hazards(text)
	jobs := c.Set(0, "k", text, entityEscapes(text), hz, true, 60, "")
	q := strings.Index(text, "deploy")
	if job := c.Decorate(0, entityEscapes(text), []Mark{{q, q + len("deploy")}}, strings.Index(text, `"n"`)); job != nil {
		jobs[0] = job
	}
	c.ApplyPrep(jobs[0].(func() PrepMsg)())
	var rows []string
	for _, l := range c.Render(st, 60, 10) {
		rows = append(rows, strings.TrimRight(plain(l), " "))
	}
	screen := strings.Join(rows, "\n")
	for _, want := range []string{"{\n", `  "name": "⟦deploy⟧",`, "then⟦[U+202E]⟧rm", "⟦&lt;⟧x⟦&gt;⟧\",", `  ✂"n": 1`, "\n}\n"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the pretty JSON does not show %q:\n%s", want, screen)
		}
	}
	if c.Cut != strings.Index(text, `"n"`) || c.Marks[0].Start != q {
		t.Fatal("the offsets kept are not the segment's")
	}
	checkAllShown(t, "pretty", &c, st, 60)
}
