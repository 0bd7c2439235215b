package body

import "bytes"

// EachSSE parses a text/event-stream body and calls each for every event
// with data: the event's name (or "") and its data lines joined by "\n".
// A "[DONE]" sentinel is skipped. Comments, id and retry fields are ignored.
func EachSSE(body []byte, each func(event string, data []byte)) {
	var (
		event string
		data  []byte
		has   bool
	)
	flush := func() {
		if has && !bytes.Equal(bytes.TrimSpace(data), []byte("[DONE]")) {
			each(event, data)
		}
		event, data, has = "", data[:0], false
	}
	for len(body) > 0 {
		var line []byte
		if i := bytes.IndexByte(body, '\n'); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			line, body = body, nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			flush()
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			event = string(value)
		case "data":
			if has {
				data = append(data, '\n')
			}
			data = append(data, value...)
			has = true
		}
	}
	flush()
}

// TrimSpace trims JSON white space and a byte-order mark.
func TrimSpace(b []byte) []byte {
	return bytes.TrimSpace(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")))
}
