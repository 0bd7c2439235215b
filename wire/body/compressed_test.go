package body

import (
	"bytes"
	"compress/gzip"
	"errors"
	"runtime"
	"testing"
)

// A gzip bomb (64 MiB of zeros in some 64 KiB) is read to the cap and one
// byte more, not to its end: Decompress allocates about the cap.
func TestDecompressBombCapped(t *testing.T) {
	defer func(n int) { MaxDecompressed = n }(MaxDecompressed)
	MaxDecompressed = 1 << 20
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 64 {
		w.Write(zeros)
	}
	w.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	out, enc, err := Decompress(b.Bytes(), "")
	runtime.ReadMemStats(&after)
	var de *DecompressError
	if out != nil || enc != "gzip" || !errors.As(err, &de) || !de.TooLarge {
		t.Fatalf("%d bytes, %q, %v; want a TooLarge gzip error", len(out), enc, err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 8<<20 {
		t.Errorf("allocated %d bytes for a cap of 1 MiB", got)
	}
	// A body of exactly the cap is read whole.
	b.Reset()
	w.Reset(&b)
	w.Write(zeros[:1<<20])
	w.Close()
	if out, _, err := Decompress(b.Bytes(), "gzip"); err != nil || len(out) != 1<<20 {
		t.Errorf("1 MiB: %d bytes, %v", len(out), err)
	}
}

// Plain text is returned as it is, whatever header came with it; bytes
// that are not text under "br" are Brotli, which is not read.
func TestDecompressPlainAndBrotli(t *testing.T) {
	for _, ce := range []string{"", "gzip", "deflate", "br"} {
		in := []byte(`{"usage":{}}`)
		out, enc, err := Decompress(in, ce)
		if err != nil || enc != "" || !bytes.Equal(out, in) {
			t.Errorf("%q: %q %q %v", ce, out, enc, err)
		}
	}
	if _, enc, err := Decompress([]byte{0x8b, 0x02, 0x80, 0x7b}, "br"); enc != "br" || err == nil {
		t.Errorf("brotli: %q %v, want an error", enc, err)
	}
}
