package wire

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"testing"
	"unsafe"
)

// Map gives the file's bytes, only for a file of at least min bytes and
// within the input's limit; Release unmaps the whole pages before where it
// is told, and Close the rest, but nothing released before: what was
// mapped in the pages released since (here an anonymous mapping put
// there, as the Go runtime may put its own) stays.
func TestMapReleaseClose(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.jsonl")
	want := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	if err := os.WriteFile(p, want, 0o600); err != nil {
		t.Fatal(err)
	}
	in, err := OpenInput(p, MaxInputBytes)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if m := in.Map(int64(len(want)) + 1); m != nil {
		t.Fatalf("a file of %d bytes mapped with min %d", len(want), len(want)+1)
	}
	m := in.Map(int64(len(want)))
	if m == nil {
		t.Fatal("not mapped")
	}
	data := m.Data
	if !bytes.Equal(data, want) {
		t.Fatal("the mapping is not the file's bytes")
	}
	page := os.Getpagesize()
	m.Release(page - 1)
	if faults(func() { sink = data[0] }) {
		t.Error("a page released with less than a page read")
	}
	m.Release(5*page + 3)
	if !faults(func() { sink = data[4*page] }) {
		t.Error("a released page read without a fault")
	}
	if faults(func() { sink = data[5*page] }) || !bytes.Equal(data[5*page:], want[5*page:]) {
		t.Error("the pages after those released do not read as the file's bytes")
	}
	// Something else mapped where pages were released: Close leaves it.
	const mapFixedNoReplace = 0x100000
	addr, _, e := syscall.Syscall6(syscall.SYS_MMAP, uintptr(unsafe.Pointer(&data[page])), uintptr(page),
		syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANONYMOUS|mapFixedNoReplace, ^uintptr(0), 0)
	if e != 0 || addr != uintptr(unsafe.Pointer(&data[page])) {
		t.Skipf("no mapping could be put in the pages released (%v)", e)
	}
	other := data[page : 2*page]
	other[0] = 42
	m.Close()
	if !faults(func() { sink = data[5*page] }) {
		t.Error("a page read without a fault after Close")
	}
	if faults(func() { sink = other[0] }) || other[0] != 42 {
		t.Error("Close unmapped what was mapped where pages had been released")
	}
	syscall.Syscall(syscall.SYS_MUNMAP, addr, uintptr(page), 0)
	small, err := OpenInput(p, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	if m := small.Map(0); m != nil {
		t.Error("a file longer than the input's limit mapped")
	}
	if in.Offset() != 0 {
		t.Errorf("offset %d after mapping, want 0 (nothing read)", in.Offset())
	}
}

// faults reports whether f faulted (a read of memory not mapped).
func faults(f func()) (fault bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		r := recover()
		_, fault = r.(interface{ Addr() uintptr })
		if r != nil && !fault {
			panic(r)
		}
	}()
	f()
	return false
}

// sink keeps a read of the tests from being left out by the compiler.
var sink byte
