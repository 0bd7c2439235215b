package diff

import (
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/wire"
)

// Lanes are named by what they are, not by the order they came in:
//
//   - main is the lane that carries the conversation: the first lane whose
//     requests have tools (the agent at work) or, in a session without
//     tools, the first lane to send a second request (its history grew) that
//     does not say it is a title, summary or classifier request;
//   - subagent:N are the other lanes with tools, numbered in order;
//   - a lane without tools that is not main is named for what its system
//     prompt says it does (title, summary, classifier: lanePurposes), else
//     oneshot:N: requests outside the conversation, such as Gemini CLI's
//     routing classifier sent before each turn or opencode's title request;
//   - the same agent's lane to another model is the lane's name and the
//     model's (main@haiku-4-5).
//
// Which lane is main may be known only after a few requests (Gemini CLI's
// classifier comes before the agent's first request): until then the names
// are provisional, Settled says when they are not, and Named gives a lane's
// name as it stands. A sequence settles at its first lane with tools, at
// main's second request, or after settleAfter requests at the latest, so a
// writer that holds its steps until then holds a few.

// settleAfter is how many requests a sequence takes at most before it
// settles its lanes' names.
const settleAfter = 64

// lanePurposes names a request outside the conversation by the words the
// start of its system prompt (or, without one, of its first message) uses
// for its task, lower-cased; the first row that matches wins. Data, read
// from the agents' captures: opencode's "You are a title generator", Gemini
// CLI's "You are a specialized Task Routing AI".
var lanePurposes = []struct {
	name  string
	words []string
}{
	{"title", []string{"title"}},
	{"summary", []string{"summar"}},
	{"classifier", []string{"classif", "routing", "router"}},
}

// purposeHead is how many bytes of the prompt lanePurpose reads.
const purposeHead = 200

// lanePurpose is what r says it does, from lanePurposes, or "".
func lanePurpose(r *wire.Request) string {
	var head string
	for _, ch := range []wire.Channel{wire.ChannelSystem, wire.ChannelMessages} {
		for i := range r.Segments {
			if s := &r.Segments[i]; s.Channel == ch && strings.TrimSpace(s.Text) != "" {
				head = s.Text
				break
			}
		}
		if head != "" {
			break
		}
	}
	if len(head) > purposeHead {
		head = head[:purposeHead]
	}
	head = strings.ToLower(head)
	for _, p := range lanePurposes {
		for _, w := range p.words {
			if strings.Contains(head, w) {
				return p.name
			}
		}
	}
	return ""
}

// newLane makes the lane of stable prefix sig, r its first request.
func (q *Sequence) newLane(sig uint64, tools bool, r *wire.Request) *laneState {
	if len(q.lanes) >= maxLaneCount {
		sig = 0
	}
	l := &laneState{tools: tools, shape: laneShape(r), model: r.Model, other: sig == 0}
	l.ID = strconv.FormatUint(sig>>32, 16)
	l.n = len(q.lanes) + 1
	for _, o := range q.lanes {
		if o.shape == l.shape && !o.other {
			// The same agent's requests to another model.
			l.sibOf, l.sibling = o, true
			break
		}
	}
	if !tools {
		l.purpose = lanePurpose(r)
	}
	if q.main == nil && tools && l.sibOf == nil && !l.other {
		q.main = l // the agent at work
	}
	q.lanesBy[sig] = l
	q.lanes = append(q.lanes, l)
	q.nameLanes()
	return l
}

// settleOn settles the lanes' names when l, which has just taken a
// request, shows which lane is main, or when the sequence has waited long
// enough.
func (q *Sequence) settleOn(l *laneState) {
	if q.main != nil {
		return
	}
	switch {
	case l.Requests >= 2 && l.sibOf == nil && !l.other && l.purpose == "":
		q.main = l // its conversation goes on
		q.nameLanes()
	case q.count >= settleAfter:
		q.Settle()
	}
}

// Settled reports whether the lanes' names are final: later requests do
// not rename a lane.
func (q *Sequence) Settled() bool { return q.main != nil || len(q.lanes) == 0 }

// Settle makes the lanes' names final (at the end of the input): main is
// the likeliest lane so far.
func (q *Sequence) Settle() {
	if q.main == nil {
		q.main = q.likelyMain()
		q.nameLanes()
	}
}

// Named is l under its lane's name as it stands now.
func (q *Sequence) Named(l Lane) Lane {
	if l.n > 0 && l.n <= len(q.lanes) && q.lanes[l.n-1].ID == l.ID {
		return q.lanes[l.n-1].Lane
	}
	return l
}

// NameSteps settles the lanes' names and gives them to steps (nil steps
// are skipped).
func (q *Sequence) NameSteps(steps []*Step) {
	q.Settle()
	for _, st := range steps {
		if st != nil {
			st.Lane, st.PrevLane = q.Named(st.Lane), q.Named(st.PrevLane)
		}
	}
}

// likelyMain is the lane main is until one shows it is: a lane that does
// not say it is a title, summary or classifier request before one that
// does, then the one with the most requests, then the first.
func (q *Sequence) likelyMain() *laneState {
	var best *laneState
	for _, l := range q.lanes {
		if l.other || l.sibOf != nil {
			continue
		}
		switch {
		case best == nil:
			best = l
		case (best.purpose == "") != (l.purpose == ""):
			if l.purpose == "" {
				best = l
			}
		case l.Requests > best.Requests:
			best = l
		}
	}
	return best
}

// nameLanes names every lane from what is known now.
func (q *Sequence) nameLanes() {
	main := q.main
	if main == nil {
		main = q.likelyMain()
	}
	count := map[string]int{}
	seen := map[string]bool{}
	for _, l := range q.lanes {
		var name string
		switch {
		case l.other:
			name = "other"
		case l.sibOf != nil:
			name = l.sibOf.Name + "@" + shortModel(l.model)
		case l == main:
			name = "main"
		case l.tools:
			count["subagent"]++
			name = "subagent:" + strconv.Itoa(count["subagent"])
		case l.purpose != "":
			count[l.purpose]++
			name = l.purpose
			if c := count[l.purpose]; c > 1 {
				name += ":" + strconv.Itoa(c)
			}
		default:
			count["oneshot"]++
			name = "oneshot:" + strconv.Itoa(count["oneshot"])
		}
		if seen[name] && !l.other {
			name += "-" + l.ID
		}
		seen[name] = true
		l.Name = name
		l.LaneTotals.Lane = l.Lane
	}
}

// Lanes returns what each lane came to, in order of appearance, under the
// names they have now.
func (q *Sequence) Lanes() []LaneTotals {
	out := make([]LaneTotals, len(q.lanes))
	for i, l := range q.lanes {
		out[i] = l.LaneTotals
	}
	return out
}

// Steps compares each request of reqs in one sequence, as cache does (a
// nil step for the first), its lanes named once settled; bySource makes
// each run of requests of one source a sequence of its own.
func Steps(reqs []wire.Request, bySource bool) []*Step {
	out := make([]*Step, len(reqs))
	var q Sequence
	from := 0
	for i := range reqs {
		if bySource && i > 0 && reqs[i].Source != reqs[i-1].Source {
			q.NameSteps(out[from:i])
			q, from = Sequence{}, i
		}
		out[i] = q.Add(&reqs[i])
	}
	q.NameSteps(out[from:])
	return out
}
