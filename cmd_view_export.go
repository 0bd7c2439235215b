package main

import (
	"bufio"
	"io"
	"sync"

	"github.com/wirelens/wirelens/ui/act"
	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
)

// viewerExport is how the viewer's w writes: a request as `inspect --json
// --redact` writes it (a document of that one request, every secret in it
// masked), findings as `check --json` writes them.
func viewerExport() act.Export {
	return act.Export{Request: writeRequestExport, Findings: func(w io.Writer, fs []audit.Finding) error {
		return writeJSON(w, checkJSON{Findings: nonNil(fs), Summary: summarize(fs), Errors: errorsJSON(nil)})
	}}
}

// exportMu keeps two writes (the viewer's commands run apart) from sharing
// the buffer writeInspectRequestJSON reuses.
var exportMu sync.Mutex

// writeRequestExport writes r as `inspect --json --redact` writes a file
// of one request.
func writeRequestExport(w io.Writer, r *wire.Request) error {
	exportMu.Lock()
	defer exportMu.Unlock()
	bw := bufio.NewWriter(w)
	bw.WriteString("{\n  \"requests\": [")
	if err := writeInspectRequestJSON(bw, r, false, true); err != nil {
		return err
	}
	bw.WriteString("\n  ],\n  \"errors\": []\n}\n")
	return bw.Flush()
}
