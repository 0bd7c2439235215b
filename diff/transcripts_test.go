package diff

import (
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/price"
)

// readTranscript decodes a gzip-compressed Claude Code transcript of
// testdata/claude-code-transcripts.
func readTranscript(t *testing.T, name string) []wire.Request {
	t.Helper()
	path := filepath.Join("..", "testdata", "claude-code-transcripts", name)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var reqs []wire.Request
	for r, err := range decode.Decode(zr, decode.Options{Source: name}) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		reqs = append(reqs, r)
	}
	return reqs
}

// TestTranscriptsExpiry is issue 22's measure on real Claude Code sessions:
// of the recorded misses that follow an idle gap past the cache's lifetime,
// at least 80% are attributed to expiry and none without such a gap is; the
// session's cost counts them; at most 20% of the predictions disagree with
// the recorded cache reads.
func TestTranscriptsExpiry(t *testing.T) {
	tab := price.Default()
	totalMisses, totalAttributed := 0, 0
	for _, tc := range []struct {
		name     string
		lifetime time.Duration // what the recorded writes say
		misses   int           // recorded misses after a gap past the lifetime
	}{
		{"4d5611e5-241a-462a-8d15-5122611a9569.jsonl.gz", Lifetime5m, 2},
		{"8463c716-a2ea-4c14-9efa-87158ebd9f20.jsonl.gz", Lifetime1h, 0},
		{"ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl.gz", Lifetime5m, 1},
	} {
		t.Run(tc.name[:8], func(t *testing.T) {
			reqs := readTranscript(t, tc.name)
			var q Sequence
			l := Ledger{Prices: tab}
			recorded, disagree, misses, attributed, expired, longGaps := 0, 0, 0, 0, 0, 0
			for i := range reqs {
				st := q.Add(&reqs[i])
				l.AddIn(q.LastLane().ID, &reqs[i], st)
				if st == nil {
					continue
				}
				if st.At.IsZero() || !st.HasIdle {
					t.Fatalf("request %d: no time read from the transcript", st.Index)
				}
				if st.Recorded != nil {
					recorded++
					if st.Disagreement != "" {
						disagree++
					}
				}
				gap := st.HasIdle && st.Idle > tc.lifetime
				if st.HasIdle && st.Idle > Lifetime5m {
					longGaps++
				}
				// A large recorded miss: 10,000 tokens or more of the earlier
				// request's input not read.
				miss := st.Recorded != nil && st.PrevRecordedInput != nil && *st.PrevRecordedInput-*st.Recorded >= 10000
				if miss && gap {
					misses++
					if st.Expired != nil {
						attributed++
					}
				}
				if e := st.Expired; e != nil {
					expired++
					if !gap || e.Idle <= e.Lifetime || e.Lifetime != tc.lifetime {
						t.Errorf("request %d: expiry %+v after %v, lifetime %v", st.Index, *e, st.Idle, tc.lifetime)
					}
				}
			}
			if misses != tc.misses {
				t.Errorf("%d recorded misses after a gap past the lifetime, want %d", misses, tc.misses)
			}
			if attributed*5 < misses*4 {
				t.Errorf("%d of %d misses after a gap attributed to expiry, want at least 80%%", attributed, misses)
			}
			if recorded == 0 || disagree*5 > recorded {
				t.Errorf("%d of %d predictions disagree with the record, want at most 20%%", disagree, recorded)
			}
			tot := l.Totals()
			if tot.Expiries != expired || (expired > 0 && tot.ExpiryUSD <= 0) {
				t.Errorf("cost: %d expiries for $%.4f, want the %d expired", tot.Expiries, tot.ExpiryUSD, expired)
			}
			if sum := q.Summary(); sum.Expiries != expired || sum.TokenScale < 1.1 || sum.TokenScale > 1.6 || sum.ScaleSamples < 10 {
				t.Errorf("summary: %d expiries, scale %.3f over %d requests", sum.Expiries, sum.TokenScale, sum.ScaleSamples)
			}
			if tc.lifetime == Lifetime1h && longGaps == 0 {
				t.Errorf("the 1-hour session has no gap past 5 minutes: the case it is kept for is gone")
			}
			t.Logf("%d requests: %d recorded misses after a gap past the lifetime, %d attributed to expiry; %d expiries "+
				"costing $%.4f; %d of %d predictions disagree with the record; scale %.3f", len(reqs), misses, attributed,
				tot.Expiries, tot.ExpiryUSD, disagree, recorded, q.Summary().TokenScale)
			totalMisses += misses
			totalAttributed += attributed
		})
	}
	if totalMisses == 0 {
		t.Fatal("no recorded miss after an idle gap: the test measures nothing")
	}
}
