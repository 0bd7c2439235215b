package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

func init() { register(newGenFolderCmd) }

// newGenFolderCmd is the hidden generator of folders of real transcripts
// used by .ci/bench-folder.sh and the batch benchmarks.
func newGenFolderCmd(app *App) *cobra.Command {
	var (
		files int
		seed  int64
		from  string
	)
	cmd := &cobra.Command{
		Use:    "gen-folder [--files N] [--seed S] [--from TESTDATA] DIR",
		Short:  "Write a folder of N Claude Code and Codex transcripts made from the real ones in testdata",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if files < 1 {
				return usageError("--files must be at least 1")
			}
			srcs, err := folderSources(from)
			if err != nil {
				return err
			}
			f, err := encode.GenerateFolder(args[0], srcs, files, seed)
			if err != nil {
				return err
			}
			fmt.Fprintf(app.Stdout, "%d files, %d bytes\n", len(f.Files), f.Bytes)
			return nil
		},
	}
	cmd.Flags().IntVar(&files, "files", 1000, "number of transcripts")
	cmd.Flags().Int64Var(&seed, "seed", 1, "seed of the lengths and ids")
	cmd.Flags().StringVar(&from, "from", "testdata", "the repository's testdata folder")
	return cmd
}

// folderSources reads the real Claude Code transcripts and Codex rollouts
// of the testdata folder (gzipped ones uncompressed).
func folderSources(testdata string) ([]encode.FolderSource, error) {
	var out []encode.FolderSource
	for _, g := range []struct{ format, pattern string }{
		{"claude-code", "claude-code-transcripts/*.jsonl*"},
		{"claude-code", "recordings/claude-code/*/*.jsonl"},
		{"codex", "codex-rollouts/*/*/rollout-*.jsonl"},
		{"codex", "recordings/codex/*/*/*/rollout-*.jsonl"},
	} {
		paths, err := filepath.Glob(filepath.Join(testdata, g.pattern))
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			name := filepath.Base(p)
			if !strings.HasSuffix(name, ".jsonl") && !strings.HasSuffix(name, ".jsonl.gz") {
				continue
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			if n, ok := strings.CutSuffix(name, ".gz"); ok {
				zr, err := gzip.NewReader(bytes.NewReader(b))
				if err != nil {
					return nil, fmt.Errorf("%s: %v", p, err)
				}
				if b, err = io.ReadAll(zr); err != nil {
					return nil, fmt.Errorf("%s: %v", p, err)
				}
				name = n
			}
			out = append(out, encode.FolderSource{Format: g.format, Name: name, Data: b})
		}
	}
	if len(out) == 0 {
		return nil, usageError("--from %s: no transcripts found (give the repository's testdata folder)", testdata)
	}
	return out, nil
}
