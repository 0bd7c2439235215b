//go:build unix

package wire

import "syscall"

// openNonblock makes opening a named pipe return at once instead of waiting
// for a writer; reads of a regular file ignore it.
const openNonblock = syscall.O_NONBLOCK
