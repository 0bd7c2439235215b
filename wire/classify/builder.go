package classify

import "github.com/wirelens/wirelens/wire"

// Builder turns parts into a Request's segments, interning their text.
// Decoders (and the assemble package) feed it parts in wire order.
type Builder struct {
	Req *wire.Request
	In  *wire.Interner
	// Cwd is the session's working directory where the recording names it
	// (Codex's session_meta and turn_context): a skill listed inside it is
	// the workspace's, whatever its folder's name (ClassifyIn).
	Cwd string
}

// Add classifies p and appends its segments; a cache breakpoint on p goes
// on its last segment (the request's Breakpoints).
func (b *Builder) Add(p wire.Part) {
	for _, s := range ClassifyIn(p, b.Cwd) {
		s.Text, s.Hash = b.In.Intern(s.Text)
		b.Req.Segments = append(b.Req.Segments, s)
	}
	if p.CacheBreakpoint {
		b.Req.Breakpoints = append(b.Req.Breakpoints, len(b.Req.Segments)-1)
		b.Req.CacheTTL1h = b.Req.CacheTTL1h || p.CacheTTL1h
	}
}
