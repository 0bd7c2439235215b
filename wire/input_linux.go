package wire

import (
	"os"
	"syscall"
)

// Map is the file's bytes, mapped read only into memory (mmap(2), a
// private mapping: nothing is ever written through it), and the function
// that unmaps them; nil when the file is shorter than min bytes, longer
// than the limit, or cannot be mapped. The size is the file's as its handle
// says now. Read through a mapping, a file's bytes are not copied into a
// buffer first (read(2) copies each byte once more). A file cut short while
// it is mapped makes a read of its lost pages fault (SIGBUS): a reader of
// the bytes turns faults into panics it recovers (debug.SetPanicOnFault),
// or the program ends.
func (in *InputFile) Map(min int64) (data []byte, unmap func()) {
	st, err := in.f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, nil
	}
	size := st.Size()
	if size < max(min, 1) || size > in.limit || int64(int(size)) != size {
		return nil, nil
	}
	rc, err := in.f.SyscallConn()
	if err != nil {
		return nil, nil
	}
	// Control, not Fd: Fd would put the handle in blocking mode.
	cerr := rc.Control(func(fd uintptr) {
		data, err = syscall.Mmap(int(fd), 0, int(size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	})
	if cerr != nil || err != nil {
		return nil, nil
	}
	// Read once from start to end: the kernel reads ahead, and drops
	// behind, accordingly.
	syscall.Madvise(data, syscall.MADV_SEQUENTIAL)
	return data, func() { syscall.Munmap(data) }
}

// ReleaseMapped lets the kernel drop the pages of data, a mapping Map
// made, that lie wholly in data[from:to] (madvise(2) MADV_DONTNEED): bytes
// read and not to be read again stop counting in the process's resident
// memory; read again, they are mapped again from the file. It returns
// where the pages released end, from when none was.
func ReleaseMapped(data []byte, from, to int) int {
	page := os.Getpagesize()
	lo := (from + page - 1) / page * page
	hi := to / page * page
	if hi <= lo {
		return from
	}
	if syscall.Madvise(data[lo:hi], syscall.MADV_DONTNEED) != nil {
		return from
	}
	return hi
}
