//go:build !linux

package wire

// Mapped is a file mapped into memory: never, where files are not mapped
// (every system but Linux, whose mappings this was measured on).
type Mapped struct {
	// Data is the file's bytes.
	Data []byte
}

// Map is nil where files are not mapped: they are read.
func (in *InputFile) Map(min int64) *Mapped { return nil }

// Release has nothing to release where files are not mapped.
func (m *Mapped) Release(to int) {}

// Released is 0: nothing is released where files are not mapped.
func (m *Mapped) Released() int { return 0 }

// Close has nothing to unmap where files are not mapped.
func (m *Mapped) Close() {}
