package render

// The Response view's text: the response recorded with a request, read
// back from its file (decode.SentResponse), as a document of its status,
// headers, usage and the model's answer.

import (
	"errors"
	"strconv"
	"strings"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// maxResponseBody is how much of a body the Response view shows when it
// cannot read the answer out of it.
const maxResponseBody = 256 << 10

// ResponseDoc is the Response view's text for request r: the response
// recorded with it (read back from its file, credentials masked), or what
// is known without one (its recorded usage), and a note saying where it
// comes from. The text is hostile: the view draws it through the
// sanitiser.
func ResponseDoc(r *wire.Request) (string, string) {
	resp, err := decode.SentResponse(r, MaxRaw)
	var b strings.Builder
	section := func(name string) { b.WriteString("\n── " + name + "\n") }
	note := "response from " + r.Source
	switch {
	case errors.Is(err, decode.ErrNoResponse):
		note = "no response recorded"
		b.WriteString("No response was recorded with this request: HAR exports, claude-trace logs and the captures of " +
			"wirelens proxy and record hold one; a request body alone or a transcript does not.\n")
	case err != nil:
		note = "response not read"
		b.WriteString("The response could not be read back: " + err.Error() + "\n")
	default:
		head := "HTTP " + strconv.Itoa(resp.Status)
		if resp.Status == 0 {
			head = "HTTP status not recorded"
		}
		for _, h := range resp.Headers {
			if strings.EqualFold(h[0], "content-type") {
				head += " · " + h[1]
			}
		}
		if resp.Events > 0 {
			head += " · " + Plural(resp.Events, "server-sent event")
		}
		b.WriteString(head + "\n")
		if resp.Note != "" {
			b.WriteString(resp.Note + "\n")
		}
		section("headers")
		for _, h := range resp.Headers {
			b.WriteString(h[0] + ": " + h[1] + "\n")
		}
		if len(resp.Headers) == 0 {
			b.WriteString("(none recorded)\n")
		}
	}
	if u := r.Usage; u != nil {
		section("usage")
		n := wire.GroupDigits
		cached := n(u.CachedTokens)
		if u.CachedUnknown {
			cached = "not recorded"
		}
		b.WriteString("input " + n(u.InputTokens) + " tokens (cached " + cached + ", cache writes " + n(u.CacheWriteTokens) + ") · output " + n(u.OutputTokens) + "\n")
	}
	if resp != nil {
		switch {
		case resp.Message != "":
			section("message")
			b.WriteString(resp.Message + "\n")
		case len(resp.Body) > 0:
			section("body (no answer read out of it)")
			body := resp.Body[:min(len(resp.Body), maxResponseBody)]
			b.WriteString(string(body) + "\n")
			if len(resp.Body) > len(body) {
				b.WriteString("… " + ShortSize(len(resp.Body)-len(body)) + " more\n")
			}
		default:
			section("message")
			b.WriteString("(the response has no body)\n")
		}
	}
	return b.String(), note
}
