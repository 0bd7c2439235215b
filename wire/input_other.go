//go:build !unix

package wire

import "io/fs"

// openNonblock is 0 where the open has no such flag; the checks before and
// after the open still refuse what is not a regular file.
const openNonblock = 0

// openNoFollow is 0 where the open has no such flag; the look before the
// open still refuses a link.
const openNoFollow = 0

func isLinkRefusal(error) bool { return false }

func hardLinks(fs.FileInfo) uint64 { return 1 }
