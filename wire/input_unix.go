//go:build unix

package wire

import (
	"errors"
	"io/fs"
	"syscall"
)

// openNonblock makes opening a named pipe return at once instead of waiting
// for a writer; reads of a regular file ignore it.
const openNonblock = syscall.O_NONBLOCK

// openNoFollow makes the open of an output fail on a symbolic link.
const openNoFollow = syscall.O_NOFOLLOW

// isLinkRefusal reports whether an open with openNoFollow failed because
// the path is a link (ELOOP).
func isLinkRefusal(err error) bool { return errors.Is(err, syscall.ELOOP) }

// hardLinks is the number of names of the file.
func hardLinks(st fs.FileInfo) uint64 {
	if s, ok := st.Sys().(*syscall.Stat_t); ok {
		return uint64(s.Nlink)
	}
	return 1
}
