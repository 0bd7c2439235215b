package decode

import (
	"errors"
	"fmt"
	"iter"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// numbered yields n requests (Index 1..n), an error after every third, and
// records how far it got and whether it returned.
func numbered(n int, got *int, returned *bool) iter.Seq2[wire.Request, error] {
	return func(yield func(wire.Request, error) bool) {
		defer func() { *returned = true }()
		for i := 1; i <= n; i++ {
			*got = i
			if !yield(wire.Request{Index: i}, nil) {
				return
			}
			if i%3 == 0 && !yield(wire.Request{}, fmt.Errorf("after %d", i)) {
				return
			}
		}
	}
}

func TestAheadKeepsOrder(t *testing.T) {
	var got int
	var returned bool
	var want, have []string
	for r, err := range numbered(50, &got, &returned) {
		want = append(want, fmt.Sprint(r.Index, err))
	}
	got, returned = 0, false
	for r, err := range Ahead(numbered(50, &got, &returned), 4) {
		have = append(have, fmt.Sprint(r.Index, err))
	}
	if strings.Join(have, ",") != strings.Join(want, ",") {
		t.Fatalf("Ahead changed the sequence:\n%v\nwant\n%v", have, want)
	}
	if !returned || got != 50 {
		t.Fatalf("the source ran to %d, returned %v", got, returned)
	}
}

func TestAheadStopsTheSource(t *testing.T) {
	var got int
	var returned bool
	seen := 0
	for r, err := range Ahead(numbered(100000, &got, &returned), 4) {
		if err != nil {
			continue
		}
		if seen++; r.Index != seen {
			t.Fatalf("request %d came as %d", seen, r.Index)
		}
		if seen == 10 {
			break
		}
	}
	// Ahead returned: the source must have returned too, a few requests on.
	if !returned {
		t.Fatal("the source still runs after the loop stopped")
	}
	if got < 10 || got > 10+4+2 {
		t.Fatalf("the source decoded up to %d for a loop that took 10 (4 ahead)", got)
	}
}

// TestAheadOnASession decodes a real session both ways: the same requests
// and errors, and (under -race) no write to a request handed out.
func TestAheadOnASession(t *testing.T) {
	in := strings.Join([]string{
		`{"model":"m","system":"s","messages":[{"role":"user","content":"a"}]}`,
		`{"model":"m","system":"s","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}]}`,
		`{broken`,
		`{"model":"m","system":"s","messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"}]}`,
	}, "\n") + "\n"
	var direct, ahead []string
	show := func(r wire.Request, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		var b strings.Builder
		for _, s := range r.Segments {
			b.WriteString(s.ID + "=" + s.Text + ";")
		}
		return b.String()
	}
	for r, err := range Decode(strings.NewReader(in), Options{Source: "s.jsonl"}) {
		direct = append(direct, show(r, err))
	}
	for r, err := range Ahead(Decode(strings.NewReader(in), Options{Source: "s.jsonl"}), 1) {
		ahead = append(ahead, show(r, err))
	}
	if strings.Join(direct, "\n") != strings.Join(ahead, "\n") {
		t.Fatalf("ahead:\n%s\ndirect:\n%s", strings.Join(ahead, "\n"), strings.Join(direct, "\n"))
	}
	var de *Error
	n := 0
	for _, err := range Ahead(Decode(strings.NewReader(in), Options{Source: "s.jsonl"}), 1) {
		if errors.As(err, &de) {
			n++
		}
	}
	if n == 0 || len(direct) < 4 {
		t.Fatalf("expected 3 requests and the broken line's error, got %d lines, %d errors", len(direct), n)
	}
}
