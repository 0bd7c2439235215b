package diff

import "github.com/wirelens/wirelens/wire"

// NewAuditor is wire.NewAuditor with this package's volatile-value finder
// plugged in, so the volatile-in-prefix rule is on. (wire cannot import
// diff; every caller that audits wants the finder.)
func NewAuditor() *wire.Auditor {
	a := wire.NewAuditor()
	a.FindVolatile = AuditVolatile
	return a
}

// AuditVolatile is FindVolatile in the audit's terms.
func AuditVolatile(text string) []wire.VolatileValue {
	vs := FindVolatile(text)
	if len(vs) == 0 {
		return nil
	}
	out := make([]wire.VolatileValue, len(vs))
	for i, v := range vs {
		out[i] = wire.VolatileValue{Start: v.Start, End: v.End, Kind: string(v.Kind)}
	}
	return out
}
