//go:build !unix

package wire

// openNonblock is 0 where the open has no such flag; the checks before and
// after the open still refuse what is not a regular file.
const openNonblock = 0
