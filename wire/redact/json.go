package redact

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"io"
	"slices"
	"strings"
	"unicode"

	"github.com/go-json-experiment/json/jsontext"
)

// Credentials in JSON documents: HAR entries, trace lines, request bodies.

// maxNest is how deep JSON written inside a JSON string (a HAR entry's
// postData text, a trace's body logged as the text that was sent) is opened.
const maxNest = 2

// Body masks recorded bytes: as a JSON document (JSON) when they are one,
// else as text (Text).
func Body(b []byte) []byte {
	if out, err := JSON(b); err == nil {
		return out
	}
	return []byte(Text(string(b)))
}

// JSON masks the credentials of a JSON document (or of several, one after
// another), walking it token by token after decoding, whatever the spelling:
//   - the value of a member whose name is secret (SecretMember) when it is a
//     string, and any value of a member of a "headers" object whose name is
//     (SecretName), as claude-trace records headers;
//   - the value of a {"name": N, "value": V} object whose name N is secret
//     (SecretName), members in any order and others between them, as HAR
//     records headers, query strings and form parameters;
//   - the value of every cookie in a "cookies" array;
//   - in every other string, URLs and credential-shaped values (Text), and
//     in a string that holds JSON, that JSON, the same way.
//
// A masked value becomes the string Mask. Everything else is copied as it
// was written, so a document with nothing to mask comes back byte for byte,
// and the result is valid JSON when doc is. It fails, returning nil, when
// doc is not JSON.
func JSON(doc []byte) ([]byte, error) {
	return maskJSON(doc, 0, false)
}

// Members masks only the string values of the members whose names are
// secret (SecretMember: api_key, apiKey, password, client_secret,
// access_token, ...), anywhere in a JSON document and in JSON written inside
// its strings (tool-call arguments), as a capture keeps a request body:
// everything else, text shaped like a key included, is what the model was
// told and stays as it was. A document that is not JSON comes back as it
// was.
func Members(doc []byte) []byte {
	if !mayNameSecret(doc) {
		return doc
	}
	out, err := maskJSON(doc, 0, true)
	if err != nil {
		return doc
	}
	return out
}

// mayNameSecret reports whether doc holds a word SecretMember looks for
// (memberHints, any case), or a \u escape (a member name may spell one so:
// "p\u0061ssword"): most bodies without either are not walked.
func mayNameSecret(doc []byte) bool {
	if bytes.Contains(doc, []byte(`\u`)) {
		return true
	}
	for _, w := range memberHints {
		if bytes.Contains(doc, []byte(w)) {
			return true
		}
	}
	if !hasUpper(doc) {
		return false
	}
	lower := bytes.ToLower(doc)
	for _, w := range memberHints {
		if bytes.Contains(lower, []byte(w)) {
			return true
		}
	}
	return false
}

// hasUpper reports whether b holds an upper-case letter (unicode.IsUpper),
// eight ASCII bytes at a time until the first byte that is not ASCII (a
// request body is mostly ASCII, and rune by rune this was most of the
// recorder's time on one without a secret's word).
func hasUpper(b []byte) bool {
	const hi = 0x8080808080808080
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		if w&hi != 0 {
			break
		}
		// The top bit of each byte: at least 'A', and more than 'Z'.
		ge := w + 0x3f3f3f3f3f3f3f3f // 0x80 - 'A'
		gt := w + 0x2525252525252525 // 0x80 - ('Z' + 1)
		if ge&^gt&hi != 0 {
			return true
		}
		b = b[8:]
	}
	return bytes.IndexFunc(b, unicode.IsUpper) >= 0
}

// frame is an object or array being walked.
type frame struct {
	object   bool
	start    int64  // offset of its opening bracket
	member   string // (objects) the name of the member whose value comes next
	wantName bool   // (objects) a member name comes next
	headers  bool   // an object of headers by name
	cookies  bool   // an array of cookies
	cookie   bool   // an object in a cookies array
	// A {"name": N, "value": V} pair is judged when its object closes: the
	// string values of its name members, and its value members.
	names  []string
	values []Edit // With is the value's own masking, or nil
}

// quotedMask is Mask as a JSON string.
var quotedMask, _ = jsontext.AppendQuote(nil, Mask)

// Edit is a mask MemberEdits found: the bytes [Start, End) of the document
// are to be replaced by With.
type Edit struct {
	Start, End int64
	With       []byte
}

// MemberEdits is Members for a document read from r, one too large to hold
// (a body a capture keeps on disk): the masks Members would apply, as edits
// in the order of the document, none inside another. Each string value is
// held in turn, nothing else. It fails when r does not hold JSON. Unlike
// Members it walks every document (Members skips one that holds none of
// the words a secret's name has).
func MemberEdits(r io.Reader) ([]Edit, error) { return maskEdits(r, 0, true) }

func maskJSON(doc []byte, depth int, members bool) ([]byte, error) {
	edits, err := maskEdits(bytes.NewReader(doc), depth, members)
	if err != nil {
		return nil, err
	}
	if len(edits) == 0 {
		return doc, nil
	}
	out := make([]byte, 0, len(doc))
	var at int64
	for _, e := range edits {
		out = append(out, doc[at:e.Start]...)
		out = append(out, e.With...)
		at = e.End
	}
	return append(out, doc[at:]...), nil
}

// maskEdits walks the document read from r and returns its masks in order,
// none inside another.
func maskEdits(r io.Reader, depth int, members bool) ([]Edit, error) {
	dec := jsontext.NewDecoder(r, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var (
		stack []frame
		edits []Edit
		read  bool // a token was read: there is a document
	)
	// took handles a value of the container on top of the stack, from start
	// to end, of kind k ('{' or '[' for a container), whose own masking is
	// with (nil for none).
	took := func(k jsontext.Kind, start, end int64, raw []byte, with []byte) {
		if len(stack) == 0 {
			if with != nil {
				edits = append(edits, Edit{start, end, with})
			}
			return
		}
		p := &stack[len(stack)-1]
		masked := Edit{start, end, quotedMask}
		if !p.object {
			switch {
			case p.cookies && k != '{':
				edits = append(edits, masked)
			case with != nil:
				edits = append(edits, Edit{start, end, with})
			}
			return
		}
		name := p.member
		p.wantName = true
		if members {
			switch {
			case k == '"' && SecretMember(name):
				edits = append(edits, masked)
			case with != nil:
				edits = append(edits, Edit{start, end, with})
			}
			return
		}
		switch {
		case p.headers && SecretName(name):
			edits = append(edits, masked)
		case k == '"' && SecretMember(name):
			edits = append(edits, masked)
		case strings.EqualFold(name, "value"):
			p.values = append(p.values, Edit{start, end, with})
		default:
			if k == '"' && strings.EqualFold(name, "name") {
				n, _ := jsontext.AppendUnquote(nil, raw)
				p.names = append(p.names, string(n))
			}
			if with != nil {
				edits = append(edits, Edit{start, end, with})
			}
		}
	}
	for {
		k := dec.PeekKind()
		if k == 0 {
			_, err := dec.ReadToken()
			if err == io.EOF && !read {
				err = io.ErrUnexpectedEOF // no document at all
			}
			if err != io.EOF {
				return nil, err
			}
			break
		}
		read = true
		if n := len(stack); n > 0 && stack[n-1].wantName && k == '"' {
			tok, err := dec.ReadToken()
			if err != nil {
				return nil, err
			}
			stack[n-1].member = tok.String()
			stack[n-1].wantName = false
			continue
		}
		switch k {
		case '{', '[':
			if _, err := dec.ReadToken(); err != nil {
				return nil, err
			}
			f := frame{object: k == '{', wantName: k == '{', start: dec.InputOffset() - 1}
			if n := len(stack); n > 0 {
				p := &stack[n-1]
				switch {
				case p.object && k == '{':
					f.headers = strings.EqualFold(p.member, "headers")
				case p.object && k == '[':
					f.cookies = strings.EqualFold(p.member, "cookies")
				case p.cookies && k == '{':
					f.cookie = true
				}
			}
			stack = append(stack, f)
		case '}', ']':
			if _, err := dec.ReadToken(); err != nil {
				return nil, err
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f.object {
				secret := f.cookie || slices.ContainsFunc(f.names, SecretName)
				for _, v := range f.values {
					switch {
					case secret:
						edits = append(edits, Edit{v.Start, v.End, quotedMask})
					case v.With != nil:
						edits = append(edits, v)
					}
				}
			}
			open := jsontext.Kind('[')
			if f.object {
				open = '{'
			}
			took(open, f.start, dec.InputOffset(), nil, nil)
		default:
			raw, err := dec.ReadValue()
			if err != nil {
				return nil, err
			}
			end := dec.InputOffset()
			var with []byte
			if k == '"' {
				with = maskString(raw, depth, members)
			}
			took(k, end-int64(len(raw)), end, raw, with)
		}
	}
	if len(edits) == 0 {
		return nil, nil
	}
	// An edit inside a value masked whole is dropped: the outer one starts
	// first (or at the same place and ends later).
	slices.SortStableFunc(edits, func(a, b Edit) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(b.End, a.End))
	})
	kept := edits[:0]
	var at int64
	for _, e := range edits {
		if e.Start < at {
			continue
		}
		kept = append(kept, e)
		at = e.End
	}
	return kept, nil
}

// maskString masks the JSON string raw: the JSON it holds, if it holds a
// document, else its text. It returns the masked string as JSON, or nil
// when nothing was masked.
func maskString(raw []byte, depth int, members bool) []byte {
	var s []byte
	if bytes.IndexByte(raw, '\\') < 0 {
		s = raw[1 : len(raw)-1] // nothing escaped: the text as it stands
	} else {
		s, _ = jsontext.AppendUnquote(nil, raw)
	}
	var masked string
	if t := bytes.TrimSpace(s); depth < maxNest && len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		if inner, err := maskJSON(s, depth+1, members); err == nil {
			if bytes.Equal(inner, s) {
				return nil
			}
			masked = string(inner)
		}
	}
	if masked == "" {
		if members || !mayHold(s) {
			return nil
		}
		text := string(s)
		if masked = Text(text); masked == text {
			return nil
		}
	}
	q, _ := jsontext.AppendQuote(nil, masked)
	return q
}
