package wire

import (
	"os"
	"syscall"
	"unsafe"
)

// Mapped is a file mapped read only into memory by InputFile.Map (mmap(2),
// a private mapping: nothing is ever written through it). Read through a
// mapping, a file's bytes are not copied into a buffer first (read(2)
// copies each byte once more). A file cut short while it is mapped makes a
// read of its lost pages fault (SIGBUS), as a read of the pages released
// does (SIGSEGV): a reader of Data turns faults into panics it recovers
// (debug.SetPanicOnFault), or the program ends.
type Mapped struct {
	// Data is the file's bytes.
	Data []byte
	// done: the pages of Data before it are unmapped.
	done int
}

// Map maps the file, nil when it is shorter than min bytes, longer than the
// limit, or cannot be mapped. The size is the file's as its handle says now.
func (in *InputFile) Map(min int64) *Mapped {
	st, err := in.f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	size := st.Size()
	if size < max(min, 1) || size > in.limit || int64(int(size)) != size {
		return nil
	}
	rc, err := in.f.SyscallConn()
	if err != nil {
		return nil
	}
	// Control, not Fd: Fd would put the handle in blocking mode. The raw
	// call, not syscall.Mmap, whose Munmap unmaps only a whole mapping:
	// this one is unmapped piece by piece (Release).
	var addr uintptr
	var errno syscall.Errno
	cerr := rc.Control(func(fd uintptr) {
		addr, _, errno = syscall.Syscall6(syscall.SYS_MMAP, 0, uintptr(size), syscall.PROT_READ, syscall.MAP_PRIVATE, fd, 0)
	})
	if cerr != nil || errno != 0 {
		return nil
	}
	// The address is of memory the kernel gave, not Go's: read as a
	// pointer where it is kept (not converted from uintptr, which vet
	// rightly doubts of memory the collector moves or frees).
	data := unsafe.Slice(*(**byte)(unsafe.Pointer(&addr)), int(size))
	// Read once from start to end: the kernel reads ahead accordingly.
	syscall.Madvise(data, syscall.MADV_SEQUENTIAL)
	return &Mapped{Data: data}
}

// Release unmaps the pages of Data that lie wholly before to, bytes read
// and not to be read again, so that they stop counting in the process's
// resident memory. Unmapped, not advised away: madvise(MADV_DONTNEED) left
// pages of a file read by two threads at once mapped (Linux 6.18: a
// session of 1.3 GB held 150 MB of it, against 17 MB unmapped). The
// addresses are free after, for the next mapping made (the Go runtime's
// own among them): nothing may be read there, and nothing unmapped again.
func (m *Mapped) Release(to int) {
	hi := min(to, len(m.Data)) / os.Getpagesize() * os.Getpagesize()
	if hi > m.done && munmap(m.Data[m.done:hi]) {
		m.done = hi
	}
}

// Released is where the pages unmapped by Release end: Data before it is
// no longer mapped.
func (m *Mapped) Released() int { return m.done }

// Close unmaps what is left of Data.
func (m *Mapped) Close() {
	if m.done < len(m.Data) && munmap(m.Data[m.done:]) {
		m.done = len(m.Data)
	}
}

// munmap unmaps the pages of b, which starts on a page (the last page of a
// mapping may hold less).
func munmap(b []byte) bool {
	_, _, e := syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)), 0)
	return e == 0
}
