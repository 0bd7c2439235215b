package encode

import (
	"bufio"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// GenerateSession writes a synthetic Anthropic Messages session as JSONL: n
// requests, each one the previous request's messages plus one new turn (a
// user prompt, an assistant reply with a tool call, the tool's result, an
// assistant summary, in rotation), with a system prompt carrying
// cache_control, a set of tools, and a cache breakpoint on the newest user
// message as agents place it. Sizes follow a real coding session: with 300
// requests the file is about 80 MB. The same n and seed give the same bytes.
func GenerateSession(w io.Writer, requests int, seed int64) error {
	g := &sessionGen{rnd: rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))}
	bw := bufio.NewWriterSize(w, 1<<20)
	head := g.head()
	var msgs [][]byte // each message's JSON, as sent in every later request
	for k := 0; k < requests; k++ {
		msg, bp := g.turn(k)
		msgs = append(msgs, msg)
		bw.Write(head)
		for i, m := range msgs {
			if i > 0 {
				bw.WriteByte(',')
			}
			if i == len(msgs)-1 && bp != nil {
				bw.Write(bp) // the newest message carries the moving breakpoint
				continue
			}
			bw.Write(m)
		}
		if _, err := bw.WriteString("]}\n"); err != nil {
			return err
		}
	}
	return bw.Flush()
}

type sessionGen struct {
	rnd   *rand.Rand
	calls int
}

var vocabulary = strings.Fields(`the a to of and in is it for on that with as this be by are from or at an
not was but we can if will have has file function return error value type string struct package import
func var const test build run module path config request response model token cache prefix segment
session workspace agent tool call result handler server client context deadline buffer reader writer
decode encode json stream line byte offset index length parse check update render view list map slice
interface method field pointer channel goroutine mutex lock wait group close open read write flush
retry timeout backoff limit queue worker pool job task schedule event signal trace span metric log`)

// words is n pseudo-random words.
func (g *sessionGen) words(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			if g.rnd.IntN(14) == 0 {
				b.WriteString(".\n")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(vocabulary[g.rnd.IntN(len(vocabulary))])
	}
	return b.String()
}

// code is n lines of Go-like source, as a tool result would show a file.
func (g *sessionGen) code(n int) string {
	var b strings.Builder
	b.WriteString("package " + vocabulary[20+g.rnd.IntN(20)] + "\n\n")
	for i := 0; i < n; i++ {
		switch g.rnd.IntN(6) {
		case 0:
			b.WriteString("func " + vocabulary[g.rnd.IntN(len(vocabulary))] + strconv.Itoa(i) + "(ctx context.Context, r io.Reader) error {\n")
		case 1:
			b.WriteString("}\n\n")
		case 2:
			b.WriteString("\t// " + g.words(8) + "\n")
		case 3:
			b.WriteString("\tif err := " + vocabulary[g.rnd.IntN(len(vocabulary))] + "(\"" + vocabulary[g.rnd.IntN(len(vocabulary))] + "\"); err != nil {\n\t\treturn fmt.Errorf(\"%w\", err)\n\t}\n")
		default:
			b.WriteString("\t" + vocabulary[g.rnd.IntN(len(vocabulary))] + " := " + vocabulary[g.rnd.IntN(len(vocabulary))] + "[" + strconv.Itoa(g.rnd.IntN(100)) + "]\n")
		}
	}
	return b.String()
}

func jsonQuote(s string) string {
	b, _ := jsontext.AppendQuote(nil, s)
	return string(b)
}

// head is the start of every request line, up to the opening of messages.
func (g *sessionGen) head() []byte {
	var b strings.Builder
	b.WriteString(`{"model":"claude-sonnet-4-5","max_tokens":32000,"stream":true,"system":[`)
	b.WriteString(`{"type":"text","text":"You are a coding agent, a command-line tool for software engineering."},`)
	b.WriteString(`{"type":"text","text":` + jsonQuote("# Rules\n"+g.words(1800)) + `,"cache_control":{"type":"ephemeral"}}],"tools":[`)
	for i, name := range []string{"Bash", "Read", "Edit", "Write", "Grep", "Glob", "WebFetch", "TodoWrite"} {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"name":"` + name + `","description":` + jsonQuote(g.words(120)) +
			`,"input_schema":{"type":"object","properties":{"path":{"type":"string","description":` + jsonQuote(g.words(12)) +
			`},"command":{"type":"string"},"limit":{"type":"integer"}},"required":["path"]}}`)
	}
	b.WriteString(`],"messages":[`)
	return []byte(b.String())
}

// turn is the k-th message, and for a user message its variant carrying the
// cache breakpoint.
func (g *sessionGen) turn(k int) (msg, withBP []byte) {
	switch k % 4 {
	case 0:
		text := g.words(20 + g.rnd.IntN(60))
		msg = []byte(`{"role":"user","content":[{"type":"text","text":` + jsonQuote(text) + `}]}`)
		withBP = []byte(`{"role":"user","content":[{"type":"text","text":` + jsonQuote(text) + `,"cache_control":{"type":"ephemeral"}}]}`)
	case 1:
		g.calls++
		msg = []byte(`{"role":"assistant","content":[{"type":"text","text":` + jsonQuote(g.words(30+g.rnd.IntN(80))) +
			`},{"type":"tool_use","id":"toolu_` + strconv.Itoa(100000+g.calls) + `","name":"Read","input":{"path":"src/` +
			vocabulary[g.rnd.IntN(len(vocabulary))] + strconv.Itoa(g.calls) + `.go"}}]}`)
	case 2:
		res := jsonQuote(g.code(70 + g.rnd.IntN(110)))
		pre := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_` + strconv.Itoa(100000+g.calls) + `","content":` + res
		msg = []byte(pre + `}]}`)
		withBP = []byte(pre + `,"cache_control":{"type":"ephemeral"}}]}`)
	default:
		msg = []byte(`{"role":"assistant","content":[{"type":"text","text":` + jsonQuote(g.words(60+g.rnd.IntN(160))) + `}]}`)
	}
	return msg, withBP
}
