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

// Map is nil where files are not mapped: they are read.
func (in *InputFile) Map(min int64) (data []byte, unmap func()) { return nil, nil }

// ReleaseMapped has nothing to release where files are not mapped.
func ReleaseMapped(data []byte, from, to int) int { return from }
