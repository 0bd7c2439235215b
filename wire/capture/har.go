package capture

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// HAR 1.2 from a recording: written at the end of a proxy run, from the
// file the proxy wrote (read back a line at a time, so no exchange is held
// twice).

type traceRecord struct {
	Request struct {
		Timestamp  float64           `json:"timestamp"`
		Method     string            `json:"method"`
		URL        string            `json:"url"`
		Headers    map[string]string `json:"headers"`
		Body       jsontext.Value    `json:"body"`
		BodyBase64 string            `json:"body_base64"`
	} `json:"request"`
	Response struct {
		Timestamp  float64           `json:"timestamp"`
		Status     int               `json:"status_code"`
		Headers    map[string]string `json:"headers"`
		Body       jsontext.Value    `json:"body"`
		BodyRaw    *string           `json:"body_raw"`
		BodyBase64 string            `json:"body_base64"`
	} `json:"response"`
}

// WriteHAR writes the exchanges of a recording (as Line writes them) as a
// HAR 1.2 document. Lines that are not records are skipped.
func WriteHAR(w io.Writer, recording io.Reader, version string) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `{"log":{"version":"1.2","creator":{"name":"wirelens","version":%s},"entries":[`, q(version))
	br := bufio.NewReaderSize(recording, 1<<20)
	first := true
	for {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var t traceRecord
			if json.Unmarshal(line, &t) == nil && t.Request.Method != "" {
				if !first {
					bw.WriteByte(',')
				}
				first = false
				harEntry(bw, &t)
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	bw.WriteString("]}}\n")
	return bw.Flush()
}

func harEntry(w *bufio.Writer, t *traceRecord) {
	start := time.UnixMilli(int64(t.Request.Timestamp * 1000)).UTC()
	ms := max(0, (t.Response.Timestamp-t.Request.Timestamp)*1000)
	reqText, reqB64 := bodyText(t.Request.Body, nil, t.Request.BodyBase64)
	respText, respB64 := bodyText(t.Response.Body, t.Response.BodyRaw, t.Response.BodyBase64)
	fmt.Fprintf(w, `{"startedDateTime":%s,"time":%.3f,"request":{"method":%s,"url":%s,"httpVersion":"HTTP/1.1","cookies":[],"headers":%s,"queryString":[],"headersSize":-1,"bodySize":%d`,
		q(start.Format(time.RFC3339Nano)), ms, q(t.Request.Method), q(t.Request.URL), harHeaders(t.Request.Headers), len(reqText))
	if reqText != "" {
		fmt.Fprintf(w, `,"postData":{"mimeType":%s,"text":%s`, q(orDefault(t.Request.Headers["content-type"], "application/json")), q(reqText))
		if reqB64 {
			w.WriteString(`,"encoding":"base64"`)
		}
		w.WriteByte('}')
	}
	fmt.Fprintf(w, `},"response":{"status":%d,"statusText":%s,"httpVersion":"HTTP/1.1","cookies":[],"headers":%s,"content":{"size":%d,"mimeType":%s,"text":%s`,
		t.Response.Status, q(http.StatusText(t.Response.Status)), harHeaders(t.Response.Headers), len(respText),
		q(orDefault(t.Response.Headers["content-type"], "application/json")), q(respText))
	if respB64 {
		w.WriteString(`,"encoding":"base64"`)
	}
	fmt.Fprintf(w, `},"redirectURL":"","headersSize":-1,"bodySize":%d},"cache":{},"timings":{"send":0,"wait":%.3f,"receive":0}}`, len(respText), ms)
}

// bodyText is a recorded body as HAR text (a JSON value as written, a
// string's text) or base64, as recorded.
func bodyText(v jsontext.Value, raw *string, b64 string) (string, bool) {
	switch {
	case b64 != "":
		if _, err := base64.StdEncoding.DecodeString(b64); err == nil {
			return b64, true
		}
		return "", false
	case raw != nil:
		return *raw, false
	case len(v) > 0 && v.Kind() == '"':
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s, false
		}
	case len(v) > 0 && v.Kind() != 'n':
		return string(v), false
	}
	return "", false
}

func harHeaders(h map[string]string) string {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteByte('[')
	for i, k := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":%s,"value":%s}`, q(k), q(h[k]))
	}
	b.WriteByte(']')
	return b.String()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
