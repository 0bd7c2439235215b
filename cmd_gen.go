package main

import (
	"fmt"
	"runtime"
	"time"

	"github.com/spf13/cobra"

	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/encode"
)

func init() { register(newGenSessionCmd) }

// newGenSessionCmd is the hidden generator of long synthetic sessions used by
// the benchmarks and .ci/bench-vs-jq.sh.
func newGenSessionCmd(app *App) *cobra.Command {
	var (
		requests int
		seed     int64
		decode   string
	)
	cmd := &cobra.Command{
		Use:    "gen-session [--requests N] [--seed S] | --decode FILE",
		Short:  "Write a synthetic Anthropic JSONL session of N growing requests to standard output",
		Hidden: true,
		Args:   noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if decode != "" {
				return decodeTimed(app, decode)
			}
			if requests < 1 {
				return usageError("--requests must be at least 1")
			}
			return encode.GenerateSession(app.Stdout, requests, seed)
		},
	}
	cmd.Flags().IntVar(&requests, "requests", 300, "number of requests (300 gives about 80 MB)")
	cmd.Flags().Int64Var(&seed, "seed", 1, "seed of the generated text")
	cmd.Flags().StringVar(&decode, "decode", "", "decode FILE instead, streaming, and print what it held and how fast")
	return cmd
}

// decodeTimed decodes a file request by request, keeping nothing but the
// interned text, and prints counts and speed.
func decodeTimed(app *App, path string) error {
	start := time.Now()
	var (
		reqs, segs int
		size       int64
		errs       []error
	)
	opts := app.decodeOptions(path)
	for r, err := range decode.Path(path, opts) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		reqs++
		segs += len(r.Segments)
		size = r.Offset + r.Length
	}
	el := time.Since(start)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(app.Stdout, "%d requests, %d segments, %d distinct texts (%d bytes) in %.1f MB: %.3f s, %.0f MB/s, heap in use %.1f MB\n",
		reqs, segs, app.In.Len(), app.In.Bytes, float64(size)/1e6, el.Seconds(), float64(size)/1e6/el.Seconds(),
		float64(ms.HeapInuse)/1e6)
	return app.finish(errs, 0)
}
