package decode

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/encode"
)

// decoded is everything one Decode gives: requests and errors, in order.
type decoded struct {
	reqs []wire.Request
	errs []string
}

func decodeBoth(in []byte, opts Options, tail bool) decoded {
	defer func(was bool) { walkAfter = was }(walkAfter)
	walkAfter = tail
	return decodeEach(bytes.NewReader(in), opts)
}

// decodeEach is every request and error Decode gives of r, an error in
// the place of a request.
func decodeEach(r io.Reader, opts Options) decoded {
	var out decoded
	for r, err := range Decode(r, opts) {
		if err != nil {
			out.errs = append(out.errs, err.Error())
			out.reqs = append(out.reqs, wire.Request{})
			continue
		}
		out.reqs = append(out.reqs, r)
	}
	return out
}

// sameBothWays decodes in with the tail walk and without it, and fails
// when anything differs.
func sameBothWays(t *testing.T, name string, in []byte, opts Options) {
	t.Helper()
	before := tailWalks.Load()
	got := decodeBoth(in, opts, true)
	walked := tailWalks.Load() - before
	want := decodeBoth(in, opts, false)
	if tailWalks.Load()-before != walked {
		t.Errorf("%s: lines walked after the one before with the tail walk off", name)
	}
	sameDecoded(t, name, "with the tail walk", got, "without", want)
}

// sameDecoded fails when got (decoded one way, said by how) and want
// (decoded the other, said by other) differ in an error or a request.
func sameDecoded(t *testing.T, name, how string, got decoded, other string, want decoded) {
	t.Helper()
	if !reflect.DeepEqual(got.errs, want.errs) {
		t.Errorf("%s: errors %s\n%q\n%s\n%q", name, how, got.errs, other, want.errs)
	}
	if len(got.reqs) != len(want.reqs) {
		t.Fatalf("%s: %d requests %s, %d %s", name, len(got.reqs), how, len(want.reqs), other)
	}
	for i := range got.reqs {
		if !reflect.DeepEqual(got.reqs[i], want.reqs[i]) {
			t.Errorf("%s: request %d differs %s:\n%+v\n%s:\n%+v", name, i+1, how, got.reqs[i], other, want.reqs[i])
			return
		}
	}
}

// Walking each line after the body of the line before gives what walking
// it in full gives, byte for byte: every fixture of the repository, and a
// generated session.
func TestTailWalkSameAsFullEveryFixture(t *testing.T) {
	root := filepath.Join("..", "..", "testdata")
	n := 0
	err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		in, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		sameBothWays(t, path, in, Options{Source: path})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 50 {
		t.Errorf("only %d fixtures read", n)
	}
	var gen bytes.Buffer
	if err := encode.GenerateSession(&gen, 60, 7); err != nil {
		t.Fatal(err)
	}
	got := decodeBoth(gen.Bytes(), Options{Source: "gen.jsonl"}, true)
	if len(got.reqs) != 60 || len(got.errs) != 0 {
		t.Fatalf("generated session: %d requests, errors %q", len(got.reqs), got.errs)
	}
	before := tailWalks.Load()
	sameBothWays(t, "generated", gen.Bytes(), Options{Source: "gen.jsonl"})
	if n := tailWalks.Load() - before; n != 59 {
		t.Errorf("%d lines of 60 walked after the line before, want 59", n)
	}
}

// Sessions whose lines differ from the one before anywhere (in the
// system, inside a message, after the messages, in a member added or
// repeated), or break there (invalid JSON, invalid UTF-8, nesting too deep,
// trailing data), decode the same with the tail walk and without.
func TestTailWalkSameAsFullEdited(t *testing.T) {
	var gen bytes.Buffer
	if err := encode.GenerateSession(&gen, 16, 5); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(gen.String(), "\n"), "\n")
	edits := []func(l string, r *rand.Rand) string{
		func(l string, r *rand.Rand) string { return l },
		// a byte changed anywhere (in a string, most likely)
		func(l string, r *rand.Rand) string {
			i := r.Intn(len(l))
			if l[i] >= 'a' && l[i] <= 'y' {
				return l[:i] + string(l[i]+1) + l[i+1:]
			}
			return l
		},
		// cut short: invalid JSON
		func(l string, r *rand.Rand) string { return l[:len(l)-1-r.Intn(len(l)/2)] },
		// trailing data
		func(l string, r *rand.Rand) string { return l + ` {}` },
		// invalid UTF-8 near the end
		func(l string, r *rand.Rand) string {
			return strings.Replace(l, `"type":"text","text":"`, "\"type\":\"text\",\"text\":\"\xff", 1)
		},
		func(l string, r *rand.Rand) string {
			i := strings.LastIndex(l, `"text":"`)
			if i < 0 {
				return l
			}
			return l[:i+8] + "\xe2\x82" + l[i+8:]
		},
		// nested too deep near the end
		func(l string, r *rand.Rand) string {
			return l[:len(l)-1] + `,"x":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`
		},
		// a member added after the messages, a member repeated, the model repeated
		func(l string, r *rand.Rand) string { return l[:len(l)-1] + `,"metadata":{"user_id":"u"}}` },
		func(l string, r *rand.Rand) string { return l[:len(l)-1] + `,"system":"again"}` },
		func(l string, r *rand.Rand) string { return l[:len(l)-1] + `,"model":"other"}` },
		// messages emptied; messages not an array; the last message dropped
		func(l string, r *rand.Rand) string {
			i := strings.Index(l, `"messages":[`)
			return l[:i] + `"messages":[]}`
		},
		func(l string, r *rand.Rand) string {
			i := strings.Index(l, `"messages":[`)
			return l[:i] + `"messages":{"a":1}}`
		},
		func(l string, r *rand.Rand) string {
			i := strings.LastIndex(l, `,{"role":`)
			if i < 0 {
				return l
			}
			return l[:i] + `]}`
		},
		// white space inside, a blank line, another format
		func(l string, r *rand.Rand) string { return strings.Replace(l, `},{"role":`, "} , \t{\"role\":", -1) },
		func(l string, r *rand.Rand) string { return "" },
		func(l string, r *rand.Rand) string {
			return `{"model":"gpt","messages":[{"role":"system","content":"hi"}]}`
		},
		func(l string, r *rand.Rand) string { return `[` + l + `]` },
	}
	r := rand.New(rand.NewSource(11))
	before := tailWalks.Load()
	for round := range 120 {
		var b strings.Builder
		var used []int
		for _, l := range lines {
			e := 0
			if r.Intn(3) == 0 {
				e = r.Intn(len(edits))
			}
			used = append(used, e)
			b.WriteString(edits[e](l, r))
			b.WriteByte('\n')
		}
		sameBothWays(t, fmt.Sprintf("round %d, edits %v", round, used), []byte(b.String()), Options{Source: "s.jsonl"})
		if t.Failed() {
			return
		}
	}
	// Most lines are left as they were: most are walked after the one before.
	if n := tailWalks.Load() - before; n < 120*8 {
		t.Errorf("%d lines walked after the one before, want most of %d", n, 120*16)
	}
}

// A session of growing requests shares segment arrays: a request that
// starts with every segment of the one before is held in that one's array
// (the moving cache breakpoint is the request's, not a segment's, so every
// request of a generated session extends the one before), so the segment
// headers held grow with the distinct segments, not with every request:
// here the arrays hold no more than three times the longest request's
// segments, where all the requests hold 40 to 120 times as many. Each
// request has no room after its segments: appending to one never writes
// into another.
func TestDecodeSharesSegmentRuns(t *testing.T) {
	for _, n := range []int{80, 240} {
		var gen bytes.Buffer
		if err := encode.GenerateSession(&gen, n, 2); err != nil {
			t.Fatal(err)
		}
		got := decodeBoth(gen.Bytes(), Options{Source: "s.jsonl"}, true)
		if len(got.reqs) != n || len(got.errs) != 0 {
			t.Fatalf("%d requests, errors %q", len(got.reqs), got.errs)
		}
		arrays := map[*wire.Segment]int{} // first segment's address: the longest request on it
		total, longest := 0, 0
		for i, r := range got.reqs {
			if cap(r.Segments) != len(r.Segments) {
				t.Fatalf("request %d: room for %d segments after its %d", i+1, cap(r.Segments)-len(r.Segments), len(r.Segments))
			}
			if len(r.Breakpoints) == 0 {
				t.Fatalf("request %d: no cache breakpoint", i+1)
			}
			total += len(r.Segments)
			longest = max(longest, len(r.Segments))
			arrays[&r.Segments[0]] = max(arrays[&r.Segments[0]], len(r.Segments))
		}
		held := 0
		for _, k := range arrays {
			held += k
		}
		if held > 3*longest || len(arrays) > 8 {
			t.Errorf("%d requests: %d arrays holding %d segments, for %d in the longest request and %d in all: not shared",
				n, len(arrays), held, longest, total)
		}
		// An append to one request leaves the next as it was.
		next := slices.Clone(got.reqs[11].Segments)
		_ = append(got.reqs[10].Segments, wire.Segment{ID: "appended"})
		if !reflect.DeepEqual(next, got.reqs[11].Segments) {
			t.Errorf("appending to request 11 changed request 12")
		}
		t.Logf("%d requests: %d arrays holding %d segments, %d in the longest request, %d in all", n, len(arrays), held, longest, total)
	}
}

// The line reader that compares a line with the body before it first
// (sharedLine) finds the same lines, NUL bytes and errors as ReadSlice and
// the full NUL check: a NUL byte after the shared bytes or before them, a
// line repeated, white space before a line, CRLF, a last line without a
// newline, lines longer than the reader's buffer after one it holds, read
// through a seekable input and through one that is not.
func TestSharedLineSameAsReadSlice(t *testing.T) {
	var gen bytes.Buffer
	if err := encode.GenerateSession(&gen, 12, 3); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(gen.String(), "\n"), "\n")
	last := lines[len(lines)-1]
	big := last[:len(last)-2] + `,{"role":"user","content":"` + strings.Repeat("long ", 300<<10) + `"}]}`
	bigger := big[:len(big)-2] + `,{"role":"assistant","content":"` + strings.Repeat("longer ", 30<<10) + `"}]}`
	cases := map[string][]string{
		"plain":          lines,
		"nul after":      {lines[0], lines[1], lines[2][:len(lines[2])-40] + "\x00" + lines[2][len(lines[2])-39:], lines[3]},
		"nul at the end": {lines[0], lines[1] + "\x00", lines[2]},
		"nul early":      {lines[0], lines[1][:5] + "\x00" + lines[1][6:], lines[2]},
		"repeated":       {lines[0], lines[1], lines[1], lines[1], lines[2]},
		"white space":    {lines[0], "  \t" + lines[1], lines[2] + "   ", lines[3]},
		"crlf":           {lines[0] + "\r", lines[1] + "\r", lines[2] + "\r"},
		"a prefix":       {lines[0], lines[2], lines[2][:len(lines[2])/2], lines[3]},
		"long after":     {lines[0], lines[1], big, big, lines[2]},
		"long growing":   {lines[0], big, bigger, bigger[:len(bigger)-2] + `,{"role":"user","content":"more"}]}`, lines[1]},
		"blank":          {lines[0], "", lines[1], " ", lines[2]},
	}
	for name, ls := range cases {
		for _, end := range []string{"\n", ""} {
			in := []byte(strings.Join(ls, "\n") + end)
			before, wide := sharedLines.Load(), widened.Load()
			sameBothWays(t, name+" (seekable)", in, Options{Source: "s.jsonl"})
			if name == "plain" && sharedLines.Load()-before < int64(len(ls)-2) {
				t.Errorf("%s: %d lines of %d read after the body before", name, sharedLines.Load()-before, len(ls))
			}
			// After the first long line the reader is widened, once, and
			// the two after it are in its buffer (with the tail walk and
			// without).
			if name == "long growing" && (widened.Load()-wide != 2 || sharedLines.Load()-before < 2) {
				t.Errorf("%s: reader widened %d times, %d lines read after the body before; want 1 each way and the two long ones",
					name, widened.Load()-wide, sharedLines.Load()-before)
			}
			// Not widened, the two long lines after the first are read
			// once, into the buffer of the one before.
			if name == "long growing" {
				old := wideMax
				wideMax = 0
				once := longOnce.Load()
				sameBothWays(t, name+" (seekable, not widened)", in, Options{Source: "s.jsonl"})
				wideMax = old
				if longOnce.Load()-once != 2*2 {
					t.Errorf("%s: %d long lines read once, want 2 each way", name, longOnce.Load()-once)
				}
			}
			got := decodeBoth(in, Options{Source: "s.jsonl"}, true)
			pipe := decodeThrough(in, Options{Source: "s.jsonl"})
			if !reflect.DeepEqual(got.errs, pipe.errs) || len(got.reqs) != len(pipe.reqs) {
				t.Errorf("%s: through a pipe errors %q, %d requests; seekable %q, %d", name, pipe.errs, len(pipe.reqs), got.errs, len(got.reqs))
			}
		}
	}
	// The NUL bytes are reported where they are, either way.
	got := decodeBoth([]byte(strings.Join(cases["nul after"], "\n")), Options{Source: "s.jsonl"}, true)
	if len(got.errs) != 1 || !strings.Contains(got.errs[0], "NUL") {
		t.Errorf("nul after: errors %q, want one naming the NUL byte", got.errs)
	}
}

// decodeThrough decodes in read through a reader that cannot seek.
func decodeThrough(in []byte, opts Options) decoded {
	var out decoded
	for r, err := range Decode(struct{ io.Reader }{bytes.NewReader(in)}, opts) {
		if err != nil {
			out.errs = append(out.errs, err.Error())
			out.reqs = append(out.reqs, wire.Request{})
			continue
		}
		out.reqs = append(out.reqs, r)
	}
	return out
}

// A line shorter than a long one before it, sharing its start, is walked
// after it: the messages array of the line before ended past the end of the
// reader's buffer, which kept once sliced to (a panic: slice bounds out of
// range).
func TestTailWalkShorterAfterLong(t *testing.T) {
	var gen bytes.Buffer
	if err := encode.GenerateSession(&gen, 12, 3); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(gen.String(), "\n"), "\n")
	last := lines[len(lines)-1]
	big := last[:len(last)-2] + `,{"role":"user","content":"` + strings.Repeat("long ", 300<<10) + `"}]}`
	in := []byte(strings.Join([]string{lines[0], big, lines[2], big, lines[1]}, "\n") + "\n")
	before := tailWalks.Load()
	sameBothWays(t, "shorter after long", in, Options{Source: "s.jsonl"})
	if n := tailWalks.Load() - before; n < 4 {
		t.Errorf("%d lines walked after the line before, want 4", n)
	}
	if got := decodeBoth(in, Options{Source: "s.jsonl"}, true); len(got.errs) != 0 || len(got.reqs) != 5 {
		t.Errorf("%d requests, errors %q; want 5 and none", len(got.reqs), got.errs)
	}
}

// Whatever a session's lines hold, reading and walking each after the body
// before (sharedLine, WalkAfter) gives what reading and walking it in full
// gives: seeded with a generated session and edits of it.
//
// The seeds are small (a generated session's first requests are tens of
// kilobytes each, and at that size the fuzzer runs a few dozen inputs a
// second: CI's budget of runs took minutes): a growing session of four
// short lines, as a session's are, each the one before plus a turn.
func FuzzTailWalkSame(f *testing.F) {
	addSessionSeeds(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		sameBothWays(t, "fuzzed", in, Options{Source: "f.jsonl"})
	})
}

// addSessionSeeds seeds a fuzzer of session decoding: a growing session of
// four short lines, as a session's are, each the one before plus a turn,
// with CRLF line ends, with NUL bytes, and with blank lines.
func addSessionSeeds(f *testing.F) string {
	var gen strings.Builder
	msgs := `{"role":"user","content":"hi"}`
	for i := range 4 {
		fmt.Fprintf(&gen, `{"model":"m","system":[{"type":"text","text":"rules","cache_control":{"type":"ephemeral"}}],"messages":[%s]}`+"\n", msgs)
		msgs += fmt.Sprintf(`,{"role":"assistant","content":"ok %d"},{"role":"user","content":[{"type":"text","text":"turn %d"}]}`, i, i)
	}
	s := gen.String()
	f.Add([]byte(s))
	f.Add([]byte(strings.ReplaceAll(s, "\n", "\r\n")))
	f.Add([]byte(strings.Replace(s, `"text":"`, "\"text\":\"\x00", 3)))
	f.Add([]byte(strings.Replace(s, "}]}\n", "}]} \n\n  ", 2)))
	return s
}
