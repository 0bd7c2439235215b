package decode

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/audit"
	"github.com/wirelens/wirelens/wire/provenance"
)

// The done-when of issue 21, on every capture of testdata/agents (the
// agents' poisoned workspace in workspace/, its HOME in home/ when kept, and
// the captures of the clean workspace and of the poisoned one with its tags
// removed beside them as NAME-clean.jsonl and NAME-notags.jsonl when kept).
// -agents DIR runs them on another folder laid out the same way.
var agentsRoot = flag.String("agents", agentsDir, "the folder of agent captures (testdata/agents)")

// agentCaptures are the poisoned captures of the folder (not those of the
// clean, tag-less or bare workspaces: TestCheckOnBareAgentCaptures in the
// root package judges the bare ones).
func agentCaptures(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(*agentsRoot, "*.jsonl"))
	if err != nil || len(m) == 0 {
		t.Fatalf("no capture in %s", *agentsRoot)
	}
	var out []string
	for _, p := range m {
		name := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		if !strings.HasSuffix(name, "-clean") && !strings.HasSuffix(name, "-notags") && !strings.HasSuffix(name, "-bare") {
			out = append(out, name)
		}
	}
	return out
}

// fileLines are the lines of the text files under dir that are evidence
// of where text came from: 16 bytes or more, not a lone tag or rule.
func fileLines(t *testing.T, dir string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	if _, err := os.Stat(dir); err != nil {
		return out
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		for _, l := range strings.Split(string(b), "\n") {
			l = strings.TrimSpace(l)
			if len(l) >= 16 && !strings.HasPrefix(l, "<") && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "\"") && !strings.HasPrefix(l, "description:") {
				out[l] = append(out[l], filepath.ToSlash(rel))
			}
		}
		return nil
	})
	return out
}

// decodeWith decodes a capture of the folder, judged by x (nil: none).
func decodeWith(t *testing.T, name string, x *provenance.Index) []wire.Request {
	t.Helper()
	f, err := os.Open(filepath.Join(*agentsRoot, name+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var reqs []wire.Request
	for r, err := range Decode(f, Options{Source: name, Provenance: x}) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		reqs = append(reqs, r)
	}
	return reqs
}

// indexOf indexes a workspace of the folder and its HOME.
func indexOf(t *testing.T, ws string) *provenance.Index {
	t.Helper()
	home := filepath.Join(*agentsRoot, "home")
	if _, err := os.Stat(home); err != nil {
		home = ""
	}
	x, err := provenance.Build(filepath.Join(*agentsRoot, ws), provenance.Options{Home: home})
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// hostOnly is text only hosts write: no untrusted segment holds it, with
// provenance or without (a framing with no closer ends before the host's
// lead-in: TestAgentCapturesTrustWithoutWorkspace compares every byte).
var hostOnly = append(slices.Clone(hostFraming), "Instructions from:", "## user-rules", "<available_skills>", "Skills provide specialized instructions",
	"**Workspace Directories:**", "Showing up to 200 items", "--- project-doc ---", "The following skills provide specialized instructions")

// TestAgentCapturesByProvenance: with and without the workspace's index,
// every workspace line on the wire is untrusted and labelled (a HOME file's
// trust user), no host tag raises a breakout, no hazard is reported twice
// in one request, and no host text is untrusted.
func TestAgentCapturesByProvenance(t *testing.T) {
	wsLines := fileLines(t, filepath.Join(*agentsRoot, "workspace"))
	homeLines := fileLines(t, filepath.Join(*agentsRoot, "home"))
	x := indexOf(t, "workspace")
	for _, name := range agentCaptures(t) {
		for _, withIndex := range []bool{true, false} {
			var idx *provenance.Index
			mode := "layouts"
			if withIndex {
				idx, mode = x, "provenance"
			}
			t.Run(name+"/"+mode, func(t *testing.T) {
				reqs := decodeWith(t, name, idx)
				seen := 0
				high := 0
				for _, r := range reqs {
					for _, s := range r.Segments {
						if s.Kind == wire.KindToolSchema || s.Kind == wire.KindToolResult || s.Kind == wire.KindToolCall {
							continue
						}
						for l, file := range wsLines {
							if strings.Contains(s.Text, l) {
								seen++
								if s.Trust != wire.Untrusted || s.Label == "" {
									t.Errorf("@%d %s (%s %s, label %q) holds %s's line %q", r.Index, s.ID, s.Trust, s.Kind, s.Label, file, l)
								}
								if withIndex && !slices.ContainsFunc(file, func(f string) bool { return strings.HasSuffix(s.Label, f) }) && !strings.HasPrefix(s.Label, "skill ") && s.Label != "workspace listing" {
									t.Errorf("@%d %s: label %q, want %s", r.Index, s.ID, s.Label, file)
								}
							}
						}
						for l, file := range homeLines {
							if strings.Contains(s.Text, l) && s.Trust != wire.TrustUser && (withIndex || s.Trust != wire.Untrusted) {
								t.Errorf("@%d %s (%s %s) holds HOME's %s line %q", r.Index, s.ID, s.Trust, s.Kind, file, l)
							}
						}
						if s.Trust == wire.Untrusted {
							for _, h := range hostOnly {
								if strings.Contains(s.Text, h) {
									t.Errorf("@%d %s: untrusted %s segment holds host text %q", r.Index, s.ID, s.Kind, h)
								}
							}
						}
					}
					type at struct {
						seg, rule string
						off       int
					}
					once := map[at]bool{}
					findings := audit.Audit(&r)
					// Each planted bidi control and tag run that reached the
					// wire is reported, whatever the trust of its text.
					for _, s := range r.Segments {
						if s.Trust == wire.TrustModel {
							continue
						}
						for _, plant := range []struct{ text, rule string }{{"\u202e", audit.RuleBidiControl}, {"\U000e0049", audit.RuleTagSmuggling}} {
							if k := strings.Index(s.Text, plant.text); k >= 0 && !slices.ContainsFunc(findings, func(f audit.Finding) bool {
								return f.Segment == s.ID && f.Rule == plant.rule && f.Offset == k
							}) {
								t.Errorf("@%d %s (%s): the planted %s at %d is not reported", r.Index, s.ID, s.Trust, plant.rule, k)
							}
						}
					}
					for _, f := range findings {
						if f.Severity == audit.SeverityHigh {
							high++
						}
						k := at{f.Segment, f.Rule, f.Offset}
						if once[k] {
							t.Errorf("@%d %s: %s at %d reported twice", r.Index, f.Segment, f.Rule, f.Offset)
						}
						once[k] = true
						if f.Rule == audit.RuleEnvelopeBreakout {
							i := slices.IndexFunc(r.Segments, func(s wire.Segment) bool { return s.ID == f.Segment })
							if i < 0 || r.Segments[i].Trust == wire.Trusted {
								t.Errorf("@%d %s: a breakout in host text: %s", r.Index, f.Segment, f.Message)
							}
						}
					}
				}
				if seen == 0 {
					t.Errorf("no workspace line on the wire")
				}
				if high == 0 {
					t.Errorf("no high finding on the poisoned workspace: check would exit 0")
				}
			})
		}
	}
}

// hazardRules are the rules a planted hazard raises.
var hazardRules = []string{audit.RuleBidiControl, audit.RuleTagSmuggling, audit.RuleInvisibleChar, audit.RuleControlChar,
	audit.RuleEnvelopeBreakout, audit.RuleAuthoritySpoof, audit.RuleConfusableTag}

// TestAgentCapturesCleanAndWithoutTags: the capture of the clean workspace
// raises no hazard, and the capture of the poisoned workspace with its tags
// removed gets the same trust map as the poisoned one (the trust of each
// stretch of text, in order), by provenance.
func TestAgentCapturesCleanAndWithoutTags(t *testing.T) {
	for _, name := range agentCaptures(t) {
		t.Run(name, func(t *testing.T) {
			if _, err := os.Stat(filepath.Join(*agentsRoot, name+"-clean.jsonl")); err != nil {
				t.Skip("no clean capture kept")
			}
			for _, r := range decodeWith(t, name+"-clean", indexOf(t, "workspace-clean")) {
				for _, f := range audit.Audit(&r) {
					if slices.Contains(hazardRules, f.Rule) {
						t.Errorf("clean @%d %s: %s %s", r.Index, f.Segment, f.Rule, f.Message)
					}
				}
			}
			if _, err := os.Stat(filepath.Join(*agentsRoot, name+"-notags.jsonl")); err != nil {
				return
			}
			got := trustMap(decodeWith(t, name+"-notags", indexOf(t, "workspace-notags")))
			want := trustMap(decodeWith(t, name, indexOf(t, "workspace")))
			if !slices.Equal(got, want) {
				t.Errorf("trust map without the tags:\n%s\nwith them:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// trustMap is each request's run of (channel, trust, kind, label) over its
// segments, neighbours that agree merged: the map a reader sees, whatever
// the segments' sizes.
func trustMap(reqs []wire.Request) []string {
	var out []string
	for _, r := range reqs {
		prev := ""
		for _, s := range r.Segments {
			if s.Kind == wire.KindToolSchema {
				continue
			}
			// The folder the capture ran in is named for its variant.
			label := strings.NewReplacer("workspace-notags", "workspace", "workspace-clean", "workspace").Replace(s.Label)
			k := string(s.Channel) + " " + string(s.Trust) + " " + string(s.Kind) + " " + label
			if k != prev {
				out = append(out, k)
				prev = k
			}
		}
		out = append(out, "--")
	}
	return out
}
