package wire

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"strconv"
)

// OpenInput lives here, beside the model, because every reader of input
// (decode, recording, the commands) imports wire and wire imports no other
// package of wirelens: the one way wirelens opens a file it reads as input is
// reached by all of them without a cycle.

// MaxInputBytes is the most wirelens reads of one input file (a payload, a
// recording, the event log beside it): a session that grows past it is read
// up to it and then reported, instead of filling the memory.
const MaxInputBytes int64 = 4 << 30

// OpenInput opens the file at path for reading as input: a regular file, or
// a link to one, and nothing else. A named pipe, a device (/dev/zero,
// /dev/urandom, a terminal), a socket or a directory is refused with a
// *fs.PathError whose Err is a *NotRegularError, before it is read: the path
// is checked before it is opened (so no device is opened at all), opened
// without blocking (a named pipe with no writer would block the open), and
// checked again on the open handle (the path may have been swapped for a pipe
// in between). Reads stop with a *TooLargeError once more than limit bytes
// would be read.
func OpenInput(path string, limit int64) (*InputFile, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: st.Mode()}}
	}
	return openRegular(path, limit)
}

// OpenListed is OpenInput for a path that a directory's listing gave as a
// regular file, not a link (a fs.DirEntry's type): the listing was its look
// before the open, so the path is not looked at again; it is opened without
// blocking and checked on the handle as OpenInput does. A folder of a
// thousand transcripts is a thousand stat calls fewer, twice (the head read
// to tell the format, then the whole file).
func OpenListed(path string, limit int64) (*InputFile, error) { return openRegular(path, limit) }

// openRegular is the open of OpenInput, for a path that was a regular file
// when it was looked at: it is opened without blocking and looked at again
// through the handle, which is what will be read.
func openRegular(path string, limit int64) (*InputFile, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: path, Err: &NotRegularError{Mode: st.Mode()}}
	}
	return &InputFile{f: f, info: st, left: limit, limit: limit}, nil
}

// InputFile is a regular file opened by OpenInput, read no further than its
// limit.
type InputFile struct {
	f     *os.File
	info  fs.FileInfo
	left  int64 // bytes that may still be read
	limit int64
	err   error // the error of a read past the limit, kept
}

// ReadAt reads len(p) bytes at off, which must lie within the limit.
func (in *InputFile) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 || off+int64(len(p)) > in.limit {
		return 0, &TooLargeError{Limit: in.limit}
	}
	return in.f.ReadAt(p, off)
}

// Read reads from the file; past the limit it returns a *TooLargeError (or
// io.EOF when the file ends exactly there).
func (in *InputFile) Read(p []byte) (int, error) {
	if in.err != nil {
		return 0, in.err
	}
	if in.left <= 0 {
		// At the limit: the file ends here, or it holds more than may be read.
		var one [1]byte
		n, err := in.f.Read(one[:])
		if n > 0 {
			in.err = &TooLargeError{Limit: in.limit}
			return 0, in.err
		}
		if err == nil {
			err = io.EOF
		}
		return 0, err
	}
	if int64(len(p)) > in.left {
		p = p[:in.left]
	}
	n, err := in.f.Read(p)
	in.left -= int64(n)
	return n, err
}

// Close closes the file.
func (in *InputFile) Close() error { return in.f.Close() }

// Stat is what the open handle said of the file when it was opened.
func (in *InputFile) Stat() fs.FileInfo { return in.info }

// NotRegularError is why OpenInput refused a path: it is not a regular file.
type NotRegularError struct {
	Mode fs.FileMode // the mode of what the path named
}

func (e *NotRegularError) Error() string {
	what := "not a regular file"
	switch m := e.Mode; {
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a block device"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeIrregular != 0:
		what = "a file of an unknown kind"
	}
	if e.Mode.IsDir() {
		return "is " + what + ", not a file"
	}
	return "is " + what + ", not a regular file"
}

// TooLargeError is the error of a read past the limit given to OpenInput.
type TooLargeError struct {
	Limit int64
}

func (e *TooLargeError) Error() string {
	return "larger than " + byteSize(e.Limit) + ", the most wirelens reads of one file: read no further"
}

// byteSize is n bytes for a person: "4 GiB", "512 KiB", "100 bytes".
func byteSize(n int64) string {
	for _, u := range []struct {
		shift uint
		name  string
	}{{40, "TiB"}, {30, "GiB"}, {20, "MiB"}, {10, "KiB"}} {
		if n >= 1<<u.shift && n%(1<<u.shift) == 0 {
			return strconv.FormatInt(n>>u.shift, 10) + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// OSErrorReason is the reason of an I/O error without the path it repeats
// ("permission denied", "no such file or directory"), for a message that
// names the path itself.
func OSErrorReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or directory"
	}
	return err.Error()
}

// Offset is how many bytes Read has given so far: where the next read
// starts, the file having been read from its start.
func (in *InputFile) Offset() int64 { return in.limit - in.left }
