package wire

import (
	"os"
	"syscall"
	"unsafe"
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

// ReleaseMapped unmaps the pages of data, a mapping Map made, that lie
// wholly in data[from:to], bytes read and not to be read again, so that
// they stop counting in the process's resident memory; it returns where
// the pages released end, from when none was. A read of them after faults
// (SIGSEGV) as a read of a file cut short does. Unmapped, not advised away:
// madvise(MADV_DONTNEED) left pages of a file read by two threads at once
// mapped (Linux 6.18: a session of 1.3 GB held 150 MB of it, against 17 MB
// unmapped).
func ReleaseMapped(data []byte, from, to int) int {
	page := os.Getpagesize()
	lo := (from + page - 1) / page * page
	hi := to / page * page
	if hi <= lo {
		return from
	}
	// Not syscall.Munmap, which unmaps only whole mappings it made.
	if _, _, e := syscall.Syscall(syscall.SYS_MUNMAP, uintptr(unsafe.Pointer(&data[lo])), uintptr(hi-lo), 0); e != 0 {
		return from
	}
	return hi
}
