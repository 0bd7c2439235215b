package decode

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/scan"
)

// byteTrust is, per request, the trust of each byte of its segments' texts
// in wire order, and the texts themselves.
func byteTrust(reqs []wire.Request) (texts []string, trusts [][]wire.Trust) {
	for _, r := range reqs {
		var b strings.Builder
		var tr []wire.Trust
		for _, s := range r.Segments {
			b.WriteString(s.Text)
			for range len(s.Text) {
				tr = append(tr, s.Trust)
			}
		}
		texts = append(texts, b.String())
		trusts = append(trusts, tr)
	}
	return texts, trusts
}

// trustDiffs lists the runs of bytes whose trust differs between a and b
// (the same requests judged two ways), each with its text.
func trustDiffs(texts []string, a, b [][]wire.Trust) []string {
	var out []string
	for i := range texts {
		t := texts[i]
		for k := 0; k < len(t); {
			if a[i][k] == b[i][k] {
				k++
				continue
			}
			e := k
			for e < len(t) && a[i][e] == a[i][k] && b[i][e] == b[i][k] {
				e++
			}
			out = append(out, fmt.Sprintf("@%d [%d,%d) %s without, %s with: %s", i+1, k, e, a[i][k], b[i][k], scan.VisibleLine(clipMid(t[k:e], 160))))
			k = e
		}
	}
	return out
}

// clipMid keeps the start and the end of a long text.
func clipMid(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n/2], "") + " … " + strings.ToValidUTF8(s[len(s)-n/2:], "")
}

// TestAgentCapturesTrustWithoutWorkspace: on every capture (poisoned,
// tag-less, clean), the trust of every byte judged by the layouts alone is
// the trust provenance gives it: the framings end where the host's text
// resumes.
func TestAgentCapturesTrustWithoutWorkspace(t *testing.T) {
	for _, name := range agentCaptures(t) {
		for _, v := range []struct{ suffix, ws string }{{"", "workspace"}, {"-notags", "workspace-notags"}, {"-clean", "workspace-clean"}} {
			capture := name + v.suffix
			if _, err := os.Stat(filepath.Join(*agentsRoot, capture+".jsonl")); err != nil {
				continue
			}
			t.Run(capture, func(t *testing.T) {
				texts, with := byteTrust(decodeWith(t, capture, indexOf(t, v.ws)))
				texts2, without := byteTrust(decodeWith(t, capture, nil))
				for i := range texts {
					if texts[i] != texts2[i] {
						t.Fatalf("@%d: the segments' texts differ with and without the index", i+1)
					}
				}
				for _, d := range trustDiffs(texts, without, with) {
					t.Error(d)
				}
			})
		}
	}
}

// TestQwenCaptureSkillsByLocation: qwen-code escapes its skill entries, so
// without a workspace each skill of its list is judged by its own location:
// the bundled skills listed after the workspace's wl-deploy are the host's.
func TestQwenCaptureSkillsByLocation(t *testing.T) {
	for _, capture := range []string{"qwen-code", "qwen-code-notags", "qwen-code-clean"} {
		t.Run(capture, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(*agentsRoot, capture+".jsonl")); err != nil {
				t.Skip("not kept")
			}
			for _, r := range decodeWith(t, capture, nil) {
				workspace, after, n := 0, 0, 0
				for _, s := range r.Segments {
					if s.Kind != wire.KindSkillsListing {
						continue
					}
					n++
					switch {
					case strings.HasSuffix(s.Label, " (built-in)"):
						if s.Trust != wire.Trusted {
							t.Errorf("@%d %s %s is %s", r.Index, s.ID, s.Label, s.Trust)
						}
						if workspace > 0 {
							after++
						}
					case s.Label == "skill wl-deploy (workspace)":
						workspace++
						if s.Trust != wire.Untrusted {
							t.Errorf("@%d %s %s is %s", r.Index, s.ID, s.Label, s.Trust)
						}
					default:
						t.Errorf("@%d %s: label %q", r.Index, s.ID, s.Label)
					}
				}
				if n == 0 {
					continue // the memory subagent's request lists no skills
				}
				if workspace != 1 || after < 2 {
					t.Errorf("@%d: %d workspace skills, %d built-in ones after it", r.Index, workspace, after)
				}
			}
		})
	}
}
