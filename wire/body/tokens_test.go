package body

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// tokenSeeds are hostile texts for the tokenizer: broken escapes, lone
// surrogates, control bytes, NUL, invalid UTF-8, deep nesting, odd numbers,
// trailing garbage and truncations, and strings long enough for the
// eight-bytes-at-a-time scan to meet each special byte at each place.
func tokenSeeds() []string {
	seeds := []string{
		``, ` `, `{}`, `[]`, `{} `, ` {"a":1} `, `{"a":1}x`, `{"a":1}{}`, `{"a":1},`, `{"a":1`, `{"a"`, `{"a":`, `{"a" 1}`,
		`{"a":1,}`, `{,"a":1}`, `{"a":1,,"b":2}`, `[1,]`, `[,1]`, `[1 2]`, `[1,2]`, `{"a":[1,{"b":null}],"c":true}`,
		`{1:2}`, `{null:1}`, `{"a":1:2}`, `{"a"::1}`, `[}`, `{]`, `[[[]]]`, `[[[]]`, `{"a":{"b":{}}}}`,
		`"\ud800"`, `"\udc00\ud800"`, `"\ud83d\ude00"`, `"\u00e9"`, `"\u00E9"`, `"\u12"`, `"\u12g4"`, `"\x"`, `"\'"`,
		`"\/"`, `"\b\f\n\r\t\"\\"`, `"\`, `"\u`, `"a` + "\x00" + `b"`, `"a` + "\x1f" + `b"`, `"a` + "\x7f" + `b"`,
		"\"bad \xff utf8\"", "\"\xc3\xa9\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "\"\xf4\x90\x80\x80\"", "{\"k\xff\":1}",
		`0`, `-0`, `-`, `--1`, `01`, `1.`, `.5`, `1.5`, `1e999`, `1E+2`, `1e-`, `1e`, `-1.5e-10`, `+1`, `0x10`, `1_000`,
		`123456789012345678901234567890`, `[1e999,-0,0.0]`, `nul`, `nulll`, `null`, `true`, `truex`, `[true false]`,
		`[tru]`, `{"a":fals}`, "{\"a\":1}\x00", "\t\r\n[\t1\r,\n2 ]\n", "\v[]", "\u00a0[]", `{"a":"b"]`, `["a"}`,
		`{"type":"text","text":"a\nb"}`, `{"\u0074ype":"text"}`, `["a\nb\u00e9\"c\ud83d\ude00d\/\\"]`, "[\"\xc3\xa9\\n\\u0000\\uDBFF\\uDFFF\"]",
		`["\ud800\u0041"]`, `["\udc00\ud800"]`, `["\ud800\"]`, `["\ud800\u"]`,
	}
	seeds = append(seeds, strings.Repeat("[", MaxDepth+2)+strings.Repeat("]", MaxDepth+2),
		strings.Repeat(`{"a":`, MaxDepth)+"1"+strings.Repeat("}", MaxDepth), strings.Repeat("[", 40))
	for _, special := range []string{`"`, `\n`, `\u0041`, "\x01", "\xff", "\xe2\x80\xae", `\`} {
		for pad := range 17 {
			seeds = append(seeds, `["`+strings.Repeat("x", pad)+special+strings.Repeat("y", 17-pad)+`"]`)
		}
	}
	return seeds
}

// corpusSeeds are the texts of the hostile corpora in testdata as JSON
// strings, and the raw byte seeds inside a string.
func corpusSeeds(t testing.TB) []string {
	var out []string
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpora", "raw-byte-seeds.hex"))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if raw, err := hex.DecodeString(strings.TrimSpace(sc.Text())); err == nil {
			out = append(out, `{"text":"`+string(raw)+`"}`)
		}
	}
	for _, name := range []string{"hostile-seeds.json", "blns.json"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpora", name))
		if err != nil {
			t.Fatal(err)
		}
		dec := jsontext.NewDecoder(bytes.NewReader(b))
		for {
			v, err := dec.ReadValue()
			if err != nil {
				break
			}
			out = append(out, string(v))
		}
		out = append(out, string(b))
	}
	return out
}

// readerTokens walks the value with the Reader: the tokens it read (names
// raw, string values unquoted, numbers and literals as written), and
// whether it read them all and the input ended there, and whether it found
// the input ASCII.
func readerTokens(b []byte) ([]string, bool, bool) {
	w := NewReader(b)
	defer w.Done()
	var out []string
	var walk func() bool
	walk = func() bool {
		switch w.Peek() {
		case '{':
			out = append(out, "{")
			ok := w.Object(func(name []byte) bool {
				out = append(out, "name:"+string(name))
				return walk()
			})
			out = append(out, "}")
			return ok
		case '[':
			out = append(out, "[")
			ok := w.Array(walk)
			out = append(out, "]")
			return ok
		case '"':
			var s string
			if !w.String(&s) {
				return false
			}
			out = append(out, "str:"+s)
			return true
		}
		var v jsontext.Value
		if !w.Value(&v) {
			return false
		}
		out = append(out, "val:"+string(v))
		return true
	}
	ok := walk() && w.End()
	return out, ok, w.ASCII()
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// decoderTokens are readerTokens as jsontext.Decoder reads them, or false
// when it refuses the input (or finds more than one value).
func decoderTokens(b []byte) ([]string, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(b), WalkOpts...)
	var out []string
	for {
		kind, n := dec.StackIndex(dec.StackDepth())
		name := kind == '{' && n%2 == 0
		switch dec.PeekKind() {
		case '"':
			v, err := dec.ReadValue()
			if err != nil {
				return out, false
			}
			if name {
				out = append(out, "name:"+string(v[1:len(v)-1]))
				continue
			}
			s, err := jsontext.AppendUnquote(nil, v)
			if err != nil {
				return out, false
			}
			out = append(out, "str:"+string(s))
		case '0', 'n', 't', 'f':
			v, err := dec.ReadValue()
			if err != nil {
				return out, false
			}
			out = append(out, "val:"+string(v))
		default:
			tok, err := dec.ReadToken()
			if err != nil {
				return out, false
			}
			out = append(out, tok.Kind().String())
		}
		if dec.StackDepth() == 0 {
			_, err := dec.ReadToken()
			return out, err == io.EOF
		}
	}
}

// checkTokens holds the Reader to jsontext on b: what Skip and Value take
// is exactly what the decoder takes (but for nesting past MaxDepth, where
// the Reader gives up), with the same text; what the walk takes, the
// decoder takes, token for token; the Reader finds it ASCII exactly when
// it is.
func checkTokens(t *testing.T, b []byte) {
	valid := jsontext.Value(b).IsValid(WalkOpts...)

	w := NewReader(b)
	skipped := w.Skip() && w.End()
	if skipped && w.ASCII() != isASCII(b) {
		t.Fatalf("%q: Skip found it ASCII %v", b, w.ASCII())
	}
	w.Done()
	switch {
	case skipped && !valid:
		t.Fatalf("%q: Skip took what jsontext refuses", b)
	case !skipped && valid && DepthExceeded(b, MaxDepth) < 0:
		t.Fatalf("%q: Skip refused what jsontext takes", b)
	}

	w = NewReader(b)
	var v jsontext.Value
	taken := w.Value(&v) && w.End()
	w.Done()
	if taken != skipped {
		t.Fatalf("%q: Value %v, Skip %v", b, taken, skipped)
	}
	if taken && !bytes.Equal(v, bytes.Trim(b, " \t\r\n")) {
		t.Fatalf("%q: Value is %q", b, v)
	}

	got, ok, ascii := readerTokens(b)
	if !ok {
		return
	}
	if ascii != isASCII(b) {
		t.Fatalf("%q: the walk found it ASCII %v", b, ascii)
	}
	want, wok := decoderTokens(b)
	if !wok {
		t.Fatalf("%q: the walk took what jsontext refuses (%q)", b, got)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\nReader  %q\njsontext %q", b, got, want)
	}
}

// TestTokensMatchJSONText: the seeds, the hostile corpora and the lines
// of the fixtures read by the Reader as jsontext reads them; every real
// line is taken whole.
func TestTokensMatchJSONText(t *testing.T) {
	for _, s := range append(tokenSeeds(), corpusSeeds(t)...) {
		checkTokens(t, []byte(s))
	}
	objs := fixtureObjects(t, `"`)
	for _, v := range objs {
		checkTokens(t, v)
		if _, ok, _ := readerTokens(v); !ok {
			t.Errorf("%.200q: a fixture's object not read", v)
		}
	}
	if len(objs) < 1000 {
		t.Fatalf("only %d fixture objects", len(objs))
	}
}

// FuzzTokens: arbitrary bytes read by the Reader as jsontext reads them
// (checkTokens), and the fast block and usage reads that take them giving
// what json.Unmarshal gives.
func FuzzTokens(f *testing.F) {
	for _, s := range append(tokenSeeds(), corpusSeeds(f)...) {
		f.Add([]byte(s))
	}
	vals := blockValues(f)
	for i := 0; i < len(vals); i += 1 + len(vals)/200 { // 200 of the fixtures' blocks
		f.Add([]byte(vals[i]))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkTokens(t, b)

		var want, got AnthropicBlock
		if fastBlock(b, &got) {
			keepRaw(&got, b)
			if err := slowBlock(b, &want); err != nil {
				t.Fatalf("%q: the fast block read took what Unmarshal refuses (%v)", b, err)
			}
			if !reflect.DeepEqual(want, got) {
				t.Fatalf("%q:\nfast      %+v\nUnmarshal %+v", b, got, want)
			}
		}
		var fu, su rawUsage
		if fastUsage(b, &fu) {
			if err := Unmarshal(b, &su); err != nil {
				t.Fatalf("%q: the fast usage read took what Unmarshal refuses (%v)", b, err)
			}
			if !reflect.DeepEqual(fu, su) {
				t.Fatalf("%q:\nfast      %+v\nUnmarshal %+v", b, fu, su)
			}
		}
	})
}

// BenchmarkSkipLines: the Reader validating the fixtures' objects whole
// (Skip), in bytes a second.
func BenchmarkSkipLines(b *testing.B) {
	objs := fixtureObjects(b, `"type"`)
	n := 0
	for _, v := range objs {
		n += len(v)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, v := range objs {
			w := NewReader(v)
			if !w.Skip() {
				b.Fatalf("%.100s: not read", v)
			}
			w.Done()
		}
	}
}
