package wire

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
	"github.com/crawlproject/crawl/internal/wiretest"
	"github.com/crawlproject/crawl/scheduler"
)

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

func (permitAll) Permit(string, string) error { return nil }

// newBareTransport is a Transport without pacing or robots gate.
func newBareTransport(maxBody int64, timeout time.Duration) (*Transport, *freePace) {
	p := &freePace{}
	tr := NewTransport(p, "testbot/1.0", maxBody, timeout)
	tr.Gate = permitAll{}
	return tr, p
}

// fetchVia sends a GET through tr, after edit if given, and returns the
// exchange it recorded and RoundTrip's error.
func fetchVia(t *testing.T, tr *Transport, target string, edit ...func(*http.Request)) (*Exchange, error) {
	t.Helper()
	id, ex := tr.Track()
	defer tr.Untrack(id)
	req, err := http.NewRequest(http.MethodGet, target, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(JobHeader, id)
	for _, f := range edit {
		f(req)
	}
	resp, err := tr.RoundTrip(req)
	if err == nil {
		resp.Body.Close()
	}
	return ex, err
}

// archiveAll writes exchanges as a crawl does (Exchange.Archived) and
// reads the WARC back.
func archiveAll(t *testing.T, exs ...*Exchange) []*archive.Record {
	t.Helper()
	out := t.TempDir()
	w, err := archive.Open(archive.Options{Dir: filepath.Join(out, "archive"), Prefix: "crawl", Digest: "sha1", Dedupe: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range exs {
		if err := w.WriteExchange(ex.Archived([]archive.Field{{Name: "pace", Value: "0s"}}, false)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return wiretest.WARCRecords(t, out)
}

// WARC 1.1 section 5.13: a body that ends early is archived as far as it
// arrived, with the reason. A timeout is an error to the pace; a server
// that closed the connection early answered (see endedByServer).
func TestTransportArchivesTruncatedBodies(t *testing.T) {
	t.Parallel()
	const head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n"
	s := wiretest.NewServer(t, map[string]wiretest.Route{
		"/disconnect": {Resp: head + "twenty bytes arrived", End: "close"},
		"/chunk-cut":  {Resp: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n5\r\nhello\r\n", End: "close"},
		"/time":       {Resp: head + "then nothing", End: "stall"},
		"/length":     {Resp: "HTTP/1.1 200 OK\r\nContent-Length: 26\r\n\r\nabcdefghijklmnopqrstuvwxyz"},
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
	var exs []*Exchange
	for _, tt := range tests {
		tr, pace := newBareTransport(tt.maxBody, 500*time.Millisecond)
		ex, err := fetchVia(t, tr, s.URL(tt.path))
		exs = append(exs, ex)
		if (err != nil) != tt.fails || (ex.Err != nil) != tt.fails {
			t.Errorf("%s: RoundTrip error %v, exchange error %v; want an error: %v", tt.path, err, ex.Err, tt.fails)
		}
		if ex.Truncation != tt.truncation || !ex.Truncated() {
			t.Errorf("%s: truncation %q (%v), want %q", tt.path, ex.Truncation, ex.Truncated(), tt.truncation)
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
		r := wiretest.RecordsOf(recs, "response", s.URL(tt.path))
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
	cert, pool := wiretest.Cert(t)
	resp := "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nX-Z: 1\r\nx-a: 2\r\nContent-Length: 6\r\n\r\nsecret"
	s := wiretest.NewServer(t, map[string]wiretest.Route{"/page": {Resp: resp}},
		&tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"h2", "http/1.1"}})
	tr, _ := newBareTransport(1<<20, 5*time.Second)
	tr.dialer.tls.RootCAs = pool
	// Connection: close is written by net/http, not held in the header map:
	// only the bytes written have it.
	ex, err := fetchVia(t, tr, s.URL("/page"), func(r *http.Request) { r.Close = true })
	if err != nil {
		t.Fatal(err)
	}
	alpn := s.ALPN()
	if len(alpn) != 1 || alpn[0] != "http/1.1" {
		t.Errorf("negotiated %q, want [http/1.1]", alpn)
	}
	recs := archiveAll(t, ex)
	req, res := wiretest.RecordsOf(recs, "request", s.URL("/page")), wiretest.RecordsOf(recs, "response", s.URL("/page"))
	sent := s.Requests("/page")
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
	req, res := wiretest.RecordsOf(recs, "request", srv.URL+"/page"), wiretest.RecordsOf(recs, "response", srv.URL+"/page")
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
	s := wiretest.NewServer(t, map[string]wiretest.Route{"/page": {Resp: "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nContent-Length: 2\r\n\r\nhi"}}, nil)
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
	m := wiretest.RecordsOf(archiveAll(t, ex), "metadata", s.URL("/page"))
	if len(m) != 1 || !strings.Contains(string(m[0].Block), "http-record: request rebuilt") ||
		!strings.Contains(string(m[0].Block), "http-record: response head rebuilt") {
		t.Errorf("metadata records %d, want one naming the rebuilt parts", len(m))
	}
}
