package render

// The Raw view's text: a request's body read back from its file and
// pretty-printed, or wirelens's model of the request.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
	"github.com/wirelens/wirelens/wire/encode"
	"github.com/wirelens/wirelens/wire/redact"
)

// MaxRaw is the largest raw body read back from a file.
const MaxRaw = 32 << 20

// RawBody is the request body as sent: read back from its file (for a HAR
// entry or a trace line, the body inside it, decoded; decode.SentBody), or,
// for a request not on disk (built by demo or watch, read from standard
// input), its provider's JSON encoded from it; pretty-printed when it is
// JSON, credentials masked. When neither can be had (a file that changed, a
// request encode cannot write), it is wirelens's model of the request as
// JSON, and the note says why.
// It returns the text and a note saying where it comes from.
func RawBody(r *wire.Request) (string, string) {
	body, what, err := decode.SentBody(r, MaxRaw)
	if err == nil {
		where := fmt.Sprintf("body from %s, bytes %d-%d", r.Source, r.Offset, r.Offset+r.Length)
		if what != "" {
			where += ", " + what
		}
		var pretty bytes.Buffer
		if json.Indent(&pretty, body, "", "  ") == nil {
			return pretty.String(), where
		}
		return string(body), where + " (not JSON)"
	}
	if errors.Is(err, decode.ErrNotOnDisk) {
		// Built (demo, watch) or read from standard input: the JSON it is
		// sent as, encoded from the request.
		if b, err := encode.Encode(*r, r.Format); err == nil {
			// Masked as a body read back is: a workspace's credential
			// is not shown in clear because the request was built.
			return string(redact.Body(b)), "the body as sent: the " + string(r.Format) + " JSON encoded from the request"
		}
	}
	note := "the body is not on disk: wirelens's model of the request"
	if !errors.Is(err, decode.ErrNotOnDisk) {
		note = err.Error() + ": wirelens's model of the request"
	}
	type segJSON struct {
		ID       string        `json:"id"`
		Channel  string        `json:"channel"`
		Role     string        `json:"role"`
		Kind     string        `json:"kind"`
		Trust    string        `json:"trust"`
		Envelope string        `json:"envelope"`
		Label    string        `json:"label,omitempty"`
		Text     string        `json:"text"`
		Escapes  []wire.Escape `json:"escapes,omitempty"`
	}
	out := struct {
		Source   string      `json:"source"`
		Index    int         `json:"index"`
		Format   string      `json:"format"`
		Model    string      `json:"model"`
		Segments []segJSON   `json:"segments"`
		Usage    *wire.Usage `json:"usage,omitempty"`
	}{Source: r.Source, Index: r.Index, Format: string(r.Format), Model: r.Model, Usage: r.Usage}
	for _, s := range r.Segments {
		out.Segments = append(out.Segments, segJSON{s.ID, string(s.Channel), s.Role, string(s.Kind), string(s.Trust), s.Envelope, s.Label, s.Text, s.Escapes})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(out)
	return b.String(), note
}
