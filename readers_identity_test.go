package main

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestReadersOutputKept: what check and cache print over every fixture in
// testdata and over a generated folder of transcripts, hashed, is what it
// was when the golden was made (before the recording readers read content
// blocks in one pass and shared their texts across files): a change to the
// readers that changes one byte of any report shows here. The folder's
// path is replaced by DIR. Regenerate with -update only for a change of
// output that is meant.
func TestReadersOutputKept(t *testing.T) {
	fixtures := fixtureInputs(t)
	folder, _ := genFolder(t, 120, 3)
	var b strings.Builder
	for _, in := range []struct {
		name string
		args []string
	}{{"fixtures", fixtures}, {"folder", []string{folder}}} {
		for _, cmd := range [][]string{{"check", "--json"}, {"check", "--every-request", "--json"}, {"cache", "--json"}} {
			code, out, errs := runWorkers(0, append(append([]string(nil), cmd...), in.args...)...)
			if len(out) < 1000 {
				t.Fatalf("%s %s printed %d bytes", strings.Join(cmd, " "), in.name, len(out))
			}
			out, errs = strings.ReplaceAll(out, folder, "DIR"), strings.ReplaceAll(errs, folder, "DIR")
			fmt.Fprintf(&b, "%s %s: exit %d, stdout %d bytes %x, stderr %d bytes %x\n", strings.Join(cmd, " "), in.name,
				code, len(out), sha256.Sum256([]byte(out)), len(errs), sha256.Sum256([]byte(errs)))
		}
	}
	golden.RequireEqual(t, []byte(b.String()))
}
