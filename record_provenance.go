package main

import (
	"fmt"
	"os"

	"github.com/wirelens/wirelens/assemble"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/provenance"
	"github.com/wirelens/wirelens/wire/scan"
)

// writeProvenanceRecord starts the capture at out with the provenance
// record of the child's working directory and HOME (provenance.RecordKey:
// paths, sizes and line hashes, never the text), so that every later
// command judges the capture by provenance with no workspace on disk. A
// capture that already holds exchanges (record appends) gets none: the
// record is only ever a first line. Nothing is written through a link.
// created reports that the file was made here (the caller removes it when
// the capture does not start).
func writeProvenanceRecord(app *App, out, dir, home string) (created bool) {
	exists := false
	if st, err := os.Lstat(out); err == nil {
		if !st.Mode().IsRegular() || st.Size() > 0 {
			return false
		}
		exists = true
	}
	x, err := provenance.Build(dir, provenance.Options{Skip: assemble.Ignorer(dir), Home: home})
	if err != nil {
		fmt.Fprintf(app.Stderr, "wirelens: note: no provenance record: %s\n", scan.VisibleLine(err.Error()))
		return false
	}
	for _, n := range x.Notes {
		fmt.Fprintf(app.Stderr, "wirelens: note: %s\n", scan.VisibleLine(n))
	}
	var f *os.File
	if exists {
		// An empty file that is there: opened as every output is
		// (wire.CreateOutput: no link swapped in since, no other hard
		// link), and written only if it is still empty.
		f, err = wire.CreateOutput(out, true)
		if err == nil {
			if st, serr := f.Stat(); serr != nil || st.Size() > 0 {
				f.Close()
				return false
			}
		}
	} else {
		// O_EXCL: made here, and never through a link.
		f, err = os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	}
	if err != nil {
		return false // made meanwhile, or not writable: the recorder says why
	}
	defer f.Close()
	if _, err := f.Write(x.Record()); err != nil {
		fmt.Fprintf(app.Stderr, "wirelens: note: %s: provenance record not written: %s\n", scan.VisibleLine(out), describeCreateError(err))
	}
	return !exists
}
