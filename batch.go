package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// batchWorkers is how many inputs a batch command decodes at once; 0 is
// GOMAXPROCS. Tests set it to 1 for the serial run they compare with.
var batchWorkers = 0

// batchBudget bounds the bytes of input files decoded ahead of the merge
// (their requests held until it reaches them): past it a worker waits,
// unless nothing is held (one file larger than the budget is still read).
const batchBudget = 256 << 20

// batchJob is one input of a batch: a decode.Job, or a FILE argument read as
// the serial path reads it ("-", FILE@N, which are never split).
type batchJob struct {
	job    decode.Job
	serial string // the argument, when the job is not a decode.Job
	size   int64
}

// batchItem is a request of one input, or an error, with what the worker
// made of it. The request is the one the worker worked on, handed to the
// merge as it is (not copied again: the cache keeps it).
type batchItem[T any] struct {
	r   *wire.Request
	err error
	v   T
}

// batchJobs lists the inputs of the sources in the order the serial path
// reads them, and whether they may be decoded apart (every input names
// another source: an auditor keeps state by source, such as the last tool
// definitions seen, which a file given twice carries from one to the other).
func (a *App) batchJobs(sources []string) ([]batchJob, bool) {
	var jobs []batchJob
	seen := map[string]bool{}
	apart := true
	for _, src := range sources {
		if file, _, err := splitRef(src); src == "-" || err != nil || file != src {
			jobs = append(jobs, batchJob{serial: src})
			continue
		}
		for _, j := range decode.Jobs(src, a.decodeOptions(src)) {
			if seen[j.Opts.Source] {
				apart = false
			}
			seen[j.Opts.Source] = true
			jobs = append(jobs, batchJob{job: j, size: j.Size()})
		}
	}
	return jobs, apart
}

// runBatch reads every request of the sources, in order, calling work on
// each (with the state newWork made for the goroutine that runs it) and
// then merge with the request and what work returned, in the order the
// serial path reads them: inputs are decoded and worked on several at a
// time (batchWorkers), their items held until the merge reaches them, so
// that the output is the serial run's byte for byte. work must depend only
// on its request and its own state; merge runs on the caller's goroutine
// and may stop the batch by returning false. Errors reach merge with a
// zero T. The request merge is given is its own to keep.
func runBatch[T any](a *App, sources []string, newWork func() func(*wire.Request) T,
	merge func(r *wire.Request, err error, v T) bool) {
	jobs, apart := a.batchJobs(sources)
	var size int64
	for _, j := range jobs {
		size += j.size
	}
	defer batchGC(size)()
	n := batchWorkers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	n = min(n, len(jobs))
	if n <= 1 || !apart {
		// The jobs listed, read in turn as decodeSource reads them
		// (ahead of the work), not listed again by a.decode.
		work := newWork()
		for _, j := range jobs {
			stop := false
			each := func(r wire.Request, err error) bool {
				var v T
				if err == nil {
					v = work(&r)
				}
				stop = !merge(&r, err, v)
				return !stop
			}
			a.decodeJob(j, true, each)
			if stop {
				return
			}
		}
		return
	}
	type result struct {
		items []batchItem[T]
		done  chan struct{}
	}
	results := make([]result, len(jobs))
	for i := range results {
		results[i].done = make(chan struct{})
	}
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		held    int64 // bytes of the inputs taken and not yet merged
		next    int   // the next job to take
		stopped bool
		wg      sync.WaitGroup
		// free are item slices merged and cleared, for the next jobs:
		// grown once, not for every input.
		free [][]batchItem[T]
	)
	// take gives the next job once the budget allows it, or -1 at the end.
	take := func() int {
		mu.Lock()
		defer mu.Unlock()
		for !stopped && next < len(jobs) && held > 0 && held+jobs[next].size > batchBudget {
			cond.Wait()
		}
		if stopped || next == len(jobs) {
			return -1
		}
		i := next
		next++
		held += jobs[i].size
		if k := len(free) - 1; k >= 0 {
			results[i].items, free = free[k], free[:k]
		}
		return i
	}
	isStopped := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return stopped
	}
	for range n {
		wg.Add(1)
		work := newWork()
		go func() {
			defer wg.Done()
			for i := take(); i >= 0; i = take() {
				res := &results[i]
				each := func(r wire.Request, err error) bool {
					var v T
					if err == nil {
						v = work(&r)
					}
					res.items = append(res.items, batchItem[T]{&r, err, v})
					return !isStopped()
				}
				a.decodeJob(jobs[i], false, each)
				close(res.done)
			}
		}()
	}
	defer func() {
		mu.Lock()
		stopped = true
		cond.Broadcast()
		mu.Unlock()
		wg.Wait()
	}()
	for i := range results {
		<-results[i].done
		for _, it := range results[i].items {
			if !merge(it.r, it.err, it.v) {
				return
			}
		}
		items := results[i].items
		clear(items)
		results[i].items = nil
		mu.Lock()
		held -= jobs[i].size
		free = append(free, items[:0])
		cond.Broadcast()
		mu.Unlock()
	}
}

// decodeJob reads the requests of j, in order, into each as the serial
// path reads them; a decode.Job decoded ahead of each (decode.Ahead) when
// ahead is set (a worker of runBatch is itself beside the merge).
func (a *App) decodeJob(j batchJob, ahead bool, each func(wire.Request, error) bool) {
	if j.serial != "" {
		a.decode(j.serial, each)
		return
	}
	each = a.markTools(each)
	seq := j.job.Decode()
	if ahead {
		seq = decode.Ahead(seq, aheadRequests)
	}
	for r, err := range seq {
		if !each(r, err) {
			break
		}
	}
}

// batchGC sets the garbage collector's target for a batch command over
// inputs of size bytes and returns what puts the old one back: a run over
// many transcripts keeps little from one to the next (the distinct text,
// the findings), so the default target (a collection each time the heap
// doubles from a few MB) collects hundreds of times for little. The heap
// may grow to five times what it keeps (GOGC=400), under a soft limit of
// 256 MB plus twice the size of the input, past which the collector works
// harder again (1 GB plus the input let cache on a million tiny requests,
// 125 MB, peak at 1.06 GB where the default target peaks at 0.58 GB). GOGC
// or GOMEMLIMIT set by the user win.
func batchGC(size int64) func() {
	if _, set := os.LookupEnv("GOGC"); set {
		return func() {}
	}
	pct := debug.SetGCPercent(400)
	limit := int64(-1)
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		limit = debug.SetMemoryLimit(256<<20 + 2*size)
	}
	return func() {
		debug.SetGCPercent(pct)
		if limit >= 0 {
			debug.SetMemoryLimit(limit)
		}
	}
}
