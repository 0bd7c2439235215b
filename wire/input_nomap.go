//go:build !linux

package wire

// Map is nil where files are not mapped (every system but Linux, whose
// mappings this was measured on): they are read.
func (in *InputFile) Map(min int64) (data []byte, unmap func()) { return nil, nil }

// ReleaseMapped has nothing to release where files are not mapped.
func ReleaseMapped(data []byte, from, to int) int { return from }
