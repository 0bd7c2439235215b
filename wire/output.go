package wire

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// CreateOutput is the one way wirelens opens a file it writes (a recording,
// a HAR, the log of record --view): beside OpenInput, for the same reason.

// ErrOutputLink is why CreateOutput refused a path that is a symbolic link:
// wirelens never writes through a link (a repository could commit
// capture.jsonl.log -> ~/.bashrc).
var ErrOutputLink = errors.New("is a symbolic link, and wirelens never writes through a link")

// HardLinksError is why CreateOutput refused a file with other names: a
// write would change the file under its other names too.
type HardLinksError struct{ Links uint64 }

func (e *HardLinksError) Error() string {
	return fmt.Sprintf("has %d hard links, and wirelens writes only to a file of one name", e.Links)
}

// CreateOutput opens path for writing, appending (appendTo) or from empty,
// creating it with mode 0600. It refuses, with a *fs.PathError naming the
// path, a symbolic link (the last component is opened with O_NOFOLLOW, so a
// link swapped in between is refused too), a named pipe (refused at once:
// the open does not wait for a reader), a device, a socket or a directory
// (looked at before the open, so no device is opened, and again on the open
// handle), and a file with other hard links. An existing file whose mode is
// wider than 0600 is narrowed to 0600: a recording holds what an agent
// sent. The directories above the last component are not checked.
func CreateOutput(path string, appendTo bool) (*os.File, error) {
	refuse := func(err error) (*os.File, error) {
		return nil, &fs.PathError{Op: "create", Path: path, Err: err}
	}
	if st, err := os.Lstat(path); err == nil {
		if err := outputRefusal(st); err != nil {
			return refuse(err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	flag := os.O_WRONLY | os.O_CREATE | openNoFollow | openNonblock
	if appendTo {
		flag |= os.O_APPEND
	}
	f, err := os.OpenFile(path, flag, 0o600)
	if err != nil {
		if isLinkRefusal(err) {
			return refuse(ErrOutputLink)
		}
		return nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = outputRefusal(st)
	}
	if err != nil {
		f.Close()
		return refuse(err)
	}
	if st.Mode().Perm()&^0o600 != 0 {
		if err := f.Chmod(st.Mode().Perm() & 0o600); err != nil {
			f.Close()
			return nil, err
		}
	}
	if !appendTo {
		// Emptied only now, once it is known to be a file of its own.
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// outputRefusal is why a file of this kind is not written, or nil.
func outputRefusal(st fs.FileInfo) error {
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return ErrOutputLink
	case !st.Mode().IsRegular():
		return &NotRegularError{Mode: st.Mode()}
	}
	if n := hardLinks(st); n > 1 {
		return &HardLinksError{Links: n}
	}
	return nil
}
