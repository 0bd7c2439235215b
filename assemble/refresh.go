package assemble

import "fmt"

// Change is what happened to one fragment between two builds.
type Change struct {
	Fragment string // the fragment's name
	// Status is "added", "removed" or "changed".
	Status string
	// Before and After are the texts sent ("" when absent).
	Before, After string
	// Trusted is set for host fragments (the system prompt, the time).
	Trusted bool
}

// RefreshReport says what a refresh changed.
type RefreshReport struct {
	Changes []Change
	// SystemStable is set when the system prompt stayed byte-identical: it
	// must in the isolated layout, whatever the workspace and the time.
	SystemStable bool
	// FirstChange is the name of the first fragment in wire order that
	// changed, or "" (where a prompt cache breaks).
	FirstChange string
}

// Refresh re-collects the workspace, binds it again with the same config and
// reports what changed against prev.
func Refresh(prev *Result, in Input, cfg Config) (*Result, *RefreshReport, error) {
	b, err := Collect(in)
	if err != nil {
		return nil, nil, err
	}
	next, err := Bind(b, cfg)
	if err != nil {
		return nil, nil, err
	}
	return next, Compare(prev, next), nil
}

// Compare reports the changes from a to b, fragment by fragment in b's wire
// order (removed fragments last, in a's order).
func Compare(a, b *Result) *RefreshReport {
	rep := &RefreshReport{SystemStable: a.System == b.System}
	old := map[string]Fragment{}
	for _, f := range a.Fragments {
		old[f.Name] = f
	}
	seen := map[string]bool{}
	for _, f := range b.Fragments {
		seen[f.Name] = true
		o, ok := old[f.Name]
		switch {
		case !ok:
			rep.Changes = append(rep.Changes, Change{Fragment: f.Name, Status: "added", After: f.Text, Trusted: f.Trusted})
		case o.Text != f.Text:
			rep.Changes = append(rep.Changes, Change{Fragment: f.Name, Status: "changed", Before: o.Text, After: f.Text, Trusted: f.Trusted})
		default:
			continue
		}
		if rep.FirstChange == "" {
			rep.FirstChange = f.Name
		}
	}
	for _, f := range a.Fragments {
		if !seen[f.Name] {
			rep.Changes = append(rep.Changes, Change{Fragment: f.Name, Status: "removed", Before: f.Text, Trusted: f.Trusted})
			if rep.FirstChange == "" {
				rep.FirstChange = f.Name
			}
		}
	}
	return rep
}

// String is a one-line summary of the report.
func (r *RefreshReport) String() string {
	stable := "byte-identical"
	if !r.SystemStable {
		stable = "changed"
	}
	return fmt.Sprintf("%s changed; system prompt %s", fragmentCount(len(r.Changes)), stable)
}

// fragmentCount is "1 fragment" or "N fragments".
func fragmentCount(n int) string {
	if n == 1 {
		return "1 fragment"
	}
	return fmt.Sprintf("%d fragments", n)
}
