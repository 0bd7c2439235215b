package wire

import "slices"

// A run is an array that the requests of a growing session share: request
// k holds run[:n_k:n_k], and request k+1, which repeats all of request k
// and adds to it, holds a longer slice of the same array, its new elements
// written after n_k, where no earlier request can see them. ExtendRun
// makes and lengthens one, for a request's segments (wire/decode) and for
// what is measured of them (the viewer's per-segment tables).

// ExtendRun returns run lengthened to n elements (n >= len(run)), its
// elements kept: in its own array when it has room, else in a new one. A
// new run (run empty) gets a little room after its n elements, since the
// next request may or may not extend it; a run that outgrows its array
// gets room for as many again (a session that grows keeps growing), so
// the arrays a session holds add up to a few times its longest request.
func ExtendRun[T any](run []T, n int) []T {
	if n <= cap(run) {
		return run[:n]
	}
	if len(run) == 0 {
		return make([]T, n, n+n/8+16)
	}
	out := make([]T, n, 2*n+16)
	copy(out, run)
	return out
}

// SameSegments reports whether a and b hold equal segments (the same slice
// of one array, or field by field), as a run's requests must to share it.
func SameSegments(a, b []Segment) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Hash != y.Hash || x.Start != y.Start || x.Text != y.Text ||
			x.ID != y.ID || x.Part != y.Part || x.Channel != y.Channel || x.Role != y.Role || x.Kind != y.Kind ||
			x.Trust != y.Trust || x.Envelope != y.Envelope || x.Label != y.Label || x.Server != y.Server || !slices.Equal(x.Escapes, y.Escapes) {
			return false
		}
	}
	return true
}
