package wire

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// Map gives the file's bytes, only for a file of at least min bytes;
// released pages read again as the file's bytes; a file cut short after it
// was mapped is mapped at its new size.
func TestMapAndRelease(t *testing.T) {
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
	if data, unmap := in.Map(int64(len(want)) + 1); data != nil || unmap != nil {
		t.Fatalf("a file of %d bytes mapped with min %d", len(want), len(want)+1)
	}
	data, unmap := in.Map(int64(len(want)))
	if data == nil {
		t.Fatal("not mapped")
	}
	defer unmap()
	if !bytes.Equal(data, want) {
		t.Fatal("the mapping is not the file's bytes")
	}
	page := os.Getpagesize()
	if got := ReleaseMapped(data, 1, page+10); got != 1 {
		t.Errorf("released to %d with no whole page in 1..%d", got, page+10)
	}
	if got := ReleaseMapped(data, 0, 5*page+3); got != 5*page {
		t.Errorf("released to %d, want %d", got, 5*page)
	}
	if !bytes.Equal(data[5*page:], want[5*page:]) {
		t.Error("the pages after those released do not read as the file's bytes")
	}
	if !faults(func() { sink = data[4*page] }) {
		t.Error("a released page read without a fault")
	}
	if faults(func() { sink = data[5*page] }) {
		t.Error("the page after those released faults")
	}
	if in.Offset() != 0 {
		t.Errorf("offset %d after mapping, want 0 (nothing read)", in.Offset())
	}
	small, err := OpenInput(p, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer small.Close()
	if data, _ := small.Map(0); data != nil {
		t.Error("a file longer than the input's limit mapped")
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
