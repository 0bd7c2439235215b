package render

import (
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// The three lexers wirelens highlights with, written here on chroma's core
// API rather than taken from its lexers package, whose init parses some 280
// embedded lexer definitions (14 ms and 31k allocations at every start of
// every command) for the three needed. Each is built on its first use.
//
// They colour what the views show the way chroma's own did, token for
// token on the texts of the fixtures (lex_oracle_test.go holds the
// comparison and the few deliberate differences), so the screens are
// unchanged. Unmatched input is chroma's Error token, one rune at a time,
// as before.
var (
	jsonLexer     = sync.OnceValue(func() chroma.Lexer { return newLexer("JSON", jsonRules) })
	xmlLexer      = sync.OnceValue(func() chroma.Lexer { return newLexer("XML", xmlRules) })
	markdownLexer = sync.OnceValue(func() chroma.Lexer { return newLexer("markdown", markdownRules) })
)

// lexerFor returns the lexer of a language GuessLang names, nil for any
// other.
func lexerFor(lang string) chroma.Lexer {
	switch lang {
	case "json":
		return jsonLexer()
	case "xml":
		return xmlLexer()
	case "markdown":
		return markdownLexer()
	}
	return nil
}

func newLexer(name string, rules func() chroma.Rules) chroma.Lexer {
	return chroma.MustNewLexer(&chroma.Config{Name: name}, rules)
}

// jsonString is a JSON string (RFC 8259 section 7), lenient as a viewer
// must be: any character but an unescaped quote, a line break included.
// It is written as runs of plain characters between escapes, not as one
// character or escape at a time: chroma's matcher (regexp2) keeps a
// backtracking entry per repetition of a group and gives up past 100,000
// slots, which the one-at-a-time form reached at some 33,000 characters
// (a system prompt of Gemini CLI's is longer), and this form only at some
// 30,000 escapes, at any length of the runs between them.
const jsonString = `"[^"\\]*(?:\\[\s\S][^"\\]*)*"`

// jsonRules follow the grammar of RFC 8259: values at the top, in arrays
// and after an object's names; names (coloured as tags) only where an
// object expects one. What does not fit where it stands is an Error.
func jsonRules() chroma.Rules {
	ws := chroma.Rule{Pattern: `\s+`, Type: chroma.Text}
	return chroma.Rules{
		"root": {ws, chroma.Include("value")},
		"value": {
			{Pattern: jsonString, Type: chroma.LiteralStringDouble},
			// number = [ minus ] int [ frac ] [ exp ]
			{Pattern: `-?\d+(?:\.\d+(?:[eE][+-]?\d+)?|[eE][+-]?\d+)`, Type: chroma.LiteralNumberFloat},
			{Pattern: `-?\d+`, Type: chroma.LiteralNumberInteger},
			{Pattern: `(?:true|false|null)\b`, Type: chroma.KeywordConstant},
			{Pattern: `\{`, Type: chroma.Punctuation, Mutator: chroma.Push("object")},
			{Pattern: `\[`, Type: chroma.Punctuation, Mutator: chroma.Push("array")},
		},
		"object": {
			ws,
			{Pattern: jsonString, Type: chroma.NameTag, Mutator: chroma.Push("member")},
			{Pattern: `\}`, Type: chroma.Punctuation, Mutator: chroma.Pop(1)},
		},
		// member is what follows a name: the separator and the value, up
		// to the comma that ends it or the brace that ends the object.
		"member": {
			ws,
			{Pattern: `:`, Type: chroma.Punctuation},
			chroma.Include("value"),
			{Pattern: `,`, Type: chroma.Punctuation, Mutator: chroma.Pop(1)},
			{Pattern: `\}`, Type: chroma.Punctuation, Mutator: chroma.Pop(2)},
		},
		"array": {
			ws,
			chroma.Include("value"),
			{Pattern: `,`, Type: chroma.Punctuation},
			{Pattern: `\]`, Type: chroma.Punctuation, Mutator: chroma.Pop(1)},
		},
	}
}

// xmlName is an XML 1.0 Name, widened to whatever a tag in a prompt
// envelope holds (names starting with a digit or a hyphen included).
const xmlName = `[\w:.-]+`

// xmlRules follow XML 1.0's productions: character data and references,
// comments, processing instructions, CDATA sections and declarations, end
// tags, and start tags with their attributes.
func xmlRules() chroma.Rules {
	return chroma.Rules{
		"root": {
			{Pattern: `[^<&]+`, Type: chroma.Text},
			{Pattern: `&(?:#[0-9]+|#x[0-9a-fA-F]+|` + xmlName + `);`, Type: chroma.NameEntity},
			{Pattern: `<!--[\s\S]*?-->`, Type: chroma.Comment},
			{Pattern: `<\?[\s\S]*?\?>`, Type: chroma.CommentPreproc},
			{Pattern: `<!\[CDATA\[[\s\S]*?\]\]>`, Type: chroma.CommentPreproc},
			{Pattern: `<![^>]*>`, Type: chroma.CommentPreproc},
			{Pattern: `<\s*/\s*` + xmlName + `\s*>`, Type: chroma.NameTag},
			{Pattern: `<\s*` + xmlName, Type: chroma.NameTag, Mutator: chroma.Push("tag")},
		},
		"tag": {
			{Pattern: `\s+`, Type: chroma.Text},
			{Pattern: xmlName + `\s*=`, Type: chroma.NameAttribute, Mutator: chroma.Push("value")},
			{Pattern: `/?>`, Type: chroma.NameTag, Mutator: chroma.Pop(1)},
		},
		"value": {
			{Pattern: `\s+`, Type: chroma.Text},
			{Pattern: `"[^"]*"|'[^']*'|[^\s>]+`, Type: chroma.LiteralString, Mutator: chroma.Pop(1)},
		},
	}
}

// markdownRules colour CommonMark's block starts (ATX headings, list
// items, block quotes, fenced code, whose contents stay plain) and its
// inline code spans, emphasis, links and HTML comments, with YAML front
// matter and @mentions and #tags as prompts use them.
//
// A list item's line is its own inline text, as a heading's and a block
// quote's are: its line break ends it, so the emphasis at the start of the
// next line has no white space to open after (chroma's lexer lexes the
// line on its own the same way), and nothing in it runs past its line.
func markdownRules() chroma.Rules {
	return chroma.Rules{
		"root": {
			{Pattern: `\A(---)(\n[\s\S]*?\n)(---)$`, Type: chroma.ByGroups(chroma.NameNamespace, chroma.UsingSelf("yaml"), chroma.NameNamespace)},
			{Pattern: "^(```)(\\w*)(\\n)([\\s\\S]*?)(^```)$", Type: chroma.ByGroups(chroma.LiteralString, chroma.LiteralString, chroma.LiteralString, chroma.Text, chroma.LiteralString)},
			{Pattern: `^#[^#].+\n`, Type: chroma.GenericHeading},
			{Pattern: `^##.+\n`, Type: chroma.GenericSubheading},
			// A list item's marker, on a line with more (a bullet's takes the
			// one white space after it, a task's its box, an ordered one's
			// leaves it).
			{Pattern: `^([ \t]*)([*-] )(\[[ xX]\])(?= .+\n)`, Type: chroma.ByGroups(chroma.Text, chroma.Keyword, chroma.Keyword), Mutator: chroma.Push("item")},
			{Pattern: `^([ \t]*)([*-])([ \t])(?=.+\n)`, Type: chroma.ByGroups(chroma.Text, chroma.Keyword, chroma.Text), Mutator: chroma.Push("item")},
			{Pattern: `^([ \t]*)([0-9]+\.)(?= .+\n)`, Type: chroma.ByGroups(chroma.Text, chroma.Keyword), Mutator: chroma.Push("item")},
			{Pattern: `^([ \t]*>[ \t])(.+\n)`, Type: chroma.ByGroups(chroma.Keyword, chroma.GenericEmph)},
			{Pattern: `<!--[\s\S]*?-->`, Type: chroma.CommentMultiline},
			{Pattern: "`[^`]+`", Type: chroma.LiteralStringBacktick},
			{Pattern: `(\[)([^\]]+)(\]\()([^)]+)(\))`, Type: chroma.ByGroups(chroma.Text, chroma.NameTag, chroma.Text, chroma.NameAttribute, chroma.Text)},
			chroma.Include("inline"),
		},
		// item is the rest of a list item's line, to its line break.
		"item": {
			{Pattern: `\n`, Type: chroma.Text, Mutator: chroma.Pop(1)},
			{Pattern: `<!--.*?-->`, Type: chroma.CommentMultiline},
			{Pattern: "`[^`\\n]+`", Type: chroma.LiteralStringBacktick},
			{Pattern: `(\[)([^\]\n]+)(\]\()([^)\n]+)(\))`, Type: chroma.ByGroups(chroma.Text, chroma.NameTag, chroma.Text, chroma.NameAttribute, chroma.Text)},
			chroma.Include("inline"),
		},
		// inline is what no line break ends: emphasis opens after a white
		// space no other token took (a heading's or a list marker's is
		// theirs) and closes before a character that is not a word's.
		"inline": {
			{Pattern: `(\s)(\*\*[^*\n]+\*\*|__[^_\n]+__)(?=\W)`, Type: chroma.ByGroups(chroma.Text, chroma.GenericStrong)},
			{Pattern: `(\s)(\*[^*\n]*\*|_[^_\n]+_)(?=\W)`, Type: chroma.ByGroups(chroma.Text, chroma.GenericEmph)},
			{Pattern: `(\s)(~~[^~\n]+~~)(?=\W)`, Type: chroma.ByGroups(chroma.Text, chroma.GenericDeleted)},
			{Pattern: `\\.`, Type: chroma.Text},
			{Pattern: `[@#][\w/]+`, Type: chroma.NameEntity},
			{Pattern: "(?:[^\\s`*_~\\[<@#\\\\]|[^\\S\\n](?![*_~]))+|[\\s\\S]", Type: chroma.Text},
		},
		// yaml is the front matter: keys, scalars and comments.
		"yaml": {
			{Pattern: `\s+`, Type: chroma.Text},
			{Pattern: `#.*`, Type: chroma.Comment},
			{Pattern: `([\w.-]+)(:)(?=\s)`, Type: chroma.ByGroups(chroma.NameTag, chroma.Punctuation)},
			{Pattern: `- `, Type: chroma.Text},
			{Pattern: `"(?:\\.|[^"\\\n])*"`, Type: chroma.LiteralStringDouble},
			{Pattern: `'[^'\n]*'`, Type: chroma.LiteralStringSingle},
			{Pattern: `(?:true|false|null)\b`, Type: chroma.KeywordConstant},
			{Pattern: `-?\d+(?:\.\d+)?(?=\s|$)`, Type: chroma.LiteralNumber},
			{Pattern: `[^\s#][^\n#]*`, Type: chroma.Literal},
		},
	}
}
