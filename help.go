package main

// The help of every command: plain text, written here rather than by a
// styling library, so that no line is padded with spaces, the command column
// is as wide as the longest command name, long flag help wraps under its own
// column, the text keeps the casing it was written with, and a global flag
// is listed only for the commands it does something for.

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// globalsAnnotation names, in a command's Annotations, the global flags that
// do something for it (space-separated). A command without it uses none.
const globalsAnnotation = "wirelens-globals"

// inputGlobals are the global flags of a command that reads recorded inputs;
// viewerGlobals those of a command that opens the viewer on them or
// colours its text on a terminal (check, diff).
const (
	inputGlobals  = "format"
	viewerGlobals = "format theme no-color"
	themeGlobals  = "theme no-color"
)

// usesGlobals marks cmd as using the named global flags (space-separated)
// and returns it.
func usesGlobals(cmd *cobra.Command, names string) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[globalsAnnotation] = names
	return cmd
}

// helpWidth is the width help is wrapped to: the terminal's when standard
// output is one, else $COLUMNS, else 80; never more than 100, so that
// paragraphs stay readable.
func helpWidth(w io.Writer) int {
	width := reportWidth(w)
	return min(max(width, 40), 100)
}

// writeHelp writes the help of cmd.
func writeHelp(w io.Writer, cmd *cobra.Command, width int) {
	var b strings.Builder
	text := strings.TrimSpace(cmd.Long)
	if text == "" {
		text = cmd.Short
	}
	if text != "" {
		b.WriteString(reflow(text, width) + "\n\n")
	}
	b.WriteString("Usage:\n")
	if cmd.Runnable() {
		for _, l := range wrapCommand("  "+useLine(cmd), width, "") {
			b.WriteString(l + "\n")
		}
	}
	if cmd.HasAvailableSubCommands() {
		b.WriteString("  " + cmd.CommandPath() + " COMMAND [flags]\n")
	}
	if ex := strings.TrimRight(cmd.Example, "\n "); ex != "" {
		b.WriteString("\nExamples:\n")
		for _, line := range strings.Split(ex, "\n") {
			for _, l := range wrapCommand(line, width, " \\") {
				b.WriteString(l + "\n")
			}
		}
	}
	if cmd.HasAvailableSubCommands() {
		b.WriteString("\nCommands:\n")
		var rows [][2]string
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				rows = append(rows, [2]string{sub.Name(), sub.Short})
			}
		}
		writeColumns(&b, rows, width)
	}
	own := flagRows(cmd.LocalNonPersistentFlags(), nil)
	if !cmd.HasParent() {
		own = append(own, flagRows(cmd.PersistentFlags(), nil)...)
	}
	for i, r := range own {
		if strings.HasSuffix(r[0], "--help") {
			own = append(append(own[:i:i], own[i+1:]...), r)
			break
		}
	}
	if len(own) > 0 {
		b.WriteString("\nFlags:\n")
		writeColumns(&b, own, width)
	}
	if g := globalRows(cmd); len(g) > 0 {
		b.WriteString("\nGlobal flags:\n")
		writeColumns(&b, g, width)
	}
	if cmd.HasAvailableSubCommands() {
		b.WriteString("\nRun \"" + cmd.CommandPath() + " COMMAND --help\" for the help of a command.\n")
	}
	io.WriteString(w, b.String())
}

// useLine is the usage line of cmd: its full path and Use, with "[flags]"
// when it has flags and its Use names none.
func useLine(cmd *cobra.Command) string {
	line := cmd.Use
	if cmd.HasParent() {
		line = cmd.Parent().CommandPath() + " " + line
	}
	if cmd.HasAvailableFlags() && !strings.Contains(line, "[flags]") && !strings.Contains(line, "[--") {
		line += " [flags]"
	}
	return line
}

// flagRows are the rows of the flags of set that are not hidden, with only
// the ones named in keep when keep is set.
func flagRows(set *pflag.FlagSet, keep map[string]bool) [][2]string {
	var rows [][2]string
	set.VisitAll(func(f *pflag.Flag) {
		if !f.Hidden && (keep == nil || keep[f.Name]) {
			rows = append(rows, flagRow(f))
		}
	})
	return rows
}

// globalRows are the rows of the global flags that do something for cmd
// (the root's persistent flags named by its annotation); help is listed
// with the command's own flags.
func globalRows(cmd *cobra.Command) [][2]string {
	if !cmd.HasParent() {
		return nil
	}
	keep := map[string]bool{}
	for _, n := range strings.Fields(cmd.Annotations[globalsAnnotation]) {
		keep[n] = true
	}
	if len(keep) == 0 {
		return nil
	}
	return flagRows(cmd.Root().PersistentFlags(), keep)
}

// valueNames name the value of each flag that takes one, in its help.
var valueNames = map[string]string{
	"format": "NAME", "theme": "THEME", "layout": "LAYOUT", "api": "API", "now": "TIME",
	"add-dir": "DIR", "skills-dir": "DIR", "system": "FILE", "message": "TEXT", "model": "NAME",
	"escape": "HOW", "skill": "NAME", "fail-on": "SEV", "workspace": "DIR", "before": "FILE",
	"after": "FILE", "decode": "FILE", "requests": "N", "seed": "S",
}

// flagRow is a flag's two columns: "-h, --help" or "    --json" with its
// value's name, and its usage with the default when it has one.
func flagRow(f *pflag.Flag) [2]string {
	name, usage := pflag.UnquoteUsage(f)
	left := "    --" + f.Name
	if f.Shorthand != "" {
		left = "-" + f.Shorthand + ", --" + f.Name
	}
	switch {
	case name == "" || name == "bool":
	case valueNames[f.Name] != "":
		left += " " + valueNames[f.Name]
	case name == "string" || name == "stringArray":
		left += " VALUE"
	default:
		left += " " + strings.ToUpper(name)
	}
	if d := f.DefValue; d != "" && d != "false" && d != "[]" && d != "0" && !strings.Contains(usage, "default") {
		if f.Value.Type() == "string" {
			d = strconv.Quote(d)
		}
		usage += " (default " + d + ")"
	}
	return [2]string{left, usage}
}

// writeColumns writes two-column rows indented by two spaces: the first
// column as wide as its widest cell, the second wrapped at word boundaries
// to width, its wrapped lines under its own column.
func writeColumns(b *strings.Builder, rows [][2]string, width int) {
	left := 0
	for _, r := range rows {
		left = max(left, len(r[0]))
	}
	indent := 2 + left + 3
	for _, r := range rows {
		lines := wrapWords(r[1], max(width-indent, 24))
		b.WriteString("  " + r[0])
		if len(lines) == 0 {
			b.WriteByte('\n')
			continue
		}
		b.WriteString(strings.Repeat(" ", indent-2-len(r[0])) + lines[0] + "\n")
		for _, l := range lines[1:] {
			b.WriteString(strings.Repeat(" ", indent) + l + "\n")
		}
	}
}

// wrapWords wraps plain text to width at spaces; a word longer than width
// stays whole on its own line.
func wrapWords(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// reflow wraps a command's description to width: its paragraphs (blank
// lines between them) are written in the source at any width, each run of
// unindented lines is one paragraph wrapped at word boundaries, and each
// indented line starts an item ("  - text", or "  TERM  text" with two
// spaces or more after the term) whose text, with the more indented lines
// after it, is wrapped under the item's text, the term left in its column.
func reflow(text string, width int) string {
	var out []string
	for _, para := range strings.Split(text, "\n\n") {
		lines := strings.Split(strings.Trim(para, "\n"), "\n")
		var b []string
		for i := 0; i < len(lines); {
			if !indented(lines[i]) {
				j := i
				for j < len(lines) && !indented(lines[j]) {
					j++
				}
				b = append(b, wrapWords(strings.Join(lines[i:j], " "), width)...)
				i = j
				continue
			}
			head := lines[i]
			hang := itemText(head)
			words := []string{head[hang:]}
			i++
			for i < len(lines) && indent(lines[i]) > indent(head) {
				words = append(words, strings.TrimSpace(lines[i]))
				i++
			}
			b = append(b, wrapItem(head[:hang], strings.Join(words, " "), width)...)
		}
		out = append(out, strings.Join(b, "\n"))
	}
	return strings.Join(out, "\n\n")
}

func indented(l string) bool { return indent(l) > 0 }

func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " ")) }

// itemText is where the text of an indented item line starts: after "- "
// or "* ", after a term and two spaces or more, else after the indent.
func itemText(l string) int {
	at := indent(l)
	rest := l[at:]
	if strings.HasPrefix(rest, "- ") || strings.HasPrefix(rest, "* ") {
		return at + 2
	}
	if k := strings.Index(rest, "  "); k > 0 {
		return at + k + len(rest[k:]) - len(strings.TrimLeft(rest[k:], " "))
	}
	return at
}

// wrapItem wraps text to width under the column after prefix; a prefix
// that leaves too little room gets the text on the lines after it,
// indented by 4 more than the prefix's own indent.
func wrapItem(prefix, text string, width int) []string {
	hang := len([]rune(prefix))
	if width-hang < 24 {
		pad := strings.Repeat(" ", indent(prefix)+4)
		out := []string{strings.TrimRight(prefix, " ")}
		for _, l := range wrapWords(text, width-len(pad)) {
			out = append(out, pad+l)
		}
		return out
	}
	lines := wrapWords(text, width-hang)
	if len(lines) == 0 {
		return []string{strings.TrimRight(prefix, " ")}
	}
	out := []string{prefix + lines[0]}
	for _, l := range lines[1:] {
		out = append(out, strings.Repeat(" ", hang)+l)
	}
	return out
}

// wrapCommand wraps a command line to width at the blanks outside quotes
// and brackets ("[--format markdown|html]" stays whole),
// its lines after the first indented 4 more: a line ending in a pipe or
// "||" or "&&" goes on as it is, any other ends with cont (" \\" for a
// shell example to stay one command when pasted, "" for a usage line). A
// word longer than the line stays whole.
func wrapCommand(line string, width int, cont string) []string {
	if len([]rune(line)) <= width {
		return []string{line}
	}
	lead := strings.Repeat(" ", indent(line))
	var words []string
	quote, start, depth := rune(0), -1, 0
	for i, c := range line {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
			if start < 0 {
				start = i
			}
			continue
		case c == '[':
			depth++
		case c == ']':
			depth = max(depth-1, 0)
		case c == ' ' && depth == 0:
			if start >= 0 {
				words = append(words, line[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		words = append(words, line[start:])
	}
	var lines [][]string
	var cur []string
	used := len(lead)
	for _, w := range words {
		n := len([]rune(w))
		if len(cur) > 0 && used+1+n+len(cont) > width {
			// Break after a pipe near the end rather than before
			// the word after it.
			next := []string{}
			for k := len(cur) - 1; k >= 1 && k >= len(cur)-3; k-- {
				if pipe(cur[k]) {
					next = append(next, cur[k+1:]...)
					cur = cur[:k+1]
					break
				}
			}
			lines = append(lines, cur)
			cur = next
			used = len(lead) + 4 + len([]rune(strings.Join(cur, " ")))
		}
		if len(cur) > 0 {
			used++
		}
		cur = append(cur, w)
		used += n
	}
	lines = append(lines, cur)
	out := make([]string, len(lines))
	for i, l := range lines {
		text := strings.Join(l, " ")
		if i > 0 {
			text = "    " + text
		}
		if i < len(lines)-1 && !pipe(l[len(l)-1]) {
			text += cont
		}
		out[i] = lead + text
	}
	return out
}

func pipe(w string) bool { return w == "|" || w == "||" || w == "&&" }

// helpFunc is the help function of every command.
func helpFunc(cmd *cobra.Command, _ []string) {
	writeHelp(cmd.OutOrStdout(), cmd, helpWidth(cmd.OutOrStdout()))
}

// reportWidth is the width of a plain-text output on w: the terminal's when
// w is one, else $COLUMNS when it holds a width, else 80.
func reportWidth(w io.Writer) int {
	if n := tableWidth(w); n > 0 {
		return n
	}
	return defaultReportWidth
}

// tableWidth is the width a table on w must fit: the terminal's when w is
// one, else $COLUMNS when it is set, else 0 (no limit: piped output keeps
// one row a line).
func tableWidth(w io.Writer) int {
	if n := terminalWidth(w); n > 0 {
		return n
	}
	if n, err := strconv.Atoi(strings.TrimSpace(os.Getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	return 0
}

// defaultReportWidth is the width of a plain-text output when neither the
// terminal nor $COLUMNS tells it.
const defaultReportWidth = 80

// argsError is the usage error of a command given the wrong arguments: a
// sentence naming what is missing or too many.
func argsError(cmd *cobra.Command, format string, a ...any) error {
	return usageError("%s: %s (see %s --help)", cmd.Name(), fmt.Sprintf(format, a...), cmd.CommandPath())
}

// needInputs is the Args check of a command that reads FILE arguments: at
// least one, saying what one is when none was given.
func needInputs(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return argsError(cmd, "no FILE given: name a request file, a session, a recording or a directory of them, or - for standard input")
	}
	return nil
}

// noArgs is the Args check of a command that takes no argument.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return argsError(cmd, "takes no argument, but was given %s", quoteArgs(args))
	}
	return nil
}

// atMostOneDir is the Args check of a command that takes one workspace DIR
// or none.
func atMostOneDir(cmd *cobra.Command, args []string) error {
	if len(args) > 1 {
		return argsError(cmd, "takes one workspace DIR at most, but was given %d: %s", len(args), quoteArgs(args))
	}
	return nil
}

// quoteArgs lists arguments for an error message, visibly quoted.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = strconv.Quote(a)
	}
	return strings.Join(q, " ")
}

// twoRequests is the Args check of diff: the two requests A and B.
func twoRequests(cmd *cobra.Command, args []string) error {
	switch len(args) {
	case 0:
		return argsError(cmd, "no request given: name the two requests to compare, A and B (FILE or FILE@N)")
	case 1:
		return argsError(cmd, "only A given: name B too, the request to compare %s with (FILE or FILE@N)", strconv.Quote(args[0]))
	case 2:
		return nil
	}
	return argsError(cmd, "compares two requests, A and B, but was given %d: %s", len(args), quoteArgs(args))
}
