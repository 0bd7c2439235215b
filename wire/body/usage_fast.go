package body

import (
	"math"

	"github.com/go-json-experiment/json/jsontext"
)

// fastUsage reads a usage object with the token reader, as Unmarshal would
// into rawUsage, or gives up (false) on anything else than integers, nulls
// and the three nested objects: a number with a fraction or an exponent, a
// string, an escaped name. It reads every assistant entry of a Claude Code
// transcript; Unmarshal's reflection was 5% of check over a folder.
func fastUsage(v jsontext.Value, u *rawUsage) bool {
	w := NewReader(v)
	defer w.Done()
	return w.Object(func(name []byte) bool {
		var dst **int
		switch string(name) {
		case "input_tokens":
			dst = &u.InputTokens
		case "output_tokens":
			dst = &u.OutputTokens
		case "cache_read_input_tokens":
			dst = &u.CacheRead
		case "cache_creation_input_tokens":
			dst = &u.CacheCreation
		case "prompt_tokens":
			dst = &u.PromptTokens
		case "completion_tokens":
			dst = &u.CompletionTokens
		case "cached_tokens":
			dst = &u.CachedTokens
		case "prompt_cache_hit_tokens":
			dst = &u.PromptCacheHit
		case "promptTokenCount":
			dst = &u.PromptTokenCount
		case "cachedContentTokenCount":
			dst = &u.CachedContentTokens
		case "candidatesTokenCount":
			dst = &u.CandidatesTokenCount
		case "thoughtsTokenCount":
			dst = &u.ThoughtsTokenCount
		case "cache_creation":
			return nested(w, &u.CacheCreationBy, func(s *struct {
				Ephemeral1h *int `json:"ephemeral_1h_input_tokens"`
			}, name string) **int {
				if name == "ephemeral_1h_input_tokens" {
					return &s.Ephemeral1h
				}
				return nil
			})
		case "input_tokens_details":
			return nested(w, &u.InputDetails, cachedTokens)
		case "prompt_tokens_details":
			return nested(w, &u.PromptDetails, cachedTokens)
		default:
			return w.Skip()
		}
		return w.IntPtr(dst)
	}) && w.End()
}

// cachedTokens is the one member of the details objects.
func cachedTokens(s *struct {
	CachedTokens *int `json:"cached_tokens"`
}, name string) **int {
	if name == "cached_tokens" {
		return &s.CachedTokens
	}
	return nil
}

// nested reads an object (or null) into *dst as Unmarshal reads a pointer to
// a struct: null makes it nil, an object is read into the struct *dst holds
// (a new one when nil); field gives the member's place, nil to skip it.
func nested[S any](w *Reader, dst **S, field func(*S, string) **int) bool {
	switch w.Peek() {
	case 'n':
		*dst = nil
		return w.Null()
	case '{':
	default:
		return false
	}
	if *dst == nil {
		*dst = new(S)
	}
	s := *dst
	return w.Object(func(name []byte) bool {
		if p := field(s, string(name)); p != nil {
			return w.IntPtr(p)
		}
		return w.Skip()
	})
}

// IntPtr reads an integer (or null, which makes *dst nil) into the int *dst
// points at (a new one when nil), as Unmarshal does; a number with a
// fraction or an exponent, or one past an int, gives up.
func (w *Reader) IntPtr(dst **int) bool {
	if w.Peek() == 'n' {
		*dst = nil
		return w.Null()
	}
	var n int
	if !w.Int(&n) {
		return false
	}
	if *dst == nil {
		*dst = new(int)
	}
	**dst = n
	return true
}

// Int reads an integer (or null, which is 0) into dst, as Unmarshal does
// into an int; it gives up where IntPtr does.
func (w *Reader) Int(dst *int) bool {
	switch w.Peek() {
	case 'n':
		*dst = 0
		return w.Null()
	case '0':
	default:
		return false
	}
	from := w.pos
	if !w.scalar() {
		return false
	}
	n, ok := parseInt(w.src[from:w.pos])
	*dst = n
	return ok
}

// parseInt is the JSON number v as an int, if it is an integer (no fraction,
// no exponent) that fits.
func parseInt(v []byte) (int, bool) {
	neg := len(v) > 0 && v[0] == '-'
	if neg {
		v = v[1:]
	}
	if len(v) == 0 {
		return 0, false
	}
	var n uint64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if n > (math.MaxUint64-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	switch {
	case !neg && n <= math.MaxInt:
		return int(n), true
	case neg && n <= -math.MinInt:
		return int(-n), true
	}
	return 0, false
}
