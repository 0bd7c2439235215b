package audit

import (
	"slices"
	"strconv"
	"strings"
)

// ObserveVolatile judges the volatile-in-prefix findings of a session by
// what was seen, not by the look of the value: a value found at the same
// place of the same segment in every request that carries it (in two
// requests or more) did not change, so it breaks no cache and is not
// reported; a value that did change is reported once, with the values seen.
// fs is the findings as a report lists them (each distinct finding once with
// the requests that carry it, or every request's); keep says which to keep,
// and the message of a changed value's first finding is rewritten in place.
// stable is how many values were seen stable.
func ObserveVolatile(fs []Finding) (keep []bool, stable int) {
	keep = make([]bool, len(fs))
	type group struct {
		first   int
		values  []string // the distinct messages, in order
		count   int      // the requests that carry the value
		members []int
	}
	groups := map[string]*group{}
	var order []*group
	for i := range fs {
		f := &fs[i]
		keep[i] = true
		if f.Rule != RuleVolatileInPrefix {
			continue
		}
		key := f.Source + "\x00" + f.Segment + "\x00" + strconv.Itoa(f.Offset)
		g := groups[key]
		if g == nil {
			g = &group{first: i}
			groups[key] = g
			order = append(order, g)
		}
		g.members = append(g.members, i)
		n := 1
		if f.Requests != nil {
			n = f.Requests.Count
		}
		g.count += n
		if !slices.Contains(g.values, f.Message) {
			g.values = append(g.values, f.Message)
		}
	}
	for _, g := range order {
		switch {
		case len(g.values) == 1 && g.count >= 2:
			for _, i := range g.members {
				keep[i] = false
			}
			stable++
		case len(g.values) > 1:
			f := &fs[g.first]
			seen := make([]string, 0, len(g.values))
			for _, m := range g.values {
				if v := valueOf(m); v != "" && !slices.Contains(seen, v) {
					seen = append(seen, v)
				}
			}
			if len(seen) > 1 {
				more := ""
				if len(seen) > 2 {
					more = " and " + strconv.Itoa(len(seen)-2) + " more"
					seen = seen[:2]
				}
				f.Message += " (seen changing: " + strings.Join(seen, ", then ") + more + ")"
			}
			if f.Requests != nil {
				f.Requests.Count = g.count
			}
			for _, i := range g.members[1:] {
				if fs[i].Requests != nil {
					keep[i] = false // counted in the first
				}
			}
		}
	}
	return keep, stable
}

// valueOf is the value a volatile-in-prefix message quotes: the text in its
// first parentheses.
func valueOf(msg string) string {
	i := strings.IndexByte(msg, '(')
	j := strings.IndexByte(msg, ')')
	if i < 0 || j < i {
		return ""
	}
	return msg[i+1 : j]
}
