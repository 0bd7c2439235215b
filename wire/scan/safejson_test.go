package scan

import (
	"encoding/json"
	"testing"
)

// TestSafeJSONSameValue: the rewritten JSON decodes to the same value and
// holds no raw hazard; plain JSON comes back as it is.
func TestSafeJSONSameValue(t *testing.T) {
	in := map[string]string{
		"bidi":  "a\u202eb\u2066c",
		"tags":  "x\U000E0041\U000E0042y",
		"c1":    "\u009b31m\u0085",
		"zw":    "w\u200bo\ufeffr",
		"emoji": "\U0001F468\u200d\U0001F469 日本語",
		"esc":   "\x1b]52;c;aGk=\x07",
		"osc":   "\u009d0;unterminated title",
		"wide":  "é \U0001F600 after an open OSC",
	}
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out := SafeJSON(raw)
	if hz := Hazards(string(out)); len(hz) > 0 {
		t.Fatalf("raw hazard %+v left in %s", hz[0], out)
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	for k, v := range in {
		if back[k] != v {
			t.Errorf("%s: %q became %q", k, v, back[k])
		}
	}
	plain := []byte(`{"a": "plain text", "b": [1, 2]}`)
	if got := SafeJSON(plain); string(got) != string(plain) {
		t.Errorf("plain JSON changed: %s", got)
	}
}
