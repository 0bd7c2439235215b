package diff

import (
	"testing"

	"github.com/wirelens/wirelens/wire"
)

func TestNewAuditorFindsVolatileInPrefix(t *testing.T) {
	b := &wire.Builder{Req: &wire.Request{Source: "t.json", Index: 1}, In: wire.NewInterner()}
	b.Add(wire.Part{ID: "system[0]", Channel: wire.ChannelSystem, Role: "system", Type: "text",
		Text: "You are a coding agent.\nRequest id 3f2a9c1e-7d1e-4b2a-9c4f-4e8e9a516b2d.\n"})
	b.Add(wire.Part{ID: "messages[0]", Channel: wire.ChannelMessages, Role: "user", Type: "text", Text: "hi"})
	var got []wire.Finding
	for _, f := range NewAuditor().Audit(b.Req) {
		if f.Rule == wire.RuleVolatileInPrefix {
			got = append(got, f)
		}
	}
	if len(got) != 1 || got[0].Segment != "system[0]" {
		t.Fatalf("volatile-in-prefix findings %+v, want one in system[0]", got)
	}
	if wire.NewAuditor().FindVolatile != nil {
		t.Fatal("wire's own auditor has a finder: this constructor would be pointless")
	}
	vs := AuditVolatile("at 2026-11-29T22:08:44Z")
	if len(vs) != 1 || vs[0].Kind != string(VolatileTimestamp) || vs[0].Start != 3 {
		t.Fatalf("AuditVolatile = %+v", vs)
	}
}
