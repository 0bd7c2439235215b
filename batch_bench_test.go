package main

import (
	"bytes"
	"context"
	"fmt"
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

// benchSession runs args over a generated session of n growing requests
// (encode.GenerateSession: W300 is about 83 MB, W1200 about 1.3 GB, written
// to a temporary file and removed after).
func benchSession(b *testing.B, n int, args ...string) {
	p := filepath.Join(b.TempDir(), "session.jsonl")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	if err := encode.GenerateSession(f, n, 1); err != nil {
		b.Fatal(err)
	}
	size, _ := f.Seek(0, io.SeekCurrent)
	f.Close()
	args = append(args, p)
	b.SetBytes(size)
	for b.Loop() {
		run(context.Background(), args, bytes.NewReader(nil), io.Discard, io.Discard)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/request")
}

// BenchmarkSession: check and cache on W75 to W1200; the time should grow
// with the distinct content (about twice from W300 to W600), not with the
// file (four times): ns/request, the time per request, should stay about
// the same from one size to the next.
func BenchmarkSession(b *testing.B) {
	for _, cmd := range [][]string{{"check", "--json"}, {"cache", "--json"}} {
		for _, n := range []int{75, 150, 300, 600, 1200} {
			b.Run(fmt.Sprintf("%s/W%d", cmd[0], n), func(b *testing.B) { benchSession(b, n, cmd...) })
		}
	}
}
