package crawler

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

// Issue 5: the WARC holds the request exactly as sent and the response
// head exactly as received: names in the server's case, fields in its
// order, folded lines, bare LF endings and odd whitespace kept. Interim 1xx
// responses are left out and named in the metadata record; only a removed
// chunked coding's Transfer-Encoding line leaves the head. A body the
// server ended early is archived as far as it arrived, marked
// WARC-Truncated, once.
func TestArchiveHoldsMessagesAsOnTheWire(t *testing.T) {
	t.Parallel()
	routes := map[string]rawRoute{
		"/robots.txt": {resp: "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 13\r\n\r\nUser-agent: *"},
		"/lower": {resp: "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nx-lower: a\r\nSet-Cookie: a=1\r\nX-Between: b\r\n" +
			"Set-Cookie: b=2\r\ncontent-length: 5\r\n\r\nlower"},
		"/fold": {resp: "HTTP/1.1 200 OK\r\nX-Fold: a\r\n b\r\n\tc\r\nContent-Type: text/plain\r\nContent-Length: 6\r\n\r\nfolded"},
		"/lf":   {resp: "HTTP/1.1 200 OK\nContent-Type: text/plain\nContent-Length: 7\n\nbare lf"},
		"/ws":   {resp: "HTTP/1.1 200 Fine  By Me\r\nContent-Type:    text/plain   \r\nX-Empty:\r\nX-Tab:\tv\t\r\nContent-Length: 2\r\n\r\nws"},
		"/interim": {resp: "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n" +
			"HTTP/1.1 200 OK\r\nContent-Length: 7\r\nContent-Type: text/plain\r\n\r\nhinted!"},
		"/chunked": {resp: "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ntransfer-encoding: chunked\r\nX-After: 1\r\n\r\n" +
			"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"},
		"/close": {resp: "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nread until close", end: "close"},
		// RFC 9112 6.3: Content-Length is ignored beside a chunked coding;
		// the record must not keep it once the coding is gone.
		"/chunkcl": {resp: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n" +
			"b\r\nhello again\r\n0\r\n\r\n"},
		// A trailer field after the last chunk (RFC 9112 7.1.2).
		"/trailer": {resp: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTrailer: X-Sum\r\nTransfer-Encoding: chunked\r\n\r\n" +
			"2\r\nok\r\n0\r\nX-Sum: abc\r\n\r\n"},
		// No body: net/http decodes nothing, so the head stays whole.
		"/n304": {resp: "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nTransfer-Encoding: chunked\r\n\r\n"},
	}
	want := map[string]string{
		"/robots.txt": routes["/robots.txt"].resp,
		"/lower":      routes["/lower"].resp,
		"/fold":       routes["/fold"].resp,
		"/lf":         routes["/lf"].resp,
		"/ws":         routes["/ws"].resp,
		"/interim":    "HTTP/1.1 200 OK\r\nContent-Length: 7\r\nContent-Type: text/plain\r\n\r\nhinted!",
		"/chunked":    "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nX-After: 1\r\n\r\nhello world",
		"/close":      routes["/close"].resp,
		"/chunkcl":    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello again",
		"/trailer":    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTrailer: X-Sum\r\n\r\nok",
		"/n304":       routes["/n304"].resp,
	}
	s := newRawServer(t, routes, nil)
	// A host of its own, whose answer is cut short.
	const cutResp = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\nonly this arrived"
	cut := newRawServer(t, map[string]rawRoute{"/cut": {resp: cutResp, end: "close"}}, nil)
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 20 * time.Millisecond
	var seeds []string
	for p := range want {
		if p != "/robots.txt" {
			seeds = append(seeds, s.URL(p))
		}
	}
	slices.Sort(seeds)
	crawlFor(t, cfg, append(seeds, cut.URL("/cut"))...)

	recs := warcRecords(t, cfg.Out)
	for path, body := range want {
		target := s.URL(path)
		resps, reqs := recordsOf(recs, "response", target), recordsOf(recs, "request", target)
		sent := s.requests(path)
		if len(resps) != 1 || len(reqs) != 1 || len(sent) != 1 {
			t.Errorf("%s: %d response and %d request records for %d requests, want 1 each", path, len(resps), len(reqs), len(sent))
			continue
		}
		if got := string(resps[0].Block); got != body {
			t.Errorf("%s: response record\n%q\nwant\n%q", path, got, body)
		}
		if got := string(reqs[0].Block); got != string(sent[0]) {
			t.Errorf("%s: request record\n%q\nwant the bytes the server received\n%q", path, got, sent[0])
		}
		if tr := resps[0].Get("WARC-Truncated"); tr != "" {
			t.Errorf("%s: WARC-Truncated %q on a whole response", path, tr)
		}
	}
	notes := func(path string) string {
		m := recordsOf(recs, "metadata", s.URL(path))
		if len(m) != 1 {
			t.Fatalf("%s: %d metadata records", path, len(m))
		}
		return string(m[0].Block)
	}
	if n := notes("/interim"); !strings.Contains(n, "interim-response: HTTP/1.1 100 Continue\r\ninterim-response: HTTP/1.1 103 Early Hints\r\n") {
		t.Errorf("/interim metadata does not name the interim responses:\n%s", n)
	}
	if n := notes("/chunked"); !strings.Contains(n, "transfer-encoding: chunked (decoded") {
		t.Errorf("/chunked metadata does not say the coding was removed:\n%s", n)
	}
	if n := notes("/trailer"); !strings.Contains(n, "http-trailer: X-Sum: abc\r\n") {
		t.Errorf("/trailer metadata does not keep the trailer field:\n%s", n)
	}
	if n := notes("/n304"); strings.Contains(n, "transfer-encoding") {
		t.Errorf("/n304 metadata claims a decoding that did not happen:\n%s", n)
	}
	if n := notes("/lower"); strings.Contains(n, "http-record") || strings.Contains(n, "interim-response") {
		t.Errorf("/lower metadata has notes for a plain exchange:\n%s", n)
	}

	// WARC 1.1 section 5.13: the cut body is archived, marked, and the
	// crawl log says why: fetched once more, then, cut alike (the server
	// sends the same every time), taken as it is.
	cutResps := recordsOf(recs, "response", cut.URL("/cut"))
	if len(cutResps) != 2 || len(cut.requests("/cut")) != 2 {
		t.Fatalf("/cut: %d response records for %d requests, want 2", len(cutResps), len(cut.requests("/cut")))
	}
	for _, r := range cutResps {
		if got := string(r.Block); got != cutResp {
			t.Errorf("/cut: response record %q, want %q", got, cutResp)
		}
		if tr := r.Get("WARC-Truncated"); tr != archive.TruncatedDisconnect {
			t.Errorf("/cut: WARC-Truncated %q, want %q", tr, archive.TruncatedDisconnect)
		}
	}
	var logged int
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if e.URL == cut.URL("/cut") {
			logged++
			if e.Error != "" || !strings.Contains(e.Note, "closed the connection after 17 of the 100 body octets") ||
				!e.Truncated || e.Status != 200 || e.Bytes != int64(len("only this arrived")) {
				t.Errorf("/cut crawl log entry %+v: want no error, a note, truncated, status 200, 17 bytes", e)
			}
		}
	}
	if logged != len(cutResps) {
		t.Errorf("/cut: %d crawl log entries for %d archived attempts", logged, len(cutResps))
	}
}

// freePace is a pacer that never waits and remembers what it observed.
type freePace struct {
	mu       sync.Mutex
	observed []string
}

func (*freePace) Wait(context.Context, string) error { return nil }
func (p *freePace) Observe(_ string, status int, _ time.Duration, _ string, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.observed = append(p.observed, fmt.Sprintf("%d %v", status, err != nil))
}
func (*freePace) Answered(string, time.Time)            {}
func (*freePace) Release(string)                        {}
func (*freePace) WaitHop(context.Context, string) error { return nil }
func (*freePace) ReleaseHop(string)                     {}
func (*freePace) Host(string) scheduler.HostStatus      { return scheduler.HostStatus{} }

type permitAll struct{}

func (permitAll) permit(string, string) error { return nil }

// newBareTransport is a polite transport without pacing or robots gate.
func newBareTransport(maxBody int64, timeout time.Duration) (*politeTransport, *freePace) {
	p := &freePace{}
	tr := newPoliteTransport(p, "testbot/1.0", maxBody, timeout)
	tr.gate = permitAll{}
	return tr, p
}

// fetchVia sends a GET through tr, after edit if given, and returns the
// exchange it recorded and RoundTrip's error.
func fetchVia(t *testing.T, tr *politeTransport, target string, edit ...func(*http.Request)) (*exchange, error) {
	t.Helper()
	id, ex := tr.track()
	defer tr.untrack(id)
	req, err := http.NewRequest(http.MethodGet, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(jobHeader, id)
	for _, f := range edit {
		f(req)
	}
	resp, err := tr.RoundTrip(req)
	if err == nil {
		resp.Body.Close()
	}
	return ex, err
}

// archiveAll writes exchanges as a crawl does and reads the WARC back.
func archiveAll(t *testing.T, exs ...*exchange) []*archive.Record {
	t.Helper()
	cfg := testConfig(t)
	w, err := openArchive(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := &crawl{arch: w, log: discardLogger()}
	for _, ex := range exs {
		c.archive(ex, []archive.Field{{Name: "pace", Value: "0s"}}, false)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return warcRecords(t, cfg.Out)
}

// WARC 1.1 section 5.13: a body that ends early is archived as far as it
// arrived, with the reason. A timeout is an error to the pace; a server
// that closed the connection early answered (see endedByServer).
func TestTransportArchivesTruncatedBodies(t *testing.T) {
	t.Parallel()
	const head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n"
	s := newRawServer(t, map[string]rawRoute{
		"/disconnect": {resp: head + "twenty bytes arrived", end: "close"},
		"/chunk-cut":  {resp: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n5\r\nhello\r\n", end: "close"},
		"/time":       {resp: head + "then nothing", end: "stall"},
		"/length":     {resp: "HTTP/1.1 200 OK\r\nContent-Length: 26\r\n\r\nabcdefghijklmnopqrstuvwxyz"},
	}, nil)
	tests := []struct {
		path, truncation, record string
		maxBody                  int64
		fails                    bool
	}{
		{"/disconnect", archive.TruncatedDisconnect, head + "twenty bytes arrived", 1 << 20, false},
		{"/chunk-cut", archive.TruncatedDisconnect, "HTTP/1.1 200 OK\r\nX-A: 1\r\n\r\nhello", 1 << 20, false},
		{"/time", archive.TruncatedTime, head + "then nothing", 1 << 20, true},
		{"/length", archive.TruncatedLength, "HTTP/1.1 200 OK\r\nContent-Length: 26\r\n\r\nabcdefghij", 10, false},
	}
	var exs []*exchange
	for _, tt := range tests {
		tr, pace := newBareTransport(tt.maxBody, 500*time.Millisecond)
		ex, err := fetchVia(t, tr, s.URL(tt.path))
		exs = append(exs, ex)
		if (err != nil) != tt.fails || (ex.Err != nil) != tt.fails {
			t.Errorf("%s: RoundTrip error %v, exchange error %v; want an error: %v", tt.path, err, ex.Err, tt.fails)
		}
		if ex.Truncation != tt.truncation || !ex.truncated() {
			t.Errorf("%s: truncation %q (%v), want %q", tt.path, ex.Truncation, ex.truncated(), tt.truncation)
		}
		if early := ex.EndedEarly != ""; early != (tt.truncation == archive.TruncatedDisconnect) {
			t.Errorf("%s: ended early %q", tt.path, ex.EndedEarly)
		}
		if string(ex.RawResponse) != tt.record {
			t.Errorf("%s: raw response %q, want %q", tt.path, ex.RawResponse, tt.record)
		}
		wantObs := "200 false"
		if tt.fails {
			wantObs = "0 true" // as before: a failed read is a network error to the pace
		}
		if len(pace.observed) != 1 || pace.observed[0] != wantObs {
			t.Errorf("%s: pace observed %q, want [%s]", tt.path, pace.observed, wantObs)
		}
	}
	recs := archiveAll(t, exs...)
	for _, tt := range tests {
		r := recordsOf(recs, "response", s.URL(tt.path))
		if len(r) != 1 {
			t.Errorf("%s: %d response records", tt.path, len(r))
			continue
		}
		if got := r[0].Get("WARC-Truncated"); got != tt.truncation {
			t.Errorf("%s: WARC-Truncated %q, want %q", tt.path, got, tt.truncation)
		}
		if string(r[0].Block) != tt.record {
			t.Errorf("%s: record %q, want %q", tt.path, r[0].Block, tt.record)
		}
	}
}

// Over TLS the records are the plaintext HTTP/1.1 messages, byte for byte,
// even when the server prefers HTTP/2: only http/1.1 is offered by ALPN.
func TestTransportRecordsTLSExchangesAsHTTP1(t *testing.T) {
	cert, pool := testCert(t)
	resp := "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nX-Z: 1\r\nx-a: 2\r\nContent-Length: 6\r\n\r\nsecret"
	s := newRawServer(t, map[string]rawRoute{"/page": {resp: resp}},
		&tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2", "http/1.1"}})
	tr, _ := newBareTransport(1<<20, 5*time.Second)
	tr.dialer.tls.RootCAs = pool
	// Connection: close is written by net/http, not held in the header map:
	// only the bytes written have it.
	ex, err := fetchVia(t, tr, s.URL("/page"), func(r *http.Request) { r.Close = true })
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	alpn := slices.Clone(s.alpn)
	s.mu.Unlock()
	if len(alpn) != 1 || alpn[0] != "http/1.1" {
		t.Errorf("negotiated %q, want [http/1.1]", alpn)
	}
	recs := archiveAll(t, ex)
	req, res := recordsOf(recs, "request", s.URL("/page")), recordsOf(recs, "response", s.URL("/page"))
	sent := s.requests("/page")
	if len(req) != 1 || len(res) != 1 || len(sent) != 1 {
		t.Fatalf("%d request and %d response records for %d requests", len(req), len(res), len(sent))
	}
	if string(req[0].Block) != string(sent[0]) {
		t.Errorf("request record %q, want the bytes received %q", req[0].Block, sent[0])
	}
	if string(res[0].Block) != resp {
		t.Errorf("response record %q, want %q", res[0].Block, resp)
	}
	if ex.IP != "127.0.0.1" || res[0].Get("WARC-IP-Address") != "127.0.0.1" {
		t.Errorf("IP %q, WARC-IP-Address %q", ex.IP, res[0].Get("WARC-IP-Address"))
	}
}

// A server that speaks HTTP/2 is spoken to in HTTP/1.1, so the request and
// response records are both true HTTP/1.1 messages (WARC records of HTTP/2
// have no standard wire form).
func TestTransportSpeaksHTTP1ToHTTP2Server(t *testing.T) {
	var mu sync.Mutex
	var protos []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		protos = append(protos, r.Proto)
		mu.Unlock()
		fmt.Fprint(w, "hello")
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	// The server does speak HTTP/2 to a client that offers it.
	if resp, err := srv.Client().Get(srv.URL + "/"); err != nil || resp.Proto != "HTTP/2.0" {
		t.Fatalf("control client: %v, proto %v", err, resp)
	} else {
		resp.Body.Close()
	}
	tr, _ := newBareTransport(1<<20, 5*time.Second)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	tr.dialer.tls.RootCAs = pool
	ex, err := fetchVia(t, tr, srv.URL+"/page")
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	got := slices.Clone(protos)
	mu.Unlock()
	if len(got) != 2 || got[1] != "HTTP/1.1" {
		t.Errorf("server saw %q, want the crawler's request in HTTP/1.1", got)
	}
	recs := archiveAll(t, ex)
	req, res := recordsOf(recs, "request", srv.URL+"/page"), recordsOf(recs, "response", srv.URL+"/page")
	if len(req) != 1 || len(res) != 1 {
		t.Fatalf("%d request and %d response records", len(req), len(res))
	}
	if b := string(req[0].Block); !strings.HasPrefix(b, "GET /page HTTP/1.1\r\nHost: "+srv.Listener.Addr().String()+"\r\n") {
		t.Errorf("request record %q", b)
	}
	if b := string(res[0].Block); !strings.HasPrefix(b, "HTTP/1.1 200 OK\r\n") || !strings.HasSuffix(b, "\r\n\r\nhello") {
		t.Errorf("response record %q", b)
	}
}

// A connection the transport did not dial has no recorder: the messages
// are rebuilt from the parsed ones, and the metadata record says so.
func TestTransportFallsBackToRebuiltMessages(t *testing.T) {
	s := newRawServer(t, map[string]rawRoute{"/page": {resp: "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nContent-Length: 2\r\n\r\nhi"}}, nil)
	tr, _ := newBareTransport(1<<20, 5*time.Second)
	tr.base = &http.Transport{DisableCompression: true}
	ex, err := fetchVia(t, tr, s.URL("/page"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ex.Rebuilt, []string{"request", "response head"}) {
		t.Errorf("rebuilt %q", ex.Rebuilt)
	}
	if want := "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n\r\nhi"; string(ex.RawResponse) != want {
		t.Errorf("rebuilt response %q, want %q", ex.RawResponse, want)
	}
	m := recordsOf(archiveAll(t, ex), "metadata", s.URL("/page"))
	if len(m) != 1 || !strings.Contains(string(m[0].Block), "http-record: request rebuilt") ||
		!strings.Contains(string(m[0].Block), "http-record: response head rebuilt") {
		t.Errorf("metadata records %d, want one naming the rebuilt parts", len(m))
	}
}
