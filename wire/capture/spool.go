package capture

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// A body larger than memKeep goes on to a spool file beside the recording
// as it passes: bounded memory whatever its size (a 500 MB answer held 2.9
// GB when every body was kept whole in memory). The file is written by a
// goroutine of its own, so the exchange never waits on the disk; the bytes
// on their way to it are bounded for the whole process (maxSpoolMem), and
// past that bound the rest of the body is not recorded, and the record says
// so (the recording fell behind), rather than the client waiting. The
// recorder reads the file back when it writes the exchange's line, then
// removes it.

// memKeep is the most of one body kept in memory; a larger one is spooled.
var memKeep = 1 << 20

// maxSpoolMem bounds the bytes copied for spool files and not yet written
// to them, over every body at once.
var maxSpoolMem int64 = 32 << 20

var spoolMem atomic.Int64

// chunkPool holds the copies of small reads (the reverse proxy reads 32 KiB
// at a time) on their way to a spool file.
var chunkPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

type spool struct {
	dir, base string
	ch        chan *[]byte
	done      chan struct{}

	// Set by the writer goroutine, read after done.
	f    *os.File
	name string // to remove at release, where it could not be at once
	n    int64  // bytes written
	err  error
}

// newSpool starts the writer of a spool file in dir (its name starts with
// base).
func newSpool(dir, base string) *spool {
	s := &spool{dir: dir, base: base, ch: make(chan *[]byte, 1024), done: make(chan struct{})}
	go s.write()
	return s
}

// send hands a copy of p to the writer; false when the writer is too far
// behind (p is then not written, nor anything after it).
func (s *spool) send(p []byte) bool {
	n := int64(len(p))
	if spoolMem.Add(n) > maxSpoolMem {
		spoolMem.Add(-n)
		return false
	}
	var c *[]byte
	if len(p) <= 32<<10 {
		c = chunkPool.Get().(*[]byte)
		*c = append((*c)[:0], p...)
	} else {
		b := append([]byte(nil), p...)
		c = &b
	}
	select {
	case s.ch <- c:
		return true
	default:
		spoolMem.Add(-n)
		putChunk(c)
		return false
	}
}

// sendOwned hands p itself to the writer (the memory buffer a body grew in
// until it was spooled), counted as the copies are.
func (s *spool) sendOwned(p []byte) bool {
	n := int64(len(p))
	if spoolMem.Add(n) > maxSpoolMem {
		spoolMem.Add(-n)
		return false
	}
	select {
	case s.ch <- &p:
		return true
	default:
		spoolMem.Add(-n)
		return false
	}
}

func putChunk(c *[]byte) {
	if cap(*c) == 32<<10 {
		chunkPool.Put(c)
	}
}

func (s *spool) write() {
	defer close(s.done)
	for c := range s.ch {
		if s.err == nil && s.f == nil {
			s.f, s.err = os.CreateTemp(s.dir, "."+s.base+".spool-*")
			if s.err == nil {
				// Unlinked at once where the system allows (the file lives
				// while open, and no crash leaves it behind); elsewhere
				// removed at release.
				if runtime.GOOS == "windows" || os.Remove(s.f.Name()) != nil {
					s.name = s.f.Name()
				}
			}
		}
		if s.err == nil {
			var k int
			k, s.err = s.f.Write(*c)
			s.n += int64(k)
		}
		spoolMem.Add(-int64(len(*c)))
		putChunk(c)
	}
}

// finish waits for the writer to have written what was sent; the file then
// holds the body's first n bytes (err says why it holds fewer).
func (s *spool) finish() {
	select {
	case <-s.done:
		return
	default:
	}
	close(s.ch)
	<-s.done
}

// reader reads the bytes [lo, hi) of the spooled body.
func (s *spool) reader(lo, hi int64) io.Reader {
	if s.f == nil {
		return eofReader{}
	}
	return io.NewSectionReader(s.f, lo, hi-lo)
}

// release closes and removes the file.
func (s *spool) release() error {
	s.finish()
	var err error
	if s.f != nil {
		err = s.f.Close()
		if s.name != "" {
			err = errors.Join(err, os.Remove(s.name))
		}
		s.f = nil
	}
	return err
}

type eofReader struct{}

func (eofReader) Read([]byte) (int, error) { return 0, io.EOF }

// spoolDir is where the spool files of a recording go: beside it, on its
// disk (a temporary folder may be memory).
func spoolDir(path string) (dir, base string) {
	return filepath.Dir(path), filepath.Base(path)
}
