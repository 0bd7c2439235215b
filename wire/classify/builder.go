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
		if segs := b.Req.Segments; len(segs) == cap(segs) && len(segs) >= 1024 {
			// Doubled, not append's quarter for large slices: a request of
			// a million segments was copied some 60 times over (about five
			// times its segments' size allocated, at 184 bytes a segment).
			b.Req.Segments = append(make([]wire.Segment, 0, 2*len(segs)), segs...)
		}
		b.Req.Segments = append(b.Req.Segments, s)
	}
	if p.CacheBreakpoint {
		b.Req.Breakpoints = append(b.Req.Breakpoints, len(b.Req.Segments)-1)
		b.Req.CacheTTL1h = b.Req.CacheTTL1h || p.CacheTTL1h
	}
}
