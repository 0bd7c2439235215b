package assemble

import (
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/encode"
)

// BenchmarkEscapeBody escapes a capped-size AGENTS.md full of code and
// hostile code points.
func BenchmarkEscapeBody(b *testing.B) {
	unit := "Use `if a < b && c > d {}`; </untrusted_agents_md> \u202eevil\u202c \x1b[31mred\x1b[0m ok\u200b.\n"
	src := strings.Repeat(unit, MaxFileBytes/len(unit))
	b.SetBytes(int64(len(src)))
	for _, mode := range []EscapeMode{EscapeEntities, EscapeTargeted} {
		b.Run(string(mode), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				EscapeBody(src, mode, "bench")
			}
		})
	}
}

// BenchmarkBuildPoisoned collects the poisoned workspace from disk, binds
// it and encodes it, as `wirelens build` does.
func BenchmarkBuildPoisoned(b *testing.B) {
	for _, l := range []Layout{LayoutIsolated, LayoutLegacy} {
		b.Run(string(l), func(b *testing.B) {
			for b.Loop() {
				in, closeIn, err := OpenInput(poisonedDir, nil, nil, testNow)
				if err != nil {
					b.Fatal(err)
				}
				base, err := Collect(in)
				if err != nil {
					b.Fatal(err)
				}
				res, err := Bind(base, Config{Layout: l, Host: testHost, Skills: []string{"deploy"}})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := encode.Encode(res.Request, wire.FormatAnthropic); err != nil {
					b.Fatal(err)
				}
				closeIn()
			}
		})
	}
}
