package body

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// LongLine holds a line to its limit exactly: max bytes before the newline
// are read, one more is an error, and the line after it is read whole;
// joined from chunks (no buffer given) or read into the buffer given (one
// with room for every line, one with room for less than the longest).
func TestLongLineExact(t *testing.T) {
	const max = 40
	for _, room := range []int{0, 64, 20} {
		testLongLineExact(t, max, room)
	}
	// Read into a buffer with room, a line is in that buffer.
	buf := make([]byte, 0, 64)
	br := bufio.NewReaderSize(strings.NewReader(strings.Repeat("a", 30)+"\n"), 16)
	b, _ := br.ReadSlice('\n')
	if b, err := LongLine(br, b, max, buf); string(b) != strings.Repeat("a", 30)+"\n" || err != nil || &b[0] != &buf[:1][0] {
		t.Errorf("line %q, %v: want it read into the buffer given", b, err)
	}
	// The length of a line too long counts its newline; the next line is read.
	for _, buf := range [][]byte{nil, make([]byte, 0, 64)} {
		br := bufio.NewReaderSize(strings.NewReader(strings.Repeat("a", 100)+"\nnext\n"), 16)
		b, _ := br.ReadSlice('\n')
		_, err := LongLine(br, b, max, buf)
		var long *LongLineError
		if !errors.As(err, &long) || long.Len != 101 || err.Error() != "line longer than 40 bytes" {
			t.Errorf("error %v (%+v), want a *LongLineError of 101 bytes", err, long)
		}
		if b, err := ReadLine(br); string(b) != "next\n" || err != nil {
			t.Errorf("next line %q, %v", b, err)
		}
	}
}

func testLongLineExact(t *testing.T, max, room int) {
	for _, c := range []struct {
		in    string
		lines []string // "!" for a line too long
	}{
		{strings.Repeat("a", 40) + "\nb\n", []string{strings.Repeat("a", 40) + "\n", "b\n"}},
		{strings.Repeat("a", 41) + "\nb\n", []string{"!", "b\n"}},
		{strings.Repeat("a", 40), []string{strings.Repeat("a", 40)}},
		{strings.Repeat("a", 41), []string{"!"}},
		{strings.Repeat("a", 100) + "\n" + strings.Repeat("c", 30) + "\n", []string{"!", strings.Repeat("c", 30) + "\n"}},
	} {
		br := bufio.NewReaderSize(strings.NewReader(c.in), 16)
		var got []string
		for {
			b, err := br.ReadSlice('\n')
			if err == bufio.ErrBufferFull {
				b, err = LongLine(br, b, max, make([]byte, 0, room))
			} else if n := len(bytes.TrimSuffix(b, []byte("\n"))); n > max {
				b, err = nil, &LongLineError{Max: max}
			}
			var long *LongLineError
			if errors.As(err, &long) {
				got = append(got, "!")
				continue
			}
			if len(b) > 0 {
				got = append(got, string(b))
			}
			if err != nil {
				break
			}
		}
		if strings.Join(got, "|") != strings.Join(c.lines, "|") {
			t.Errorf("room %d, %q: lines %q, want %q", room, c.in, got, c.lines)
		}
	}
}

// A walk holds the members the readers look at, one of each name (the
// last): an object of a hundred thousand other members, or one read member
// repeated as often, holds a few.
func TestWalkHoldsReadMembers(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"model":"a"`)
	for range 100_000 {
		b.WriteString(`,"x":[0,0],"model":"b"`)
	}
	b.WriteString(`,"m\u0065ssages":[1,{"role":"user"},3],"model":"c"}`)
	s, err := WalkShape(jsontext.Value(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 200_003 || len(s.members) != 2 {
		t.Fatalf("Len %d, %d members held; want 200003 and 2", s.Len(), len(s.members))
	}
	if m := s.get("model"); m == nil || string(m.v) != `"c"` {
		t.Errorf("model %v, want the last", m)
	}
	var els []string
	for i, el := range s.get("messages").elems() {
		els = append(els, string(el.v))
		if got := string(s.v[el.off : el.off+int64(len(el.v))]); got != string(el.v) || i != len(els)-1 {
			t.Errorf("element %d at offset %d reads %q", i, el.off, got)
		}
	}
	if strings.Join(els, " ") != `1 {"role":"user"} 3` {
		t.Errorf("elements %q", els)
	}
	// A Walker keeps nothing of what it walked.
	var w Walker
	if _, err := w.Walk(jsontext.Value(`{"model":"x"}`)); err != nil {
		t.Fatal(err)
	}
	if w.buf.Len() != 0 || len(w.ms) != 0 || len(w.dec.UnreadBuffer()) != 0 {
		t.Errorf("the walker holds the object walked")
	}
}

// hostileString is the text of a JSON string with escapes of every kind,
// surrogate pairs (split and whole), invalid UTF-8 and runes of every width.
func hostileString(r *rand.Rand, n int) string {
	atoms := []string{`a`, `bc`, `\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0041`, `\u00e9`, `\u20ac`,
		`\ud83d\ude00`, `\ud83d`, `\ude00`, `\uD83D\uDE00`, `\ud83d\ud83d\ude00`, "é", "€", "😀", "\xff", "\xe2\x82", "\x80"}
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(atoms[r.Intn(len(atoms))])
	}
	return b.String()
}

// unquoteLong gives what json gives, however the pieces fall.
func TestUnquoteLong(t *testing.T) {
	defer func(n int) { unquotePiece = n }(unquotePiece)
	r := rand.New(rand.NewSource(1))
	for _, piece := range []int{1, 2, 5, 7, 13, 64, 32 << 10} {
		unquotePiece = piece
		for range 200 {
			val := []byte(`"` + hostileString(r, r.Intn(300)) + `"`)
			want, _ := jsontext.AppendUnquote(nil, val)
			if got := unquoteLong(val); got != string(want) {
				t.Fatalf("piece %d: %q unquotes to %q, want %q", piece, val, got, want)
			}
		}
	}
}

// A long string read by Unmarshal is json's text, in a struct field, in a
// block read by its own method, and in a slice of them.
func TestUnmarshalLongString(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	text := hostileString(r, 3*longString)
	raw := []byte(`{"role":"user","content":[{"type":"text","text":"` + text + `"},{"type":"text","text":"` + hostileString(r, 100) + `"}]}`)
	var got, want anthropicMessage
	if err := Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &want, jsonOpts...); err != nil {
		t.Fatal(err)
	}
	if len(got.Content.Blocks) != 2 || got.Content.Blocks[0].Text != want.Content.Blocks[0].Text ||
		got.Content.Blocks[1].Text != want.Content.Blocks[1].Text {
		t.Errorf("long text differs from json's")
	}
	raw = []byte(`{"role":"user","content":"` + text + `"}`)
	got, want = anthropicMessage{}, anthropicMessage{}
	Unmarshal(raw, &got)
	json.Unmarshal(raw, &want, jsonOpts...)
	if !got.Content.IsStr || got.Content.Str != want.Content.Str {
		t.Errorf("long string content differs from json's")
	}
	// A long value of another kind where a string belongs is json's error.
	raw = []byte(`{"role":[` + strings.Repeat("1,", longString) + `1]}`)
	if err := Unmarshal(raw, &got); err == nil || !strings.Contains(DescribeError(err), "/role") {
		t.Errorf("error %v, want one at /role", err)
	}
}

func FuzzUnquoteLong(f *testing.F) {
	r := rand.New(rand.NewSource(3))
	for range 20 {
		f.Add(hostileString(r, 40), 3)
	}
	f.Fuzz(func(t *testing.T, s string, piece int) {
		val := []byte(`"` + s + `"`)
		if !jsontext.Value(val).IsValid(jsontext.AllowInvalidUTF8(true)) {
			return // unquoteLong is only given valid strings
		}
		defer func(n int) { unquotePiece = n }(unquotePiece)
		unquotePiece = 1 + (piece&0xffff)%64
		want, _ := jsontext.AppendUnquote(nil, val)
		if got := unquoteLong(val); got != string(want) {
			t.Fatalf("piece %d: %q unquotes to %q, want %q", unquotePiece, val, got, want)
		}
	})
}

// A long string is read in time linear in its length: each piece searches
// only its own bytes (and one more) for a backslash, not the rest of the
// string (which made 160 MB take 38 s).
func TestUnquoteLongSearchesLinearly(t *testing.T) {
	defer func(n int, f func([]byte) int) { unquotePiece, indexBackslash = n, f }(unquotePiece, indexBackslash)
	unquotePiece = 1 << 10
	searched := 0
	indexBackslash = func(b []byte) int {
		searched += len(b)
		return bytes.IndexByte(b, '\\')
	}
	text := strings.Repeat("abcdefgh", 64<<10) + `\n` + strings.Repeat("z", 100<<10)
	val := []byte(`"` + text + `"`)
	var want string
	if err := json.Unmarshal(val, &want); err != nil {
		t.Fatal(err)
	}
	if got := unquoteLong(val); got != want {
		t.Fatalf("unquoteLong differs from json (%d bytes, want %d)", len(got), len(want))
	}
	if limit := 2 * len(val); searched > limit {
		t.Fatalf("searched %d bytes for backslashes in a %d-byte string (more than %d): quadratic", searched, len(val), limit)
	}
}

// BenchmarkUnquoteLong reads one string of 10, 40 and 160 MB with no
// escape in it (run with -benchtime=1x: the time of one read each).
func BenchmarkUnquoteLong(b *testing.B) {
	for _, mb := range []int{10, 40, 160} {
		val := []byte(`"` + strings.Repeat("abcdefghij", mb<<20/10) + `"`)
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			b.SetBytes(int64(len(val)))
			for b.Loop() {
				if s := unquoteLong(val); len(s) != len(val)-2 {
					b.Fatal(len(s))
				}
			}
		})
	}
}
