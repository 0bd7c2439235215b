package decode

import (
	"iter"

	"github.com/wirelens/wirelens/wire"
)

// Ahead is seq decoded in a goroutine of its own, up to n requests ahead of
// the loop that ranges over it: reading and decoding the next lines overlap
// with whatever the loop does with the last request (the audit of check,
// the token counts of cache), on a second core when there is one. Requests
// and errors come out in seq's order. When the loop stops early, the
// decoding goroutine is told to stop, and Ahead returns only once it has
// (so the input is closed and nothing of seq runs after).
//
// A decoder never writes a request's segments after emitting it (see
// decoder.share), so the loop may read them while the next is decoded.
func Ahead(seq iter.Seq2[wire.Request, error], n int) iter.Seq2[wire.Request, error] {
	type item struct {
		r   wire.Request
		err error
	}
	return func(yield func(wire.Request, error) bool) {
		items := make(chan item, n)
		stop := make(chan struct{})
		go func() {
			defer close(items)
			for r, err := range seq {
				select {
				case items <- item{r, err}:
				case <-stop:
					return
				}
			}
		}()
		defer func() {
			close(stop)
			for range items {
			}
		}()
		for it := range items {
			if !yield(it.r, it.err) {
				return
			}
		}
	}
}
