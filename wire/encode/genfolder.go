package encode

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// FolderSource is one real transcript a generated folder is made from: the
// agent's format ("claude-code" or "codex") and the file's bytes.
type FolderSource struct {
	Format string
	Name   string // the file's base name (a Codex rollout's name carries its date and id)
	Data   []byte
}

// Folder is what GenerateFolder wrote.
type Folder struct {
	Files []string // the paths, in the order written
	Bytes int64    // their total size
}

// GenerateFolder writes files transcripts under dir as the agents lay them
// out (Claude Code's projects/<encoded-cwd>/<session>.jsonl, Codex's
// sessions/YYYY/MM/DD/rollout-...jsonl), each made from one of srcs: a
// prefix of its lines (a session cut where a user's folder would hold it,
// log-uniform between 8 KB and 512 KB), with every UUID changed the same way
// throughout the file (links between entries still hold, no two files share
// an id) and every timestamp moved by the file's own offset, so that nothing
// is trivially shared between files. About 7 in 10 files are Claude Code's
// when both formats are given. Modification times are set one second apart
// in the order written, so a directory walk orders them the same way every
// time. The same srcs, files and seed give the same folder.
func GenerateFolder(dir string, srcs []FolderSource, files int, seed int64) (*Folder, error) {
	var claude, codex []FolderSource
	for _, s := range srcs {
		switch s.Format {
		case "claude-code":
			claude = append(claude, s)
		case "codex":
			codex = append(codex, s)
		default:
			return nil, fmt.Errorf("GenerateFolder: %s: format %q, want claude-code or codex", s.Name, s.Format)
		}
	}
	if len(claude)+len(codex) == 0 {
		return nil, fmt.Errorf("GenerateFolder: no sources")
	}
	rnd := rand.New(rand.NewPCG(uint64(seed), 0x2545f4914f6cdd1d))
	out := &Folder{}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range files {
		var src FolderSource
		switch {
		case len(codex) == 0 || len(claude) > 0 && rnd.IntN(10) < 7:
			src = claude[rnd.IntN(len(claude))]
		default:
			src = codex[rnd.IntN(len(codex))]
		}
		budget := int(8192 * math.Exp(rnd.Float64()*math.Log(64)))
		key := rnd.Uint32()
		shift := time.Duration(i+1) * 37 * time.Minute
		data := varyIDs(prefixLines(src.Data, budget), key)
		data = shiftStamps(data, shift)
		var path string
		switch src.Format {
		case "claude-code":
			path = filepath.Join(dir, "claude", "projects", fmt.Sprintf("-home-dev-p%d", i%40),
				string(varyIDs([]byte(src.Name), key)))
		default:
			day := base.Add(shift)
			path = filepath.Join(dir, "codex", "sessions", day.Format("2006/01/02"),
				string(varyIDs([]byte(src.Name), key)))
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return nil, err
		}
		mod := base.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(path, mod, mod); err != nil {
			return nil, err
		}
		out.Files = append(out.Files, path)
		out.Bytes += int64(len(data))
	}
	return out, nil
}

// prefixLines is the first lines of data up to about budget bytes (at least
// three lines, whole lines only).
func prefixLines(data []byte, budget int) []byte {
	n, lines := 0, 0
	for n < len(data) && (n < budget || lines < 3) {
		i := bytes.IndexByte(data[n:], '\n')
		if i < 0 {
			return data
		}
		n += i + 1
		lines++
	}
	return data[:n]
}

// varyIDs changes every UUID in b (lower-case hex, 8-4-4-4-12) by key: its
// first eight hex digits are xored with it, so equal ids stay equal and
// distinct ones distinct.
func varyIDs(b []byte, key uint32) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		if !isUUID(b[i:]) {
			out = append(out, b[i])
			i++
			continue
		}
		head, _ := strconv.ParseUint(string(b[i:i+8]), 16, 32)
		out = fmt.Appendf(out, "%08x", uint32(head)^key)
		out = append(out, b[i+8:i+36]...)
		i += 36
	}
	return out
}

func isUUID(b []byte) bool {
	if len(b) < 36 {
		return false
	}
	for i := range 36 {
		switch i {
		case 8, 13, 18, 23:
			if b[i] != '-' {
				return false
			}
		default:
			if c := b[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
				return false
			}
		}
	}
	return true
}

// shiftStamps moves every RFC 3339 UTC time in b
// (YYYY-MM-DDTHH:MM:SS[.fraction]Z) by d, keeping its precision.
func shiftStamps(b []byte, d time.Duration) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); {
		n := stampLen(b[i:])
		if n == 0 {
			out = append(out, b[i])
			i++
			continue
		}
		s := b[i : i+n]
		t, err := time.Parse(time.RFC3339Nano, string(s))
		if err != nil {
			out = append(out, s...)
		} else {
			layout := "2006-01-02T15:04:05"
			if n > 20 {
				layout += "." + strings.Repeat("0", n-21)
			}
			out = t.Add(d).AppendFormat(out, layout+"Z")
		}
		i += n
	}
	return out
}

// stampLen is the length of the UTC time at the start of b, or 0.
func stampLen(b []byte) int {
	const shape = "dddd-dd-ddTdd:dd:dd"
	if len(b) < len(shape)+1 {
		return 0
	}
	for i := range len(shape) {
		if shape[i] == 'd' {
			if b[i] < '0' || b[i] > '9' {
				return 0
			}
		} else if b[i] != shape[i] {
			return 0
		}
	}
	n := len(shape)
	if b[n] == '.' {
		k := n + 1
		for k < len(b) && b[k] >= '0' && b[k] <= '9' {
			k++
		}
		if k == n+1 {
			return 0
		}
		n = k
	}
	if n < len(b) && b[n] == 'Z' {
		return n + 1
	}
	return 0
}
