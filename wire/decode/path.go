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
	return func(yield func(wire.Request, error) bool) {
		for _, j := range Jobs(path, opts) {
			for r, err := range j.Decode() {
				if !yield(r, err) {
					return
				}
			}
		}
	}
}

// Job is one input Path reads: a file and its options, or an error met
// finding it. Jobs are independent of one another but for opts.Interner
// (safe for concurrent use): a batch may decode several at once and merge
// their requests in the order of the list.
type Job struct {
	Path string  // the file, "" for an error alone
	Opts Options // its options: Source names the file as its requests say
	err  *Error
	size int64 // the size the directory's listing gave, 0 when not listed (then it is looked at before it is opened: wire.OpenInput)
}

// Size is the file's size in bytes (0 for an error, or when it cannot be
// told): what a batch bounds the inputs it holds at once by.
func (j Job) Size() int64 {
	if j.Path == "" {
		return 0
	}
	if j.size > 0 {
		return j.size
	}
	st, err := os.Stat(j.Path)
	if err != nil {
		return 0
	}
	return st.Size()
}

// Decode reads the job's requests (or yields its error).
func (j Job) Decode() iter.Seq2[wire.Request, error] {
	return func(yield func(wire.Request, error) bool) {
		if j.err != nil {
			yield(wire.Request{}, j.err)
			return
		}
		open := wire.OpenInput
		if j.size > 0 {
			open = wire.OpenListed // listed by a directory's walk as a regular file
		}
		f, err := open(j.Path, wire.MaxInputBytes)
		if err != nil {
			yield(wire.Request{}, &Error{Source: j.Opts.Source, Msg: describeOpenError(err)})
			return
		}
		defer f.Close()
		for r, err := range Decode(f, j.Opts) {
			if !yield(r, err) {
				return
			}
		}
	}
}

// Jobs lists what Path reads at path, in Path's order: the file, or every
// agent recording inside a session directory or a sessions root (newest
// first), or the one error that stands for it (a missing file, a directory
// without recordings).
func Jobs(path string, opts Options) []Job {
	if opts.Source == "" {
		opts.Source = path
	}
	fail := func(msg string) []Job { return []Job{{Opts: opts, err: &Error{Source: opts.Source, Msg: msg}}} }
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fail("no such file")
	case err != nil:
		return fail(DescribeOSError(err))
	case st.IsDir():
		return dirJobs(path, opts)
	}
	return []Job{{Path: path, Opts: opts}}
}

// dirJobs lists the agent recordings inside a session directory or a
// sessions root, newest first. Files that are not recordings are passed
// over; a directory that holds none is one error.
func dirJobs(dir string, opts Options) []Job {
	fail := func(msg string) Job { return Job{Opts: opts, err: &Error{Source: opts.Source, Msg: msg}} }
	var jobs []Job
	files, err := recording.FindFiles(dir, opts.Format)
	if errors.As(err, new(*recording.WalkLimitError)) {
		// The recordings found before the walk stopped are still read.
		jobs = append(jobs, fail(DescribeOSError(err)))
		if len(files) == 0 {
			return jobs
		}
	} else if err != nil {
		return []Job{fail(DescribeOSError(err))}
	}
	if len(files) == 0 {
		msg := "is a directory with no agent recordings (looked for kimi-cli context.jsonl, kimi-code agents/*/wire.jsonl, Codex rollout-*.jsonl, Claude Code <session>.jsonl)"
		if opts.Format != wire.FormatAuto {
			msg = "is a directory with no " + string(opts.Format) + " recordings"
		}
		return []Job{fail(msg)}
	}
	for _, f := range files {
		o := opts
		o.Source = filepath.Join(opts.Source, f.Rel)
		o.Format = f.Format
		jobs = append(jobs, Job{Path: f.Path, Opts: o, size: f.Size})
	}
	return jobs
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
