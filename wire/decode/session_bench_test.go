package decode

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
	"github.com/wirelens/wirelens/wire/encode"
)

// readCompared reads a JSONL the way the decoder's line reader does a
// session's (sharedLine), and does nothing else: through a 1 MB buffer
// (twice as long as a line that does not fit), each line compared with
// the line before, and only the bytes after those the two share looked
// through for the newline; the line before is kept as a copy of which
// only what differs is written. It returns the lines read and the bytes
// they shared with the line before.
func readCompared(r io.Reader) (lines, shared int64, err error) {
	br := bufio.NewReaderSize(r, 1<<20)
	var last []byte
	for {
		p, q := 0, -1
		var data []byte
		for from := 0; ; {
			data, _ = br.Peek(br.Buffered())
			if p == from {
				p += body.CommonPrefix(data[p:], last[min(p, len(last)):])
			}
			if p < len(data) {
				if at := bytes.IndexByte(data[max(from, p):], '\n'); at >= 0 {
					q = max(from, p) + at
					break
				}
			}
			from = len(data)
			if len(data) == br.Size() {
				br = bufio.NewReaderSize(br, 2*br.Size())
			}
			more, perr := br.Peek(len(data) + 1)
			if len(more) <= len(data) {
				if perr == io.EOF {
					perr = nil
				}
				return lines, shared, perr
			}
		}
		last = append(last[:min(p, len(last))], data[min(p, len(last)):q]...)
		shared += int64(p)
		lines++
		br.Discard(q + 1)
	}
}

// mappedCompared reads the lines of a mapped file the way the decoder's
// mapped reader does (mappedLine) on one core, and does nothing else: each
// line compared where it lies with the line before, only the bytes after
// those they share looked through for the newline, the pages read
// released every releaseStep bytes. It returns the lines read and the
// bytes they shared with the line before.
func mappedCompared(m *wire.Mapped) (lines, shared int64) {
	data := m.Data
	pos, from := 0, -1
	for pos < len(data) {
		if from-m.Released() >= releaseStep {
			m.Release(from)
		}
		var before []byte
		if from >= 0 {
			before = bytes.TrimSuffix(data[from:pos], []byte("\n")) // no newline in it
		}
		end, p := lineShared(data[pos:], before)
		shared += int64(max(p, 0))
		lines++
		from, pos = pos, pos+end
	}
	return lines, shared
}

// openSession opens the session at p as the commands open their input.
func openSession(b *testing.B, p string) *wire.InputFile {
	f, err := wire.OpenInput(p, wire.MaxInputBytes)
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkSessionBytes: on generated sessions of 300, 600 and 1,200
// growing requests (encode.GenerateSession: 83 MB, 320 MB and 1.27 GB,
// written to a temporary file and removed after), "read" reads the file
// as the decoder's line reader does and does nothing else (readCompared),
// "mapped" reads it from a mapping of the file as the decoder's mapped
// reader does on one core and does nothing else (mappedCompared), and
// "decode" decodes it (Decode, every request taken, no audit: mapped, and
// with two cores its lines compared ahead), all through wire.OpenInput as
// the commands read it. read and mapped are what each byte of the file
// costs, repeated or not, read through a buffer or mapped: they grow with
// the file (3.84 times from W300 to W600), where what decode spends beyond
// them should grow with the requests (twice). Compare them in one sitting:
// the machine's memory bandwidth, shared, moves them all.
func BenchmarkSessionBytes(b *testing.B) {
	for _, n := range []int{300, 600, 1200} {
		p := filepath.Join(b.TempDir(), "session.jsonl")
		f, err := os.Create(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := encode.GenerateSession(f, n, 1); err != nil {
			b.Fatal(err)
		}
		size, _ := f.Seek(0, io.SeekCurrent)
		f.Close()
		b.Run(fmt.Sprintf("read/W%d", n), func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				f := openSession(b, p)
				lines, shared, err := readCompared(f)
				f.Close()
				if err != nil || lines != int64(n) || shared < size/2 {
					b.Fatalf("%d lines read, %d bytes of %d shared with the line before, error %v", lines, shared, size, err)
				}
			}
		})
		b.Run(fmt.Sprintf("mapped/W%d", n), func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				f := openSession(b, p)
				m := f.Map(0)
				if m == nil {
					f.Close()
					b.Skip("files are not mapped here")
				}
				lines, shared := mappedCompared(m)
				m.Close()
				f.Close()
				if lines != int64(n) || shared < size/2 {
					b.Fatalf("%d lines read, %d bytes of %d shared with the line before", lines, shared, size)
				}
			}
		})
		b.Run(fmt.Sprintf("decode/W%d", n), func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				f := openSession(b, p)
				reqs := 0
				for _, err := range Decode(f, Options{Source: "session.jsonl"}) {
					if err != nil {
						b.Fatal(err)
					}
					reqs++
				}
				f.Close()
				if reqs != n {
					b.Fatalf("%d requests, want %d", reqs, n)
				}
			}
		})
		os.Remove(p)
	}
}
