package decode

import (
	"errors"
	"io/fs"
	"iter"
	"os"
	"path/filepath"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/recording"
)

// Path reads every request in the file at path. A missing file, a
// directory without recordings, an unreadable file or one that is not a
// regular file (a named pipe, a device: see wire.OpenInput) is one error.
func Path(path string, opts Options) iter.Seq2[wire.Request, error] {
	if opts.Source == "" {
		opts.Source = path
	}
	return func(yield func(wire.Request, error) bool) {
		fail := func(msg string) { yield(wire.Request{}, &Error{Source: opts.Source, Msg: msg}) }
		st, err := os.Stat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fail("no such file")
			return
		case err != nil:
			fail(DescribeOSError(err))
			return
		case st.IsDir():
			decodeDir(path, opts, yield)
			return
		}
		f, err := wire.OpenInput(path, wire.MaxInputBytes)
		if err != nil {
			fail(describeOpenError(err))
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

// decodeDir reads every agent recording inside a session directory or a
// sessions root, newest first. Files that are not recordings are passed over;
// a directory that holds none is one error.
func decodeDir(dir string, opts Options, yield func(wire.Request, error) bool) {
	files, err := recording.FindFiles(dir, opts.Format)
	if errors.As(err, new(*recording.WalkLimitError)) {
		// The recordings found before the walk stopped are still read.
		if !yield(wire.Request{}, &Error{Source: opts.Source, Msg: DescribeOSError(err)}) {
			return
		}
		if len(files) == 0 {
			return
		}
	} else if err != nil {
		yield(wire.Request{}, &Error{Source: opts.Source, Msg: DescribeOSError(err)})
		return
	}
	if len(files) == 0 {
		msg := "is a directory with no agent recordings (looked for kimi-cli context.jsonl, kimi-code agents/*/wire.jsonl, Codex rollout-*.jsonl, Claude Code <session>.jsonl)"
		if opts.Format != wire.FormatAuto {
			msg = "is a directory with no " + string(opts.Format) + " recordings"
		}
		yield(wire.Request{}, &Error{Source: opts.Source, Msg: msg})
		return
	}
	for _, f := range files {
		o := opts
		o.Source = filepath.Join(opts.Source, f.Rel)
		o.Format = f.Format
		fh, err := wire.OpenInput(f.Path, wire.MaxInputBytes)
		if err != nil {
			if !yield(wire.Request{}, &Error{Source: o.Source, Msg: describeOpenError(err)}) {
				return
			}
			continue
		}
		stop := false
		for r, err := range Decode(fh, o) {
			if !yield(r, err) {
				stop = true
				break
			}
		}
		fh.Close()
		if stop {
			return
		}
	}
}

// DescribeOSError is an error of the file system without the path, which
// the error names already.
func DescribeOSError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// describeOpenError is DescribeOSError of an error of wire.OpenInput, with
// the way to read a stream when the path is a named pipe.
func describeOpenError(err error) string {
	var nr *wire.NotRegularError
	if errors.As(err, &nr) && nr.Mode&fs.ModeNamedPipe != 0 {
		return DescribeOSError(err) + ": to read a stream, give it on standard input as -"
	}
	return DescribeOSError(err)
}
