package body

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// blockValues are the objects found anywhere in the JSON lines of the
// transcripts and captures in testdata that content blocks are made of
// (every object with a "type" member), and hand-made odd ones.
func blockValues(t testing.TB) []jsontext.Value {
	t.Helper()
	out := fixtureObjects(t, `"type"`)
	for _, s := range []string{
		`{}`, `{"type":null,"text":null}`, `{"type":"text","text":"a","text":"b"}`,
		`{"type":"text","text":1}`, `{"type":"tool_result","content":[]}`, `{"type":"tool_result","content":null}`,
		`{"type":"tool_result","content":[null,{"type":"text","text":"x"}]}`, `{"type":"tool_result","content":{"type":"text"}}`,
		`{"type":"tool_result","content":"s","content":[{"type":"text"}]}`, `{"type":"tool_result","content":5}`,
		`{"type":"tool_result","content":[5]}`, `{"\u0074ype":"text"}`, `{"type":"text","text":"bad \xff utf8"}`,
		`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}`, `{"type":"image","source":null}`,
		`{"type":"image","source":[]}`, `{"type":"document","source":{"type":"content","content":[{"type":"text","text":"p"}]}}`,
		`{"type":"web_fetch_tool_result","content":{"x":[1,2]}}`, `{"type":"tool_use","input":{"a": [1, 2 ]},"cache_control":null}`,
		`{"Type":"text","TEXT":"case"}`, `{"type":"tool_us\u0065","name":"n\u0061me","id":"i"}`, `{"type":"text\xff","name":"\xffn"}`, `{"type":"text","extra":{"deep":[{"a":1}]},"text":"t"}`, `{"type":true}`,
	} {
		out = append(out, jsontext.Value(s))
	}
	return out
}

// fixtureObjects are the objects found anywhere in the JSON lines of the
// transcripts and captures in testdata whose text holds key.
func fixtureObjects(t testing.TB, key string) []jsontext.Value {
	t.Helper()
	var out []jsontext.Value
	var files []string
	for _, g := range []string{"claude-code-transcripts/*", "agents/*.jsonl", "payloads/*", "sessions/*", "cache/*", "verdicts/*"} {
		m, _ := filepath.Glob(filepath.Join("..", "..", "testdata", g))
		files = append(files, m...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if strings.HasSuffix(f, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if b, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 64<<20)
		for sc.Scan() {
			out = collectObjectsWith(jsontext.Value(sc.Bytes()), out, key)
		}
	}
	return out
}

// collectObjects appends every object with a "type" member in v.
func collectObjects(v jsontext.Value, out []jsontext.Value) []jsontext.Value {
	return collectObjectsWith(v, out, `"type"`)
}

// collectObjectsWith appends every object of v whose text holds key.
func collectObjectsWith(v jsontext.Value, out []jsontext.Value, key string) []jsontext.Value {
	dec := jsontext.NewDecoder(bytes.NewReader(v), WalkOpts...)
	var stack []int64
	for {
		kind := dec.PeekKind()
		if kind == 0 {
			return out
		}
		if kind == '{' {
			off := dec.InputOffset()
			stack = append(stack, off)
		}
		tok, err := dec.ReadToken()
		if err != nil {
			return out
		}
		if tok.Kind() == '}' && len(stack) > 0 {
			start := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			obj := bytes.TrimLeft(v[start:dec.InputOffset()], " \t\r\n,:")
			if bytes.Contains(obj, []byte(key)) && len(out) < 200000 {
				out = append(out, append(jsontext.Value(nil), obj...))
			}
		}
	}
}

// TestFastBlockMatchesUnmarshal: every block object of the fixtures and the
// odd ones read by the token reader are what json.Unmarshal made of them,
// or the fast read gives up (and Unmarshal decides); the fast read takes
// nearly all real ones.
func TestFastBlockMatchesUnmarshal(t *testing.T) {
	vals := blockValues(t)
	fast := 0
	for _, v := range vals {
		var want, got AnthropicBlock
		werr := slowBlock(v, &want)
		if !fastBlock(v, &got) {
			continue
		}
		keepRaw(&got, v)
		fast++
		if werr != nil {
			t.Errorf("%.200s: the fast read took what Unmarshal refuses (%v)", v, werr)
			continue
		}
		if !reflect.DeepEqual(want, got) {
			t.Errorf("%.200s:\nfast      %+v\nUnmarshal %+v", v, got, want)
		}
	}
	t.Logf("%d of %d blocks read fast", fast, len(vals))
	if len(vals) < 1000 || fast < len(vals)*9/10 {
		t.Fatalf("%d of %d blocks read fast", fast, len(vals))
	}
}
