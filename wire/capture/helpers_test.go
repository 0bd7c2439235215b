package capture

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/wirelens/wirelens/wire"
	"github.com/wirelens/wirelens/wire/decode"
)

// rig is a proxy in front of a fake upstream (or in mock mode), recording
// into a temporary file.
type rig struct {
	t        *testing.T
	url      string // the proxy's base URL
	path     string // the recording
	server   *Server
	upstream *httptest.Server
	logs     *logLines
	closed   bool
}

type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, s)
}

func (l *logLines) all() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// newRig starts a proxy; upstream nil means mock mode.
func newRig(t *testing.T, upstream http.Handler) *rig {
	t.Helper()
	return newRigOpts(t, upstream, nil)
}

// newRigOpts is newRig with its options changed by set.
func newRigOpts(t *testing.T, upstream http.Handler, set func(*Options)) *rig {
	t.Helper()
	r := &rig{t: t, path: filepath.Join(t.TempDir(), "capture.jsonl"), logs: &logLines{}}
	rec, err := Create(r.path, r.logs.add)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Mock: upstream == nil, Log: r.logs.add}
	if upstream != nil {
		r.upstream = httptest.NewServer(upstream)
		t.Cleanup(r.upstream.Close)
		opts.Upstream, _ = url.Parse(r.upstream.URL)
	}
	if set != nil {
		set(&opts)
	}
	ln, warn, err := Listen("")
	if err != nil || warn != "" {
		t.Fatalf("listen: %v %q", err, warn)
	}
	r.server = Serve(ln, New(rec, opts))
	r.url = r.server.URL()
	t.Cleanup(r.close)
	return r
}

// close stops the proxy and flushes the recording.
func (r *rig) close() {
	if !r.closed {
		r.closed = true
		if err := r.server.Close(5 * time.Second); err != nil {
			r.t.Errorf("close: %v", err)
		}
	}
}

// post sends a request through the proxy and returns the response and its
// whole body.
func (r *rig) post(path string, body []byte, header http.Header) (*http.Response, []byte) {
	r.t.Helper()
	req, err := http.NewRequest(http.MethodPost, r.url+path, bytes.NewReader(body))
	if err != nil {
		r.t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		r.t.Fatalf("reading the answer: %v", err)
	}
	return resp, b
}

// record is one line of the recording as the tests read it.
type record struct {
	traceRecord
	Wirelens struct {
		Mock  bool   `json:"mock"`
		Error string `json:"error"`
	} `json:"wirelens"`
}

// records closes the proxy and reads every line of the recording.
func (r *rig) records() []record {
	r.t.Helper()
	r.close()
	f, err := os.Open(r.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // a run that recorded nothing leaves no file (Recorder.Close)
	}
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	var out []record
	br := bufio.NewReaderSize(f, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			if line[len(line)-1] != '\n' {
				r.t.Fatalf("the recording ends in a partial line: %.80q", line)
			}
			var rec record
			if uerr := json.Unmarshal(line, &rec); uerr != nil {
				r.t.Fatalf("a line of the recording is not JSON: %v: %.200q", uerr, line)
			}
			out = append(out, rec)
		}
		if err == io.EOF {
			return out
		}
		if err != nil {
			r.t.Fatal(err)
		}
	}
}

// decoded reads the recording with wirelens's own decoder.
func (r *rig) decoded() ([]wire.Request, []error) {
	r.t.Helper()
	r.close()
	var reqs []wire.Request
	var errs []error
	for q, err := range decode.Path(r.path, decode.Options{Source: r.path}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		reqs = append(reqs, q)
	}
	return reqs, errs
}

// bodyString is a recorded body as text.
func bodyString(v []byte, raw *string) string {
	if raw != nil {
		return *raw
	}
	t, _ := bodyText(v, nil, "")
	return t
}
