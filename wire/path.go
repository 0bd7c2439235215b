package wire

import (
	"errors"
	"io/fs"
	"iter"
	"os"
)

// DecodePath reads every request in the file at path. A missing file, a
// directory without recordings or an unreadable file is one error.
func DecodePath(path string, opts Options) iter.Seq2[Request, error] {
	if opts.Source == "" {
		opts.Source = path
	}
	return func(yield func(Request, error) bool) {
		fail := func(msg string) { yield(Request{}, &DecodeError{Source: opts.Source, Msg: msg}) }
		st, err := os.Stat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fail("no such file")
			return
		case err != nil:
			fail(describeOSError(err))
			return
		case st.IsDir():
			decodeDir(path, opts, yield)
			return
		}
		f, err := os.Open(path)
		if err != nil {
			fail(describeOSError(err))
			return
		}
		defer f.Close()
		for r, err := range Decode(f, opts) {
			if !yield(r, err) {
				return
			}
		}
	}
}

// decodeDir is where agent session directories are read; a directory that
// holds none is an error.
var decodeDir = func(path string, opts Options, yield func(Request, error) bool) {
	yield(Request{}, &DecodeError{Source: opts.Source, Msg: "is a directory (give a request file, or a session directory of a known agent)"})
}

func describeOSError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
