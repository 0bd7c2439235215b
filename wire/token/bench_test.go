package token

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wirelens/wirelens/wire/wiretest"
)

// BenchmarkLoad builds the rank table from the embedded vocabulary, what
// the first count of a process waits for.
func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		build(vocabBin)
	}
}

// benchTexts are about 1 MB each of prose (the README), Go code (the
// module's root package) and JSON (the payload fixtures).
func benchTexts(b *testing.B) map[string]string {
	root := filepath.Dir(wiretest.Testdata(b))
	read := func(glob string) string {
		names, _ := filepath.Glob(filepath.Join(root, glob))
		var sb strings.Builder
		for _, name := range names {
			raw, err := os.ReadFile(name)
			if err != nil {
				b.Fatal(err)
			}
			sb.Write(raw)
		}
		if sb.Len() == 0 {
			b.Fatalf("no %s", glob)
		}
		return strings.Repeat(sb.String(), 1+(1<<20)/sb.Len())
	}
	return map[string]string{
		"prose": read("README.md"),
		"code":  read("*.go"),
		"json":  read("testdata/payloads/*.json"),
	}
}

func BenchmarkCount(b *testing.B) {
	texts := benchTexts(b)
	Load()
	tk := oracle()
	for _, kind := range []string{"prose", "code", "json"} {
		text := texts[kind]
		b.Run(kind+"/ours", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Count(text)
			}
		})
		b.Run(kind+"/tiktoken", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := tk.Count(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
