package recording

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
	"unsafe"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// testdataLines are the lines of the testdata files that match the globs
// (gzipped ones uncompressed).
func testdataLines(t *testing.T, globs ...string) [][]byte {
	t.Helper()
	var out [][]byte
	for _, g := range globs {
		files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", g))
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
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
				out = append(out, bytes.Clone(sc.Bytes()))
			}
		}
	}
	return out
}

// TestClaudeCodeEntryReadMatchesUnmarshal: every line of the Claude Code
// transcripts in testdata, and odd ones, read by the token reader is what
// json.Unmarshal made of it, or the token reader gives up; it takes nearly
// every real line.
func TestClaudeCodeEntryReadMatchesUnmarshal(t *testing.T) {
	lines := testdataLines(t, "claude-code-transcripts/*.jsonl*", "recordings/claude-code/*/*.jsonl")
	real := len(lines)
	for _, s := range []string{
		`{}`, `{"type":"user","parentUuid":null,"uuid":"u","message":null}`, `{"type":"user","parentUuid":"p","parentUuid":null}`,
		`{"type":"user","isSidechain":null}`, `{"type":"user","isSidechain":"true"}`, `{"type":"user","message":{"role":"user","content":"hi"},"message":{"id":"x"}}`,
		`{"type":"system","subtype":"microcompact_boundary","microcompactMetadata":{"compactedToolIds":["a",null,"b"]}}`,
		`{"type":"system","microcompactMetadata":{"compactedToolIds":null}}`, `{"type":"system","microcompactMetadata":null}`,
		`{"type":"system","microcompactMetadata":{"compactedToolIds":[1]}}`, `{"type":"assistant","message":{"content":[{"type":"text","text":"a"}],"usage":{"input_tokens":1},"diagnostics":null}}`,
		`{"type":"user"} trailing`, `{"type":"user"}{}`, `{"type":"user","uuid":"\u0075"}`, `{"ty\u0070e":"user"}`, `{"type":"user","message":{"content":7}}`,
		`{"type":"user","timestamp":"2026-01-01T00:00:00Z","cwd":"/x","version":"2.1","logicalParentUuid":"l"}`, `{"type":"user","uuid":"\xff"}`,
		`{"type":"us\u0065r","version":"\u0032.1","cwd":"/\xff","message":{"role":"\u0075ser","model":"m\"x","content":"c"}}`,
	} {
		lines = append(lines, []byte(s))
	}
	fast := 0
	for _, l := range lines {
		var want, got claudeCodeEntry
		werr := body.Unmarshal(l, &want)
		if !got.read(l, nil, "") {
			continue
		}
		fast++
		if werr != nil {
			t.Errorf("%.200s: the token reader took what Unmarshal refuses (%v)", l, werr)
			continue
		}
		if got = plainEntry(got); !reflect.DeepEqual(want, got) {
			t.Errorf("%.200s:\ntoken reader %+v\nUnmarshal    %+v", l, got, want)
		}
	}
	t.Logf("%d of %d lines read by the token reader (%d real)", fast, len(lines), real)
	if real < 5000 || fast < real {
		t.Fatalf("%d of %d lines read by the token reader (%d real)", fast, len(lines), real)
	}
}

// TestClaudeCodeEntryReadShares: read with an interner, every line of the
// transcripts gives what it gives without one, and a line read again shares
// the texts of its content blocks with the first read instead of copying
// them (a folder of transcripts repeats tool results across files).
func TestClaudeCodeEntryReadShares(t *testing.T) {
	lines := testdataLines(t, "claude-code-transcripts/*.jsonl*", "recordings/claude-code/*/*.jsonl")
	in := wire.NewInterner()
	shared := 0
	for _, l := range lines {
		var plain, first, again claudeCodeEntry
		if !plain.read(l, nil, "") {
			continue
		}
		if !first.read(l, in, "") || !again.read(bytes.Clone(l), in, "") {
			t.Fatalf("%.200s: read with an interner gave up", l)
		}
		if !reflect.DeepEqual(plain, first) || !reflect.DeepEqual(plain, again) {
			t.Fatalf("%.200s: read with an interner differs", l)
		}
		if first.Message == nil {
			continue
		}
		if c := first.Message.Content; c.IsStr && c.Str != "" {
			if unsafe.StringData(c.Str) != unsafe.StringData(again.Message.Content.Str) {
				t.Fatalf("%.200s: the content read twice is two copies", l)
			}
			shared++
		}
		for i, b := range first.Message.Content.Blocks {
			if b.Text == "" {
				continue
			}
			if unsafe.StringData(b.Text) != unsafe.StringData(again.Message.Content.Blocks[i].Text) {
				t.Fatalf("%.200s: block %d's text read twice is two copies", l, i)
			}
			shared++
		}
	}
	if shared < 300 {
		t.Fatalf("only %d texts compared", shared)
	}
}

// plainEntry is e as json.Unmarshal would leave it: its parent and message
// in values of their own, the token reader's scratch fields empty.
func plainEntry(e claudeCodeEntry) claudeCodeEntry {
	if e.ParentUUID != nil {
		p := *e.ParentUUID
		e.ParentUUID = &p
	}
	if e.Message != nil {
		m := *e.Message
		e.Message = &m
	}
	e.parent, e.msg = "", claudeCodeMessage{}
	return e
}

// TestClaudeCodeParentShared: a parentUuid that is the uuid of the entry
// read before is that string, not a copy; another is read as written.
func TestClaudeCodeParentShared(t *testing.T) {
	prev := string([]byte("u-1"))
	var e claudeCodeEntry
	if !e.read([]byte(`{"type":"user","uuid":"u-2","parentUuid":"u-1"}`), nil, prev) || *e.ParentUUID != "u-1" ||
		unsafe.StringData(*e.ParentUUID) != unsafe.StringData(prev) {
		t.Errorf("the parent the entry before names is not shared: %v", e.ParentUUID)
	}
	e = claudeCodeEntry{}
	if !e.read([]byte(`{"type":"user","uuid":"u-3","parentUuid":"u-\u0031x"}`), nil, prev) || *e.ParentUUID != "u-1x" {
		t.Errorf("another parent: %q", *e.ParentUUID)
	}
}
