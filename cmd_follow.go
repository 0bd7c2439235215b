package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"time"

	"github.com/wirelens/wirelens/ui"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// Following a growing file (view --follow, record --view): the file is
// looked at every followPoll; when it has grown, it is decoded again up to
// its last whole line and the requests past those already shown are sent
// to the viewer. Decoding from the start each time keeps agent recordings,
// whose requests are built from the lines before them, right; a line still
// being written is left for the next look.

// followPoll is how often a followed file is looked at.
const followPoll = 250 * time.Millisecond

// followStream streams the requests of path to the viewer as they are
// written, until ctx ends. Each distinct input error is sent once.
func followStream(ctx context.Context, app *App, path string, errs *streamErrors) <-chan ui.Item {
	ch := make(chan ui.Item, 64)
	go func() {
		defer close(ch)
		f := follower{app: app, path: path, seen: map[string]bool{}}
		tick := time.NewTicker(followPoll)
		defer tick.Stop()
		for {
			if !f.look(ctx, func(it ui.Item) bool {
				if it.Err != nil {
					errs.add(it.Err)
				}
				select {
				case ch <- it:
					return true
				case <-ctx.Done():
					return false
				}
			}) {
				return
			}
			select {
			case <-tick.C:
			case <-ctx.Done():
				return
			}
		}
	}()
	return ch
}

// follower is the state of one followed file.
type follower struct {
	app     *App
	path    string
	size    int64 // the size at the last look
	decoded int64 // the bytes decoded at the last decode
	shown   int   // requests sent
	stable  bool  // the size did not change between the last two looks
	seen    map[string]bool
}

// look decodes the file again when it has grown and sends what is new.
// It returns false when send does (the viewer closed).
func (f *follower) look(ctx context.Context, send func(ui.Item) bool) bool {
	in, err := wire.OpenInput(f.path, wire.MaxInputBytes)
	if err != nil {
		return f.fail(&decode.Error{Source: f.path, Msg: decode.DescribeOSError(err)}, send)
	}
	defer in.Close()
	size := in.Stat().Size()
	if size < f.decoded {
		// Cut or replaced: start again, keeping what was shown.
		f.decoded = 0
	}
	f.stable = size == f.size
	f.size = size
	limit := lastLineEnd(in, size)
	if limit == 0 && f.stable {
		limit = size // one document with no newline at its end, done growing
	}
	if limit <= f.decoded {
		return true
	}
	f.decoded = limit
	n := 0
	for r, err := range decode.Decode(io.NewSectionReader(in, 0, limit), f.app.decodeOptions(f.path)) {
		if ctx.Err() != nil {
			return false
		}
		if err != nil {
			if !f.fail(err, send) {
				return false
			}
			continue
		}
		n++
		if n <= f.shown {
			continue
		}
		f.shown = n
		req := r
		if !send(ui.Item{Req: &req, Progress: -1}) {
			return false
		}
	}
	return true
}

// fail sends err unless an error of the same text was sent before. It
// returns false when send does.
func (f *follower) fail(err error, send func(ui.Item) bool) bool {
	if msg := err.Error(); !f.seen[msg] {
		f.seen[msg] = true
		return send(ui.Item{Err: err, Progress: -1})
	}
	return true
}

// lastLineEnd is the offset just past the last newline in the first size
// bytes of r, or 0 when there is none.
func lastLineEnd(r io.ReaderAt, size int64) int64 {
	const chunk = 64 << 10
	buf := make([]byte, chunk)
	for end := size; end > 0; {
		start := max(0, end-chunk)
		n, _ := r.ReadAt(buf[:end-start], start)
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			return start + int64(i) + 1
		}
		end = start
	}
	return 0
}

// viewFollow opens the viewer on path, following it as it grows, until
// the user quits.
func viewFollow(ctx context.Context, app *App, path, title string, plumbing ui.Options) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return usageError("%s: --follow needs a file, not a directory", path)
	}
	errs := &streamErrors{}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	opts := plumbing
	opts.Title = title
	opts.Stream = followStream(ctx, app, path, errs)
	opts.Analysis = ui.DefaultAnalysis()
	opts.Theme, opts.NoColor, opts.Export = app.Theme, app.NoColor, viewerExport()
	opts.Live = true
	err := ui.Run(ctx, opts)
	cancel()
	if err != nil {
		return err
	}
	return app.finish(errs.take(), 0)
}
