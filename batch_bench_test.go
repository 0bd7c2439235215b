package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/wirelens/wirelens/wire/encode"
)

// genFolder writes a folder of n transcripts made from the real ones in
// testdata (encode.GenerateFolder) and returns its path and size.
func genFolder(tb testing.TB, n int, seed int64) (string, int64) {
	tb.Helper()
	srcs, err := folderSources("testdata")
	if err != nil {
		tb.Fatal(err)
	}
	dir := filepath.Join(tb.TempDir(), "sessions")
	f, err := encode.GenerateFolder(dir, srcs, n, seed)
	if err != nil {
		tb.Fatal(err)
	}
	return dir, f.Bytes
}

// benchFolder runs args over a generated folder of 1,000 transcripts and
// reports the bytes allocated per input byte.
func benchFolder(b *testing.B, args ...string) {
	dir, size := genFolder(b, 1000, 1)
	args = append(args, dir)
	var ms0, ms1 runtime.MemStats
	b.SetBytes(size)
	b.ReportAllocs()
	runtime.ReadMemStats(&ms0)
	for b.Loop() {
		run(context.Background(), args, bytes.NewReader(nil), io.Discard, io.Discard)
	}
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(b.N)/float64(size), "alloc-B/in-B")
}

func BenchmarkCheckFolder(b *testing.B) { benchFolder(b, "check", "--json") }
func BenchmarkCacheFolder(b *testing.B) { benchFolder(b, "cache", "--json") }

var _ = os.Getenv
