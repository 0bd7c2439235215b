package decode

import (
	"bufio"
	"bytes"
	"io"
	"runtime/debug"
	"sync/atomic"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/body"
)

// mapMin is the smallest input file whose JSONL lines are read from a
// mapping of it (wire.InputFile.Map) rather than through the reader's
// buffer: below the buffer's size the copy read(2) makes costs less than
// the mapping. A variable so that tests can map every input.
var mapMin int64 = 1 << 20

// mappedLines counts the lines read from a mapping, for tests.
var mappedLines atomic.Int64

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
	data, unmapped := in.Map(mapMin)
	pos := in.Offset() - int64(br.Buffered())
	if data == nil || pos < 0 || pos > int64(len(data)) {
		if unmapped != nil {
			unmapped()
		}
		return nil
	}
	old := debug.SetPanicOnFault(true)
	d.mapped, d.mpos, d.msize = data, int(pos), br.Size()
	return func() {
		d.mapped = nil
		debug.SetPanicOnFault(old)
		unmapped()
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
	rest := d.mapped[d.mpos:]
	if len(rest) == 0 {
		return nil, 0, -1, io.EOF
	}
	p := -1
	from := 0
	if last := d.sessionLine(); len(last) > 0 {
		// The body has no newline: the line's is after the bytes shared.
		p = body.CommonPrefix(rest, last)
		from = p
	}
	if at := bytes.IndexByte(rest[from:], '\n'); at >= 0 {
		b = rest[:from+at+1]
	} else {
		b, err = rest, io.EOF
	}
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
