package capture

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha1"
	"crypto/tls"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-json-experiment/json"
)

// WebSocket: an upgrade to a provider's endpoint (the Responses API over
// WebSocket, as Codex speaks it) is relayed both ways frame by frame, the
// bytes untouched, while each message is read on the side. Every message
// the client sends is recorded as one line of the recording (method
// "WEBSOCKET", the message as the request body), with the messages the
// server sent after it, up to the end of the response or the client's next
// message, as the response's body_raw, one "data:" line each as an event
// stream would carry them. permessage-deflate is not offered upstream, so
// the messages are plain text. With --mock the proxy is the server: a
// response.create is answered with the Responses API's events.

// WSInfo places a recorded WebSocket message: the connection (numbered
// from 1 in the run) and the message of the client's on it (from 1).
type WSInfo struct {
	Conn, Message int
}

// wsConns numbers the WebSocket connections of a run.
var wsConns atomic.Int64

// maxWSFrame is the largest frame read whole for the record; a longer one
// is passed on as it streams and recorded as cut.
const maxWSFrame = 64 << 20

func isWebSocket(r *http.Request) bool {
	return r.ProtoMajor == 1 && headerHasToken(r.Header, "Connection", "upgrade") &&
		strings.EqualFold(strings.TrimSpace(r.Header.Get("Upgrade")), "websocket")
}

func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}

// wsAccept is the Sec-WebSocket-Accept of a key (RFC 6455, 4.2.2).
func wsAccept(key string) string {
	h := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	return base64.StdEncoding.EncodeToString(h[:])
}

// wsSession records the messages of one WebSocket connection.
type wsSession struct {
	p      *Proxy
	url    string
	reqH   http.Header
	respH  http.Header
	conn   int
	mu     sync.Mutex
	n      int
	cur    *Exchange
	buf    bytes.Buffer
	closed bool
}

func (p *Proxy) newWSSession(url string, reqH http.Header) *wsSession {
	return &wsSession{p: p, url: url, reqH: reqH.Clone(), conn: int(wsConns.Add(1))}
}

// client notes a message the client sent: the one before it is complete.
func (s *wsSession) client(msg []byte, cut bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.flushLocked()
	s.n++
	s.cur = &Exchange{Start: time.Now(), Method: "WEBSOCKET", URL: s.url, ReqHeader: s.reqH,
		ReqBody: bytes.Clone(msg), Status: http.StatusSwitchingProtocols, RespHeader: s.respH,
		Mock: s.p.opts.Mock, WebSocket: &WSInfo{Conn: s.conn, Message: s.n}}
	if cut {
		s.cur.Err = fmt.Sprintf("message longer than %d bytes: recorded up to there", maxWSFrame)
	}
}

// server notes a message the server sent, ending the exchange when it is
// the last event of a response.
func (s *wsSession) server(msg []byte, cut bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return // before the client's first message: nothing to attach it to
	}
	s.buf.WriteString("data: ")
	s.buf.Write(msg)
	s.buf.WriteString("\n\n")
	if cut {
		s.cur.Err = join(s.cur.Err, "a server message was cut")
	}
	var ev struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(msg, &ev) == nil {
		switch ev.Type {
		case "response.completed", "response.failed", "response.incomplete", "error":
			s.flushLocked()
		}
	}
}

func (s *wsSession) flushLocked() {
	if s.cur == nil {
		return
	}
	s.cur.End = time.Now()
	s.cur.RespBody = bytes.Clone(s.buf.Bytes())
	s.buf.Reset()
	s.p.rec.Add(s.cur)
	s.cur = nil
}

// end records the message in flight when the connection ends.
func (s *wsSession) end(err string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur != nil && err != "" {
		s.cur.Err = join(s.cur.Err, err)
	}
	s.flushLocked()
}

// wsFrame is one frame: its header bytes as sent, its payload unmasked.
type wsFrame struct {
	fin     bool
	opcode  byte
	payload []byte
	cut     bool
	wire    []byte // the frame's bytes as read, when they are to be passed on
}

// relayFrames reads frames from src, writes each to dst as it came, and
// hands each whole data message to onMsg.
func relayFrames(dst io.Writer, src *bufio.Reader, onMsg func(op byte, msg []byte, cut bool), onFrame func(wsFrame)) error {
	var msg bytes.Buffer
	var op byte
	cut := false
	for {
		fr, err := readFrame(src, dst)
		if err != nil {
			return err
		}
		if onFrame != nil {
			onFrame(fr)
		}
		switch {
		case fr.opcode >= 8: // close, ping, pong: not messages
			if err := fr.pass(dst); err != nil || fr.opcode == 8 {
				return err
			}
			continue
		case fr.opcode != 0:
			op, cut = fr.opcode, false
			msg.Reset()
		}
		if msg.Len()+len(fr.payload) <= maxWSFrame {
			msg.Write(fr.payload)
		} else {
			cut = true
		}
		cut = cut || fr.cut
		if fr.fin {
			// Noted before it is passed on: the answer to a client's
			// message can come back before the relay of the message
			// returns, and is attached to the message noted.
			onMsg(op, msg.Bytes(), cut)
			msg.Reset()
		}
		if err := fr.pass(dst); err != nil {
			return err
		}
	}
}

// pass writes the frame's bytes as they were read to w, unless they went
// there while read (a frame too long to hold) or w is nil.
func (fr *wsFrame) pass(w io.Writer) error {
	if w == nil || fr.wire == nil {
		return nil
	}
	_, err := w.Write(fr.wire)
	fr.wire = nil
	return err
}

// readFrame reads one frame from r. When w is not nil the frame's bytes are
// for w: kept in fr.wire for the caller to pass on (wsFrame.pass), or,
// for a frame too long to hold, written to w as they are read.
func readFrame(r *bufio.Reader, w io.Writer) (wsFrame, error) {
	var fr wsFrame
	var hdr [14]byte
	if _, err := io.ReadFull(r, hdr[:2]); err != nil {
		return fr, err
	}
	n := 2
	fr.fin = hdr[0]&0x80 != 0
	fr.opcode = hdr[0] & 0x0f
	masked := hdr[1]&0x80 != 0
	length := uint64(hdr[1] & 0x7f)
	switch length {
	case 126:
		if _, err := io.ReadFull(r, hdr[n:n+2]); err != nil {
			return fr, err
		}
		length = uint64(binary.BigEndian.Uint16(hdr[n:]))
		n += 2
	case 127:
		if _, err := io.ReadFull(r, hdr[n:n+8]); err != nil {
			return fr, err
		}
		length = binary.BigEndian.Uint64(hdr[n:])
		n += 8
	}
	var mask []byte
	if masked {
		if _, err := io.ReadFull(r, hdr[n:n+4]); err != nil {
			return fr, err
		}
		mask = hdr[n : n+4]
		n += 4
	}
	if length > maxWSFrame {
		fr.cut = true
		if w == nil {
			w = io.Discard
		} else if _, err := w.Write(hdr[:n]); err != nil {
			return fr, err
		}
		if _, err := io.CopyN(w, r, int64(length)); err != nil {
			return fr, err
		}
		return fr, nil
	}
	buf := make([]byte, n+int(length))
	copy(buf, hdr[:n])
	if _, err := io.ReadFull(r, buf[n:]); err != nil {
		return fr, err
	}
	fr.payload = buf[n:]
	if w != nil {
		fr.wire = buf // passed on by the caller, after it noted the frame
		if masked {
			// Unmasked below in a copy of its own: the wire bytes
			// are passed on as they came.
			fr.payload = bytes.Clone(fr.payload)
		}
	}
	if masked {
		for i := range fr.payload {
			fr.payload[i] ^= mask[i%4]
		}
	}
	return fr, nil
}

// writeFrame writes one unmasked frame (a server's).
func writeFrame(w io.Writer, op byte, payload []byte) error {
	var hdr [10]byte
	hdr[0] = 0x80 | op
	n := 2
	switch l := len(payload); {
	case l < 126:
		hdr[1] = byte(l)
	case l < 1<<16:
		hdr[1] = 126
		binary.BigEndian.PutUint16(hdr[2:], uint16(l))
		n = 4
	default:
		hdr[1] = 127
		binary.BigEndian.PutUint64(hdr[2:], uint64(l))
		n = 10
	}
	if _, err := w.Write(hdr[:n]); err != nil {
		return err
	}
	_, err := w.Write(payload)
	return err
}

// websocket relays (or, with --mock, answers) an upgrade to hostport ("":
// the provider the path names, in base-URL mode).
func (f *Forward) websocket(w http.ResponseWriter, r *http.Request, hostport string) {
	scheme := "wss"
	if hostport == "" {
		hostport = upstreamFor(r).Host
		if f.mock {
			hostport, scheme = r.Host, "ws"
		}
	}
	url := scheme + "://" + hostport + r.URL.RequestURI()
	if f.mock {
		f.mockWebSocket(w, r, url)
		return
	}
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host, hostport = hostport, net.JoinHostPort(hostport, "443")
	}
	cfg := f.UpstreamTLS
	if cfg == nil {
		cfg = &tls.Config{}
	}
	cfg = cfg.Clone()
	cfg.ServerName, cfg.NextProtos = host, []string{"http/1.1"}
	ctx, cancel := context.WithTimeout(r.Context(), 30*time.Second)
	raw, err := f.dial(ctx, "tcp", hostport)
	var up *tls.Conn
	if err == nil {
		up = tls.Client(raw, cfg)
		err = up.HandshakeContext(ctx)
	}
	cancel()
	if err != nil {
		if raw != nil {
			raw.Close()
		}
		f.log(fmt.Sprintf("WebSocket %s: %v", url, err))
		http.Error(w, "wirelens: "+err.Error(), http.StatusBadGateway)
		return
	}
	out := r.Clone(context.Background())
	out.Header.Del("Sec-WebSocket-Extensions") // plain messages, readable
	out.Host = hostport
	if strings.HasSuffix(hostport, ":443") {
		out.Host = host
	}
	out.RequestURI, out.URL.Scheme, out.URL.Host = "", "", ""
	if err := out.Write(up); err != nil {
		up.Close()
		http.Error(w, "wirelens: "+err.Error(), http.StatusBadGateway)
		return
	}
	upr := bufio.NewReader(up)
	resp, err := http.ReadResponse(upr, out)
	if err != nil {
		up.Close()
		http.Error(w, "wirelens: "+err.Error(), http.StatusBadGateway)
		return
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		// Refused: pass the answer on as it comes, and record it as an
		// exchange, its body kept as every response's is (keep.go).
		defer up.Close()
		x := &Exchange{Start: time.Now(), Method: r.Method, URL: url, ReqHeader: r.Header.Clone(),
			Status: resp.StatusCode, RespHeader: resp.Header.Clone(), Err: "the WebSocket upgrade was refused"}
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		tee := newTee(resp.Body, x, true, f.p.rec.path, resp.ContentLength)
		io.Copy(w, io.LimitReader(tee, MaxBody))
		tee.Close()
		x.End = time.Now()
		f.p.rec.Add(x)
		return
	}
	if !f.holdRelay() {
		up.Close()
		http.Error(w, "wirelens: the proxy is stopping", http.StatusServiceUnavailable)
		return
	}
	defer f.relays.Done()
	client, cbrw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		up.Close()
		return
	}
	if !f.track(client) || !f.track(up) {
		client.Close()
		up.Close()
		return
	}
	defer func() {
		f.untrack(client)
		f.untrack(up)
		client.Close()
		up.Close()
	}()
	s := f.p.newWSSession(url, r.Header)
	s.respH = resp.Header.Clone()
	if err := resp.Write(client); err != nil {
		return
	}
	done := make(chan error, 2)
	go func() {
		done <- relayFrames(up, cbrw.Reader, func(op byte, msg []byte, cut bool) {
			if op == 1 {
				s.client(msg, cut)
			}
		}, nil)
	}()
	go func() {
		done <- relayFrames(client, upr, func(op byte, msg []byte, cut bool) {
			if op == 1 {
				s.server(msg, cut)
			}
		}, nil)
	}()
	err = <-done
	client.Close()
	up.Close()
	<-done
	msg := ""
	if err != nil && err != io.EOF && !isClosedErr(err) {
		msg = "the WebSocket ended: " + err.Error()
	}
	s.end(msg)
}

func isClosedErr(err error) bool {
	return err != nil && (strings.Contains(err.Error(), "use of closed network connection") || err == net.ErrClosed)
}

// mockWebSocket is the server end of a WebSocket in a mock run.
func (f *Forward) mockWebSocket(w http.ResponseWriter, r *http.Request, url string) {
	key := r.Header.Get("Sec-WebSocket-Key")
	if key == "" {
		http.Error(w, "wirelens: a WebSocket upgrade without Sec-WebSocket-Key", http.StatusBadRequest)
		return
	}
	if !f.holdRelay() {
		http.Error(w, "wirelens: the proxy is stopping", http.StatusServiceUnavailable)
		return
	}
	defer f.relays.Done()
	client, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return
	}
	if !f.track(client) {
		client.Close()
		return
	}
	defer func() {
		f.untrack(client)
		client.Close()
	}()
	respH := http.Header{"Upgrade": {"websocket"}, "Connection": {"Upgrade"}, "Sec-Websocket-Accept": {wsAccept(key)}, "X-Wirelens-Mock": {"1"}}
	resp := &http.Response{StatusCode: http.StatusSwitchingProtocols, ProtoMajor: 1, ProtoMinor: 1, Header: respH}
	if err := resp.Write(client); err != nil {
		return
	}
	s := f.p.newWSSession(url, r.Header)
	s.respH = respH
	var wmu sync.Mutex
	send := func(op byte, b []byte) error {
		wmu.Lock()
		defer wmu.Unlock()
		return writeFrame(client, op, b)
	}
	err = relayFrames(nil, brw.Reader, func(op byte, msg []byte, cut bool) {
		if op != 1 {
			return
		}
		s.client(msg, cut)
		for _, ev := range f.p.mockWSAnswer(msg) {
			s.server(ev, false)
			if send(1, ev) != nil {
				return
			}
		}
	}, func(fr wsFrame) {
		switch fr.opcode {
		case 9:
			send(10, fr.payload)
		case 8:
			send(8, fr.payload)
		}
	})
	msg := ""
	if err != nil && err != io.EOF && !isClosedErr(err) {
		msg = "the WebSocket ended: " + err.Error()
	}
	s.end(msg)
}

// mockWSAnswer is the mock's answer to one client message: the Responses
// API's events for a response.create, nothing for anything else.
func (p *Proxy) mockWSAnswer(msg []byte) [][]byte {
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(msg, &head) != nil || head.Type != "response.create" {
		return nil
	}
	var facts requestFacts
	_ = json.Unmarshal(msg, &facts)
	facts.Stream = true
	rw := &bufWriter{h: http.Header{}}
	p.responses(&mockWriter{w: rw, x: &Exchange{}}, facts, mockTextFor(facts), max(1, len(msg)/4))
	var out [][]byte
	for _, ev := range strings.Split(rw.b.String(), "\n\n") {
		for _, line := range strings.Split(ev, "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				out = append(out, []byte(d))
			}
		}
	}
	return out
}

// bufWriter is an http.ResponseWriter into memory.
type bufWriter struct {
	h http.Header
	b bytes.Buffer
}

func (b *bufWriter) Header() http.Header         { return b.h }
func (b *bufWriter) Write(p []byte) (int, error) { return b.b.Write(p) }
func (b *bufWriter) WriteHeader(int)             {}
