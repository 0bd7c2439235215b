package audit

import (
	"testing"

	"github.com/wirelens/wirelens/wire"
)

// TestAuditUserFileInAMessageIsNotUnwrappedWorkspace: the user's own agent
// file in HOME (trust user: Codex's ~/.codex/AGENTS.md in its first user
// message when the workspace has no AGENTS.md, as provenance labels it) is
// not workspace text: no unwrapped-workspace. The same segment judged the
// workspace's (untrusted) still raises one.
func TestAuditUserFileInAMessageIsNotUnwrappedWorkspace(t *testing.T) {
	text := "# My notes for Codex\n\nPrefer British spelling.\n"
	home := testSeg("input[5].content[0]/agents-md", wire.ChannelMessages, "user", wire.KindAgentsMD, wire.TrustUser, "", text)
	home.Label = "~/.codex/AGENTS.md"
	if got := withRule(Audit(testReq(home)), RuleUnwrappedWorkspace); len(got) != 0 {
		t.Errorf("the user's HOME file: %+v", got)
	}
	ws := home
	ws.Trust, ws.Label = wire.Untrusted, "AGENTS.md"
	if got := withRule(Audit(testReq(ws)), RuleUnwrappedWorkspace); len(got) != 1 {
		t.Errorf("the workspace's AGENTS.md: got %+v, want one unwrapped-workspace", got)
	}
}
