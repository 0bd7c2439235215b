package main

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// listedPackage is what the architecture test reads of `go list -json`.
type listedPackage struct {
	ImportPath string
	Dir        string
	Doc        string
	GoFiles    []string
	Imports    []string
	Deps       []string
	TestImports,
	XTestImports []string
}

// goList runs `go list -json` with args and decodes the packages it prints.
func goList(t *testing.T, args ...string) []listedPackage {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	var pkgs []listedPackage
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatalf("go list %v listed no package", args)
	}
	return pkgs
}

const module = "github.com/wirelens/wirelens"

// TestArchitecture holds the package map of the README's "How it is built":
// the wire model and its readers know nothing of the analysis, the workspace
// builder or the viewer; nothing below the viewer draws with Bubble Tea or
// Lip Gloss; diff compares requests without building them; every package says
// in its doc comment what it is for, and none grows past about 4,000 lines
// (the commands, a file each, are held per file).
func TestArchitecture(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	tui := []string{"charm.land/bubbletea", "charm.land/lipgloss", "charm.land/bubbles", "github.com/charmbracelet/bubbletea", "github.com/charmbracelet/lipgloss"}
	forbidden := map[string][]string{
		"wire":     append([]string{module + "/ui", module + "/diff", module + "/assemble", module + "/themes"}, tui...),
		"diff":     append([]string{module + "/ui", module + "/assemble", module + "/themes"}, tui...),
		"assemble": append([]string{module + "/ui", module + "/diff", module + "/themes"}, tui...),
	}
	reaches := func(deps []string, bad string) bool {
		for _, d := range deps {
			if d == bad || strings.HasPrefix(d, bad+"/") {
				return true
			}
		}
		return false
	}
	seen := map[string]bool{}
	for _, p := range goList(t, "./...") {
		rel := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		top, _, _ := strings.Cut(rel, "/")
		if rules, ok := forbidden[top]; ok {
			seen[top] = true
			// The package's own dependencies, then what its tests import.
			deps := append(append([]string{}, p.Deps...), p.TestImports...)
			deps = append(deps, p.XTestImports...)
			for _, bad := range rules {
				if reaches(deps, bad) {
					t.Errorf("%s reaches %s", p.ImportPath, bad)
				}
			}
		}
		if strings.TrimSpace(p.Doc) == "" {
			t.Errorf("%s has no package doc comment", p.ImportPath)
		}
		if p.ImportPath == module {
			// The root package is the commands of CONTRACT.md and their
			// report writers (DESIGN.md), a file a command: it grows with
			// the commands, so each file is held small instead, and the
			// whole under twice a library's size.
			for _, f := range p.GoFiles {
				if n := fileLines(t, filepath.Join(p.Dir, f)); n > 1000 {
					t.Errorf("%s has %d lines of non-test code; move what is not the command into a package", f, n)
				}
			}
			if n := codeLines(t, p); n > 8400 {
				t.Errorf("the commands have %d lines of non-test code; move their analysis into packages", n)
			}
		} else if n := codeLines(t, p); n > 4200 {
			t.Errorf("%s has %d lines of non-test code; split it by what its parts do", p.ImportPath, n)
		}
	}
	for top := range forbidden {
		if !seen[top] {
			t.Errorf("go list found no package under %s/", top)
		}
	}
}

// codeLines counts the lines of a package's non-test Go files.
func codeLines(t *testing.T, p listedPackage) int {
	t.Helper()
	n := 0
	for _, f := range p.GoFiles {
		n += fileLines(t, filepath.Join(p.Dir, f))
	}
	return n
}

// fileLines counts the lines of one file.
func fileLines(t *testing.T, path string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// TestNoPrefixNamespaces: no function or type is named with a prefix that
// stands in for a package (the names the split replaced: decAnthropicBlock,
// clsCut, recKCRecord, volUUID, auditClip, uiBox, ...).
func TestNoPrefixNamespaces(t *testing.T) {
	prefixes := []string{"dec", "rec", "cls", "tags", "enc", "vol", "tok", "ui", "coll"}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		check := func(kind, name string) {
			for _, pre := range prefixes {
				if len(name) > len(pre) && strings.HasPrefix(name, pre) && name[len(pre)] >= 'A' && name[len(pre)] <= 'Z' &&
					!allowedPrefixName[name] {
					t.Errorf("%s: %s %s is named with the prefix %q standing in for a package", path, kind, name, pre)
				}
			}
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil {
					check("func", decl.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					if ts, ok := spec.(*ast.TypeSpec); ok {
						check("type", ts.Name.Name)
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// allowedPrefixName are names that start like a prefix but say what they do
// (a verb or a noun of their own, not a namespace).
var allowedPrefixName = map[string]bool{
	"envPieces": true, // the pieces of an envelope
}
