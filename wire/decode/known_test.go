package decode

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/encode"
)

// alone decodes each line of in with a decoder of its own: nothing shared
// with the line before, nothing skipped.
func alone(t *testing.T, in []byte) []wire.Request {
	t.Helper()
	var out []wire.Request
	for i, line := range bytes.SplitAfter(in, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		got := decodeBoth(line, Options{Source: "s.jsonl"}, true)
		if len(got.errs) != 0 || len(got.reqs) != 1 {
			t.Fatalf("line %d alone: %d requests, errors %q", i+1, len(got.reqs), got.errs)
		}
		r := got.reqs[0]
		r.Index, r.Line, r.Offset = len(out)+1, i+1, 0
		out = append(out, r)
	}
	return out
}

// sameSegmentsAs fails when the requests' segments and breakpoints are not
// those of want's, request by request.
func sameSegmentsAs(t *testing.T, name string, got, want []wire.Request) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d requests, %d alone", name, len(got), len(want))
	}
	for i := range got {
		if !wire.SameSegments(got[i].Segments, want[i].Segments) || !reflect.DeepEqual(got[i].Breakpoints, want[i].Breakpoints) {
			t.Fatalf("%s: request %d: segments differ from the line decoded alone", name, i+1)
		}
	}
}

// TestShareSkipsKnownSegments: in a generated session most of each
// request's segments come from elements repeated at the places they had in
// the request before, and share does not compare those with the run; the
// requests are those of each line decoded alone. A session whose lines
// change what comes before repeated elements (the system prompt, a tool
// added first, a message taken out, the same message count after another
// system prompt, a tool taken out before segments that end as the run's
// did), repeat a line or go back to an earlier one decodes as each line
// alone too: what is skipped is only what is known (this test fails when
// an element is counted known with segments before it that are not).
func TestShareSkipsKnownSegments(t *testing.T) {
	var gen bytes.Buffer
	if err := encode.GenerateSession(&gen, 40, 5); err != nil {
		t.Fatal(err)
	}
	before := knownSegments.Load()
	got := decodeBoth(gen.Bytes(), Options{Source: "s.jsonl"}, true)
	known := knownSegments.Load() - before
	if len(got.errs) != 0 {
		t.Fatal(got.errs)
	}
	total := 0
	for i := 1; i < len(got.reqs); i++ {
		total += len(got.reqs[i-1].Segments)
	}
	if known < int64(total)*3/4 {
		t.Errorf("%d of the %d segments shared with the request before not compared, want at least three quarters", known, total)
	}
	sameSegmentsAs(t, "generated", got.reqs, alone(t, gen.Bytes()))

	msg := func(role, text string) string {
		return fmt.Sprintf(`{"role":%q,"content":[{"type":"text","text":%q}]}`, role, text)
	}
	body := func(system string, tools []string, msgs ...string) string {
		tl := ""
		if tools != nil {
			tl = `"tools":[` + strings.Join(tools, ",") + `],`
		}
		return `{"model":"claude-sonnet-4-5","max_tokens":10,` + tl + `"system":` + system + `,"messages":[` + strings.Join(msgs, ",") + "]}\n"
	}
	tool := func(name string) string {
		return fmt.Sprintf(`{"name":%q,"description":"does %s","input_schema":{"type":"object"}}`, name, name)
	}
	sys := `[{"type":"text","text":"You are a coding agent."}]`
	a, b, c, d := msg("user", "hello <untrusted_agents_md>x</untrusted_agents_md>"), msg("assistant", "hi"), msg("user", "more"), msg("assistant", "done")
	lines := []string{
		body(sys, []string{tool("read")}, a, b),
		body(sys, []string{tool("read")}, a, b, c),
		body(sys, []string{tool("read")}, a, b, c, d),
		body(`"You are another agent."`, []string{tool("read")}, a, b, c, d),
		body(`"You are another agent, too"`, []string{tool("read")}, a, b, c, d),
		body(sys, []string{tool("write"), tool("read")}, a, b, c, d),
		body(sys, []string{tool("read")}, b, c, d),
		body(sys, []string{tool("read")}, a, b, c, d),
		body(sys, []string{tool("read")}, a, b, c, d),
		body(sys, []string{tool("read")}, a, b),
		body(sys, nil, a, b, c),
		body(sys, []string{tool("read")}, a, b, c, d, a),
		// The segments after the tool taken out are the run's, one place
		// earlier.
		body(sys, []string{tool("read")}, a, b),
		body(sys, nil, a, b, b),
	}
	in := []byte(strings.Join(lines, ""))
	got = decodeBoth(in, Options{Source: "s.jsonl"}, true)
	if len(got.errs) != 0 {
		t.Fatal(got.errs)
	}
	sameSegmentsAs(t, "edited", got.reqs, alone(t, in))
}
