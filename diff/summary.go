package diff

import (
	"maps"
	"sort"

	"github.com/wirelens/wirelens/wire"
)

// Summary is what a whole sequence of requests comes to.
type Summary struct {
	// Requests is the number of requests in the sequence; Compared the
	// number compared with a predecessor (all but the first).
	Requests int
	Compared int
	// ReuseRatio is the sum of the compared requests' prefix tokens over the
	// sum of their total tokens (0 when nothing was compared).
	ReuseRatio   float64
	PrefixTokens int
	TotalTokens  int
	// ReprocessedTokens is the tokens of earlier requests processed again
	// because of breaks.
	ReprocessedTokens int
	// Breaks counts the requests with a break, grouped by channel, by the
	// kind of segment, by the volatile value named, and by cause (a model
	// or provider change is counted by cause only).
	Breaks           int
	BreaksByChannel  map[string]int
	BreaksByKind     map[string]int
	BreaksByVolatile map[string]int
	BreaksByCause    map[string]int
	// Worst are the requests whose breaks re-processed the most tokens,
	// worst first (at most WorstCount).
	Worst []*Step
	// Predicted and Recorded sum the predicted cache reads and the recorded
	// ones (RecordedRequests says how many requests had a record);
	// Disagreements counts the requests where they disagree.
	Predicted        int
	Recorded         int
	RecordedRequests int
	Disagreements    int
	// Unpredicted counts the requests for which no prediction could be
	// made (Prediction.Unavailable); Predicted leaves them out.
	Unpredicted int
	// Verdicts counts the recorded provider verdicts, and how many agree
	// with wirelens's attribution, disagree, or are inconclusive.
	Verdicts, VerdictsAgree, VerdictsDisagree, VerdictsInconclusive int
	// Expiries counts the requests that would have read a longer prefix had
	// it not expired; ExpiredTokens the tokens written again for it.
	Expiries      int
	ExpiredTokens int
	// Timed counts the compared requests whose time is recorded.
	Timed int
	// Lanes is what each lane came to, in order of appearance.
	Lanes []LaneTotals
	// TokenScale is the factor the estimates were calibrated by against
	// the recorded usage (1 when none was), fitted on ScaleSamples
	// requests.
	TokenScale   float64
	ScaleSamples int
}

// WorstCount is how many worst requests a summary names.
const WorstCount = 5

type summaryAcc struct {
	s Summary
}

func (a *summaryAcc) add(st *Step) {
	s := &a.s
	if s.BreaksByChannel == nil {
		s.BreaksByChannel = map[string]int{}
		s.BreaksByKind = map[string]int{}
		s.BreaksByVolatile = map[string]int{}
		s.BreaksByCause = map[string]int{}
	}
	s.Compared++
	if e := st.Expired; e != nil {
		s.Expiries++
		s.ExpiredTokens += e.Tokens
	}
	if !st.At.IsZero() {
		s.Timed++
	}
	s.PrefixTokens += st.PrefixTokens
	s.TotalTokens += st.TotalTokens
	if st.Verdict != nil {
		s.Verdicts++
		switch st.VerdictOutcome {
		case VerdictAgrees:
			s.VerdictsAgree++
		case VerdictDisagrees:
			s.VerdictsDisagree++
		default:
			s.VerdictsInconclusive++
		}
	}
	if st.Prediction.Unavailable != "" {
		s.Unpredicted++
	} else {
		s.Predicted += st.Prediction.Cached
	}
	if st.Recorded != nil {
		s.Recorded += *st.Recorded
		s.RecordedRequests++
	}
	if st.Disagreement != "" {
		s.Disagreements++
	}
	b := st.Break
	if b == nil {
		return
	}
	s.Breaks++
	s.ReprocessedTokens += st.Reprocessed
	// A change of model or provider breaks the cache whatever the text: it
	// is counted by cause only, not against the channel it happens to start.
	if !b.Cause.Switch() {
		if b.Channel != "" {
			s.BreaksByChannel[string(b.Channel)]++
		}
		if b.Kind != "" {
			s.BreaksByKind[string(b.Kind)]++
		}
	}
	if b.Volatile != "" {
		s.BreaksByVolatile[string(b.Volatile)]++
	}
	s.BreaksByCause[string(b.Cause)]++
	if st.Reprocessed > 0 {
		s.Worst = append(s.Worst, st)
		sort.SliceStable(s.Worst, func(i, j int) bool { return s.Worst[i].Reprocessed > s.Worst[j].Reprocessed })
		if len(s.Worst) > WorstCount {
			s.Worst[WorstCount] = nil // not kept alive by the array
			s.Worst = s.Worst[:WorstCount]
		}
	}
}

// Summary returns the summary of the requests added so far.
func (q *Sequence) Summary() Summary {
	s := q.sum.s
	s.Requests = q.count
	// A copy: requests added later do not change a summary already taken.
	for _, m := range []*map[string]int{&s.BreaksByChannel, &s.BreaksByKind, &s.BreaksByVolatile, &s.BreaksByCause} {
		if *m = maps.Clone(*m); *m == nil {
			*m = map[string]int{}
		}
	}
	if s.TotalTokens > 0 {
		s.ReuseRatio = float64(s.PrefixTokens) / float64(s.TotalTokens)
	}
	s.Worst = append([]*Step(nil), s.Worst...)
	s.Lanes = q.Lanes()
	s.TokenScale, s.ScaleSamples = q.Scale()
	return s
}

// Analyze compares every request of reqs with the last earlier request of
// its model and provider (see Sequence) and returns the steps (one fewer
// than the requests) and the summary.
func Analyze(reqs []wire.Request) ([]*Step, Summary) {
	var q Sequence
	steps := make([]*Step, 0, max(0, len(reqs)-1))
	for i := range reqs {
		if st := q.Add(&reqs[i]); st != nil {
			steps = append(steps, st)
		}
	}
	q.NameSteps(steps)
	return steps, q.Summary()
}
