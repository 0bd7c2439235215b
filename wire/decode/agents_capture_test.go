package decode

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
)

func TestExploreCaptures(t *testing.T) {
	for _, name := range []string{"claude-code", "codex", "gemini-cli"} {
		f, err := os.Open(filepath.Join("..", "..", "testdata", "agents", name+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for r, err := range Decode(f, Options{Source: name}) {
			if err != nil {
				t.Errorf("%v", err)
				continue
			}
			for _, s := range r.Segments {
				txt := s.Text
				mark := ""
				for _, m := range []string{"WL-", "wl-deploy", "POISONED", "master", "workspace", "Contents of"} {
					if strings.Contains(txt, m) {
						mark += m + " "
					}
				}
				if mark != "" || s.Trust == wire.Untrusted {
					t.Logf("%s@%d %s %s %s %s [%s] %q", name, r.Index, s.ID, s.Kind, s.Trust, s.Label, mark, txt[:min(len(txt), 160)])
				}
			}
		}
		f.Close()
	}
}
