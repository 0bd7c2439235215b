package capture

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/wirelens/wirelens/wire/decode"
)

// TestHARFromRecording: the HAR written from a recording is read by
// wirelens with the same requests and usage, a stream's included.
func TestHARFromRecording(t *testing.T) {
	r := newRig(t, nil)
	for _, c := range apiCases {
		r.post(c.path, []byte(c.body), nil)
	}
	r.close()
	rec, err := os.ReadFile(r.path)
	if err != nil {
		t.Fatal(err)
	}
	var har bytes.Buffer
	if err := WriteHAR(&har, bytes.NewReader(rec), "test"); err != nil {
		t.Fatal(err)
	}
	if !jsontext.Value(har.Bytes()).IsValid() {
		t.Fatal("the HAR is not JSON")
	}
	n := 0
	for q, err := range decode.Decode(bytes.NewReader(har.Bytes()), decode.Options{Source: "x.har"}) {
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		n++
		if q.Usage == nil || q.Usage.InputTokens <= 0 {
			t.Errorf("request %d (%s): usage %+v", q.Index, q.Format, q.Usage)
		}
	}
	if n != len(apiCases) {
		t.Errorf("%d requests read from the HAR, want %d", n, len(apiCases))
	}
}

// TestLineKeepsBodiesAsTheyWere: a JSON body stays its value (pretty
// printing folded onto the line), text stays a string, bytes that are not
// UTF-8 are base64, and every line is one JSON value.
func TestLineKeepsBodiesAsTheyWere(t *testing.T) {
	binary := []byte{0xff, 0xfe, 'a', 0x00}
	for _, c := range []struct {
		body []byte
		want string
	}{
		{[]byte("{\n  \"model\": \"m\"\n}\n"), `"body":{"model":"m"}`},
		{[]byte(`{"model":"m"}`), `"body":{"model":"m"}`},
		{[]byte("{not json"), `"body":"{not json"`},
		{[]byte("plain text"), `"body":"plain text"`},
		{binary, `"body_base64":"` + base64.StdEncoding.EncodeToString(binary) + `"`},
	} {
		x := &Exchange{Start: time.Unix(1, 0), End: time.Unix(2, 0), Method: "POST", URL: "http://h/v1/messages",
			ReqHeader: http.Header{"Content-Type": {"application/json"}}, ReqBody: c.body, Status: 200,
			RespHeader: http.Header{"Content-Type": {"text/event-stream"}}, RespBody: []byte("data: {}\n\n")}
		line := Line(x)
		if !strings.Contains(string(line), c.want) {
			t.Errorf("body %q: line lacks %s: %s", c.body, c.want, line)
		}
		if bytes.Count(line, []byte("\n")) != 1 || !jsontext.Value(bytes.TrimSpace(line)).IsValid() {
			t.Errorf("body %q: not one JSON line: %q", c.body, line)
		}
		if !strings.Contains(string(line), `"body_raw":"data: {}\n\n"`) {
			t.Errorf("an event stream is not kept as its text: %s", line)
		}
	}
}
