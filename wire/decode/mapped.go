package decode

import (
	"bufio"
	"bytes"
	"io"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// mapMin is the smallest input file whose JSONL lines are read from a
// mapping of it (wire.InputFile.Map) rather than through the reader's
// buffer: the copy read(2) makes of a few megabytes costs about a
// millisecond, what the mapping saves, and a mapped file's pages count in
// the resident memory until released (releaseStep). A variable so that
// tests can map every input.
var mapMin int64 = 8 << 20

// releaseStep (a variable so that tests can lower it) is how many bytes
// of a mapped input are read before the
// pages of those read are unmapped (wire.Mapped.Release): a session of 1.3
// GB is not 1.3 GB of resident memory once read, only up to this much
// more than it would be read through the buffer. Each release stops the
// other core a moment (its view of the pages is flushed): released every
// 2 MB, W600's check took 86-100 ms, every 16 MB 72-79 (read: 92-103); the
// peak RSS, every 8 MB, is 43 MB at W600 and 56 at W1200 (read: 36, 57).
var releaseStep = 8 << 20

// mappedLines counts the lines read from a mapping, sharedAhead those
// whose bytes shared with the body before the reader ahead found, and
// aheadFaults the readers ahead ended by a fault, for tests.
var mappedLines, sharedAhead, aheadFaults atomic.Int64

// mapInput maps the input file, when it is one worth mapping, for the
// lines after what br, the reader of the input itself, has given so far:
// those are read from the mapping from now on (mappedLine), and br is not
// read again. It returns the function that unmaps it, nil when the input is
// read as before. Reading the mapping, a fault (the file cut short while it
// is read) panics instead of ending the program (recoverFault).
//
// A session's file is mostly the bytes each request repeats of the one
// before: read(2) copies every one of them into the buffer before the line
// is compared with the body before, which was about a third of reading and
// comparing W600's 320 MB (BenchmarkSessionBytes).
func (d *decoder) mapInput(br *bufio.Reader) (unmap func()) {
	in, ok := d.in.(*wire.InputFile)
	if !ok {
		return nil
	}
	m := in.Map(mapMin)
	if m == nil {
		return nil
	}
	pos := in.Offset() - int64(br.Buffered())
	if pos < 0 || pos > int64(len(m.Data)) {
		m.Close()
		return nil
	}
	old := debug.SetPanicOnFault(true)
	d.mapping, d.msize = m, br.Size()
	d.mpos, d.mprev = int(pos), int(pos)
	if runtime.GOMAXPROCS(0) > 1 {
		d.ahead = startAhead(m.Data, int(pos))
	}
	return func() {
		d.ahead.stop()
		d.mapping, d.ahead = nil, nil
		debug.SetPanicOnFault(old)
		m.Close()
	}
}

// recoverFault ends the reading of a mapped input whose pages fault (the
// file was cut short while it was read) with an error on the line being
// read, and lets any other panic go on.
func (d *decoder) recoverFault(line *int) {
	r := recover()
	if r == nil {
		return
	}
	if _, fault := r.(interface{ Addr() uintptr }); !fault {
		panic(r)
	}
	d.Fail(*line, "the file was cut short while it was read: not read past here")
}

// mappedLine is readLine for the lines of a mapped input: the line is a
// slice of the mapping, compared with the body of the line before first
// when there is one (as sharedLine does), and only what follows the bytes
// they share looked through for the newline and a NUL byte. What readLine
// does with a line longer than its reader's buffer is done with the buffer
// its reader would have (msize, widened after such a line as wider does),
// so that a long line gives the same error either way.
func (d *decoder) mappedLine(line int) (b []byte, n int64, nul int, err error) {
	rest := d.mapping.Data[d.mpos:]
	if len(rest) == 0 {
		return nil, 0, -1, io.EOF
	}
	if d.mprev-d.mapping.Released() >= releaseStep {
		// The lines before the line before are decoded and left behind
		// by the reader ahead, which may still be comparing this line
		// with the line before: their pages go.
		d.mapping.Release(d.mprev)
	}
	p := -1
	last := d.sessionLine()
	if l, ok := d.ahead.next(d.mpos); ok {
		// Found ahead: the line's end, and what it shares with the body
		// of the line before, when that is what the cache remembers.
		b = rest[:l.end-d.mpos]
		if b[len(b)-1] != '\n' {
			err = io.EOF
		}
		if len(last) > 0 {
			if l.shared >= 0 && d.cache.CopiedFrom(d.mapping.Data[l.from:l.to]) {
				p = l.shared
				sharedAhead.Add(1)
			} else {
				p = body.CommonPrefix(rest, last)
			}
		}
	} else {
		var end int
		end, p = lineShared(rest, last)
		if b = rest[:end]; b[len(b)-1] != '\n' {
			err = io.EOF
		}
	}
	d.mprev = d.mpos
	d.mpos += len(b)
	n = int64(len(b))
	mappedLines.Add(1)
	size := d.msize
	if n > int64(size) && n <= wideMax && err == nil {
		d.msize = int(2 * n)
	}
	if n > int64(size) {
		// As readLine's first chunk of a line longer than its buffer.
		if at := bytes.IndexByte(bytes.TrimLeft(b[:size], " \t\r\n"), 0); at >= 0 {
			return nil, n, at, err
		}
	}
	if body.LineLen(b, err) > maxLine {
		if !d.counted(line, kindTooLong) {
			d.Fail(line, "%v", &body.LongLineError{Max: maxLine, Len: n})
		}
		return nil, n, -1, nil
	}
	return b, n, d.nulAt(b, p), err
}

// lineShared is where the line that rest starts with ends (past its
// newline, or at rest's end) and how many bytes it shares with before, the
// body of the line before (-1 when there is none): compared first, as the
// line is found, so that only the bytes after those they share are looked
// through for the newline (before, a body cut from one line, has none).
func lineShared(rest, before []byte) (end, shared int) {
	from := 0
	shared = -1
	if len(before) > 0 {
		shared = body.CommonPrefix(rest, before)
		from = shared
	}
	if at := bytes.IndexByte(rest[from:], '\n'); at >= 0 {
		return from + at + 1, shared
	}
	return len(rest), shared
}

// A session's lines are compared with the line before, byte for byte, to
// know what they repeat: at W600 that is 320 MB read for 83 MB of distinct
// text, and the decoder's longest step. With more than one core, a
// goroutine does it ahead of the decoder (lineAhead): it finds each line's
// end and how many bytes it shares with the body of the line before (the
// line's bytes without a byte-order mark or the white space around them,
// what the decoder decodes and the cache remembers), while the decoder
// decodes the lines before. The decoder takes what it found when the cache
// remembers that body (body.ElementCache.CopiedFrom), and compares the line
// itself when not (the line before was not a body, or a blank line came
// between): the same bytes shared either way.

// aheadLine is a line the reader ahead found: where it ends in the mapping
// (past its newline, or at the mapping's end), and how many bytes it
// shares with the body of the line before, which lies at from:to in the
// mapping (shared -1: no body before).
type aheadLine struct {
	end, shared, from, to int
}

// aheadBytes is about how many bytes of lines a batch of the reader ahead
// covers, and aheadLines the most lines: the lines of a long session come
// one a batch, as soon as each is found, and a file of short lines costs
// a hand-off every aheadLines lines, not every line.
const (
	aheadBytes = 256 << 10
	aheadLines = 256
)

// lineAhead is the reader ahead of a mapped input's lines.
type lineAhead struct {
	batches chan []aheadLine
	free    chan []aheadLine
	done    chan struct{}
	wg      sync.WaitGroup
	// cur is the batch being taken, at the next line of it; start is
	// where that line starts.
	cur       []aheadLine
	at, start int
}

// startAhead starts reading the lines of data from pos ahead of the
// decoder.
func startAhead(data []byte, pos int) *lineAhead {
	a := &lineAhead{batches: make(chan []aheadLine, 2), free: make(chan []aheadLine, 4), done: make(chan struct{}), start: pos}
	a.wg.Add(1)
	go a.run(data, pos)
	return a
}

// run finds the lines of data from pos, in batches, until the end or stop.
// A fault (the file cut short) ends it: the decoder reads the lines left
// itself, and meets the fault where it reports it.
func (a *lineAhead) run(data []byte, pos int) {
	defer a.wg.Done()
	defer close(a.batches)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			aheadFaults.Add(1)
		}
	}()
	from, to := -1, -1
	batch, n := a.batch(), 0
	for pos < len(data) {
		var before []byte
		if from >= 0 {
			before = data[from:to]
		}
		end, shared := lineShared(data[pos:], before)
		end += pos
		batch = append(batch, aheadLine{end: end, shared: shared, from: from, to: to})
		// This line's body, for the next: as value trims it.
		line := data[pos:end]
		if t := bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))); len(t) > 0 {
			from = pos + cap(line) - cap(t)
			to = from + len(t)
		} else {
			from, to = -1, -1
		}
		n += end - pos
		pos = end
		if len(batch) == aheadLines || n >= aheadBytes || pos == len(data) {
			select {
			case a.batches <- batch:
			case <-a.done:
				return
			}
			batch, n = a.batch(), 0
		}
	}
}

// batch is an empty batch, one given back when there is one.
func (a *lineAhead) batch() []aheadLine {
	select {
	case b := <-a.free:
		return b[:0]
	default:
		return make([]aheadLine, 0, aheadLines)
	}
}

// next is the line found ahead that starts at pos, false when there is
// none (no reader ahead, or it stopped): the decoder then reads the line
// itself, and the reader ahead is no longer asked.
func (a *lineAhead) next(pos int) (aheadLine, bool) {
	if a == nil || a.cur == nil && a.at < 0 {
		return aheadLine{}, false
	}
	if a.at == len(a.cur) {
		if a.cur != nil {
			select {
			case a.free <- a.cur:
			default:
			}
		}
		b, ok := <-a.batches
		if !ok {
			a.cur, a.at = nil, -1
			return aheadLine{}, false
		}
		a.cur, a.at = b, 0
	}
	l := a.cur[a.at]
	if a.start != pos {
		a.cur, a.at = nil, -1
		return aheadLine{}, false
	}
	a.at++
	a.start = l.end
	return l, true
}

// stop ends the reader ahead and waits for it: the mapping is unmapped
// after.
func (a *lineAhead) stop() {
	if a == nil {
		return
	}
	close(a.done)
	a.wg.Wait()
}
