package cachejson

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/wirelens/wirelens/diff"
	"github.com/wirelens/wirelens/wire/scan"
)

// AppendRequest appends r's record to dst as the report writes it: the
// bytes of encoding/json's Encoder (HTML left unescaped) indented by
// scan.IndentJSON with prefix and two spaces a level, then made safe for a
// terminal by scan.SafeJSON. ok is false, and dst is returned as it came,
// when a number cannot be written (NaN or an infinity, which encoding/json
// refuses with an error): the caller marshals r instead and reports that
// error.
func AppendRequest(dst []byte, r *Request, prefix string) (out []byte, ok bool) {
	start := len(dst)
	w := writer{b: dst, prefix: prefix}
	w.request(r)
	if w.bad {
		return dst[:start], false
	}
	if w.unusual {
		// Only a byte past printable ASCII can be a hazard (the controls
		// below it are escaped): scan.SafeJSON decides.
		rec := w.b[start:]
		if safe := scan.SafeJSON(rec); &safe[0] != &rec[0] {
			return append(w.b[:start], safe...), true
		}
	}
	return w.b, true
}

// writer appends indented JSON: each member or element on a line of its
// own, prefix and two spaces a level before it, empty objects and arrays as
// {} and [].
type writer struct {
	b      []byte
	prefix string
	depth  int
	empty  bool // an object or array was opened and nothing is in it yet
	bad    bool // a number could not be written
	// unusual says a string held a byte past printable ASCII (DEL or
	// more): a hazard may be among them.
	unusual bool
}

func (w *writer) newline() {
	w.b = append(w.b, '\n')
	w.b = append(w.b, w.prefix...)
	w.b = append(w.b, indents[:2*w.depth]...)
}

// indents are the spaces of four levels: a record's members are one level
// in, its cost's two and the cost's tokens three.
const indents = "        "

func (w *writer) open(c byte) {
	w.b = append(w.b, c)
	w.empty = true
}

func (w *writer) close(c byte) {
	if w.empty {
		w.empty = false
	} else {
		w.depth--
		w.newline()
	}
	w.b = append(w.b, c)
}

// next starts a member or an element: after a comma, or as the first.
func (w *writer) next() {
	if w.empty {
		w.empty = false
		w.depth++
	} else {
		w.b = append(w.b, ',')
	}
	w.newline()
}

// key starts the member named k (a name of the report's: plain ASCII).
func (w *writer) key(k string) {
	w.next()
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':', ' ')
}

func (w *writer) str(k, v string) {
	w.key(k)
	w.string(v)
}

func (w *writer) string(v string) {
	var unusual bool
	w.b, unusual = appendString(w.b, v)
	w.unusual = w.unusual || unusual
}

func (w *writer) int(k string, v int) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
}

func (w *writer) bool(k string, v bool) {
	w.key(k)
	w.b = strconv.AppendBool(w.b, v)
}

func (w *writer) float(k string, f float64) {
	w.key(k)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		w.bad = true
		return
	}
	w.b = appendFloat(w.b, f)
}

func (w *writer) null(k string) {
	w.key(k)
	w.b = append(w.b, "null"...)
}

func (w *writer) request(r *Request) {
	w.open('{')
	w.str("source", r.Source)
	w.int("index", r.Index)
	if r.Line != 0 {
		w.int("line", r.Line)
	}
	w.str("format", r.Format)
	w.str("model", r.Model)
	w.str("provider", r.Provider)
	w.key("compared_with")
	w.ref(&r.ComparedWith)
	w.int("total_tokens", r.TotalTokens)
	w.int("prefix_tokens", r.PrefixTokens)
	w.int("prefix_bytes", r.PrefixBytes)
	if r.Break == nil {
		w.null("break")
	} else {
		w.key("break")
		w.brk(r.Break)
	}
	if r.TextBreak != nil {
		w.key("text_break")
		w.brk(r.TextBreak)
	}
	w.intPtr("predicted_cached_tokens", r.PredictedCachedTokens)
	w.strOmit("prediction_unavailable", r.PredictionUnavailable)
	w.strOmit("breakpoint_policy", r.BreakpointPolicy)
	if r.PredictedCacheWriteTokens != 0 {
		w.int("predicted_cache_write_tokens", r.PredictedCacheWriteTokens)
	}
	w.strOmit("predicted_from", r.PredictedFrom)
	w.intPtr("recorded_cached_tokens", r.RecordedCachedTokens)
	w.int("reprocessed_tokens", r.ReprocessedTokens)
	w.strOmit("disagreement", r.Disagreement)
	if v := r.ProviderVerdict; v != nil {
		w.key("provider_verdict")
		w.open('{')
		w.str("by", v.By)
		w.str("reason", v.Reason)
		if v.MissedTokens != nil {
			w.int("missed_tokens", *v.MissedTokens)
		}
		w.str("wirelens", v.Wirelens)
		w.str("outcome", v.Outcome)
		w.close('}')
	}
	if len(r.Notes) > 0 {
		w.key("notes")
		w.open('[')
		for _, n := range r.Notes {
			w.next()
			w.string(n)
		}
		w.close(']')
	}
	if r.Cost != nil {
		w.key("cost")
		w.cost(r.Cost)
	}
	if r.At == nil {
		w.null("at")
	} else {
		w.str("at", *r.At)
	}
	if r.IdleSeconds == nil {
		w.null("idle_seconds")
	} else {
		w.float("idle_seconds", *r.IdleSeconds)
	}
	if r.ReusedFrom == nil {
		w.null("reused_from")
	} else {
		w.key("reused_from")
		w.ref(r.ReusedFrom)
	}
	w.key("lane")
	w.open('{')
	w.str("name", r.Lane.Name)
	w.str("id", r.Lane.ID)
	w.close('}')
	if r.LaneFirst {
		w.bool("lane_first", true)
	}
	if e := r.Expired; e == nil {
		w.null("expired")
	} else {
		w.key("expired")
		w.open('{')
		w.float("lifetime_seconds", e.LifetimeSeconds)
		w.float("idle_seconds", e.IdleSeconds)
		w.int("tokens", e.Tokens)
		w.str("from", e.From)
		w.close('}')
	}
	if r.NeverWritten == nil {
		w.null("never_written")
	} else {
		w.str("never_written", *r.NeverWritten)
	}
	w.close('}')
}

func (w *writer) strOmit(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

func (w *writer) intPtr(k string, v *int) {
	if v == nil {
		w.null(k)
		return
	}
	w.int(k, *v)
}

func (w *writer) ref(r *Ref) {
	w.open('{')
	w.str("source", r.Source)
	w.int("index", r.Index)
	w.close('}')
}

func (w *writer) brk(b *Break) {
	w.open('{')
	w.str("segment", b.Segment)
	w.str("channel", b.Channel)
	w.str("kind", b.Kind)
	w.int("offset", b.Offset)
	w.str("before", b.Before)
	w.str("after", b.After)
	w.str("volatile", b.Volatile)
	w.str("cause", b.Cause)
	w.strOmit("label", b.Label)
	w.strOmit("rule", b.Rule)
	w.strOmit("server", b.Server)
	w.close('}')
}

func (w *writer) cost(c *diff.CostJSON) {
	w.open('{')
	w.str("price", c.Price)
	if c.Unconfirmed {
		w.bool("unconfirmed", true)
	}
	w.str("currency", c.Currency)
	w.float("spend", c.Spend)
	w.str("spend_basis", c.SpendBasis)
	w.breakCost("break", c.Break)
	w.breakCost("expiry", c.Expiry)
	w.key("tokens")
	w.open('{')
	w.int("input", c.Tokens.Input)
	w.int("cached_read", c.Tokens.CachedRead)
	w.int("cache_write_5m", c.Tokens.CacheWrite5m)
	if c.Tokens.CacheWrite1h != 0 {
		w.int("cache_write_1h", c.Tokens.CacheWrite1h)
	}
	w.int("output", c.Tokens.Output)
	w.close('}')
	w.close('}')
}

func (w *writer) breakCost(k string, b *diff.BreakCostJSON) {
	if b == nil {
		w.null(k)
		return
	}
	w.key(k)
	w.open('{')
	w.int("tokens", b.Tokens)
	w.bool("rewritten", b.Rewritten)
	w.float("cost", b.Cost)
	w.str("basis", b.Basis)
	w.close('}')
}

// appendFloat writes f as encoding/json writes a float64: the shortest
// decimal that reads back as f, in exponent form below 1e-6 and from 1e21
// on, the exponent's leading zero dropped (1e-07 is 1e-7).
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b
}

const hexDigits = "0123456789abcdef"

// plain are the bytes appendString copies as they are and need no look
// from scan.SafeJSON: printable ASCII but '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendString writes s quoted as encoding/json writes a string with HTML
// left alone: '"' and '\\' escaped with a backslash, the C0 controls as \b,
// \f, \n, \r, \t or \u00XX, each byte of invalid UTF-8 as \ufffd, U+2028
// and U+2029 as \u2028 and \u2029, everything else as it is. unusual says
// s holds DEL or a byte past ASCII.
func appendString(b []byte, s string) (_ []byte, unusual bool) {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			if c == 0x7f {
				unusual = true
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		unusual = true
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += n
			continue
		}
		i += n
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"'), unusual
}
