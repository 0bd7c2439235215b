package body

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// TestFastUsageMatchesUnmarshal: every usage object of the fixtures (the
// objects with a token count in them) and odd ones read by the token reader
// are what Unmarshal made of them, or the token reader gives up; it takes
// nearly all real ones.
func TestFastUsageMatchesUnmarshal(t *testing.T) {
	var vals []jsontext.Value
	for _, v := range fixtureObjects(t, "_tokens") {
		for _, k := range []string{`"input_tokens"`, `"prompt_tokens"`, `"promptTokenCount"`, `"output_tokens"`} {
			if bytes.Contains(v, []byte(k)) {
				vals = append(vals, v)
				break
			}
		}
	}
	real := len(vals)
	for _, s := range []string{
		`{}`, `{"input_tokens":null}`, `{"input_tokens":1,"input_tokens":2}`, `{"input_tokens":1.5}`, `{"input_tokens":1e3}`,
		`{"input_tokens":"7"}`, `{"input_tokens":-3}`, `{"input_tokens":9223372036854775807}`, `{"input_tokens":9223372036854775808}`,
		`{"input_tokens":-9223372036854775808}`, `{"cache_creation":null}`, `{"cache_creation":{"ephemeral_1h_input_tokens":4,"x":[1]}}`,
		`{"cache_creation":{"ephemeral_1h_input_tokens":4},"cache_creation":{"other":1}}`, `{"cache_creation":[]}`,
		`{"input_tokens_details":{"cached_tokens":2}}`, `{"prompt_tokens_details":{"cached_tokens":null}}`, `{"Input_Tokens":5}`,
		`{"input_t\u006fkens":5}`, `{"promptTokenCount":3,"cachedContentTokenCount":1,"candidatesTokenCount":2,"thoughtsTokenCount":0}`,
		`{"input_tokens":1} x`, `[]`, ``, `{"input_tokens":01}`,
	} {
		vals = append(vals, jsontext.Value(s))
	}
	fast := 0
	for _, v := range vals {
		var want, got rawUsage
		werr := Unmarshal(v, &want)
		if !fastUsage(v, &got) {
			continue
		}
		fast++
		if werr != nil {
			t.Errorf("%.200s: the token reader took what Unmarshal refuses (%v)", v, werr)
			continue
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%.200s:\ntoken reader %+v\nUnmarshal    %+v", v, got, want)
		}
	}
	if real < 200 || fast < real {
		t.Fatalf("%d of %d usage objects read by the token reader (%d real)", fast, len(vals), real)
	}
}
