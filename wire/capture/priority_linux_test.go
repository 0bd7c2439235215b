package capture

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// niceThreads counts the threads of this process at nice n (the 19th field
// of /proc/self/task/TID/stat).
func niceThreads(t *testing.T, n int) int {
	t.Helper()
	stats, err := filepath.Glob("/proc/self/task/*/stat")
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue // a thread that ended
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 16 {
			if v, err := strconv.Atoi(f[16]); err == nil && v == n {
				count++
			}
		}
	}
	return count
}

// TestRecorderThreadIsNiced: the recorder writes from a thread of its own
// at nice recorderNice, and that thread ends with it.
func TestRecorderThreadIsNiced(t *testing.T) {
	// The recorders of the tests before may still be ending, each with
	// its thread: the count is read once it holds for 100 ms (at most 5 s).
	before := niceThreads(t, recorderNice)
	for since, start := time.Now(), time.Now(); time.Since(since) < 100*time.Millisecond && time.Since(start) < 5*time.Second; {
		time.Sleep(5 * time.Millisecond)
		if n := niceThreads(t, recorderNice); n != before {
			before, since = n, time.Now()
		}
	}
	rec, err := Create(filepath.Join(t.TempDir(), "c.jsonl"), nil)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for niceThreads(t, recorderNice) == before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := niceThreads(t, recorderNice); got != before+1 {
		t.Errorf("%d threads at nice %d with a recorder running, want %d", got, recorderNice, before+1)
	}
	rec.Add(&Exchange{Start: time.Now(), End: time.Now(), Method: "POST", URL: "http://127.0.0.1/v1/messages", Status: 200})
	if err := rec.Close(); err != nil {
		t.Fatal(err)
	}
	if n, _ := rec.Counts(); n != 1 {
		t.Errorf("%d exchanges written, want 1", n)
	}
	for niceThreads(t, recorderNice) != before && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if got := niceThreads(t, recorderNice); got != before {
		t.Errorf("%d threads at nice %d after the recorder closed, want %d", got, recorderNice, before)
	}
}
