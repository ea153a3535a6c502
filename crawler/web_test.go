package crawler

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// testHost is one local site with its own robots.txt and pages, recording
// every request it receives: the server-side evidence the tests read.
type testHost struct {
	t      *testing.T
	srv    *httptest.Server
	robots func(w http.ResponseWriter, r *http.Request)
	pages  map[string]func(w http.ResponseWriter, r *http.Request)

	mu   sync.Mutex
	reqs []hostRequest
	busy int
	max  int // most requests in flight at once
}

type hostRequest struct {
	Start time.Time
	Path  string // path and query
	UA    string
}

func newTestHost(t *testing.T) *testHost {
	h := &testHost{t: t, pages: map[string]func(http.ResponseWriter, *http.Request){}}
	h.srv = httptest.NewUnstartedServer(http.HandlerFunc(h.serve))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h.srv.Listener = l
	h.srv.Start()
	t.Cleanup(h.srv.Close)
	return h
}

func (h *testHost) serve(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.reqs = append(h.reqs, hostRequest{Start: time.Now(), Path: r.URL.RequestURI(), UA: r.UserAgent()})
	h.busy++
	h.max = max(h.max, h.busy)
	h.mu.Unlock()
	defer func() { h.mu.Lock(); h.busy--; h.mu.Unlock() }()
	if r.URL.Path == "/robots.txt" {
		if h.robots == nil {
			http.NotFound(w, r)
			return
		}
		h.robots(w, r)
		return
	}
	if p, ok := h.pages[r.URL.RequestURI()]; ok {
		p(w, r)
		return
	}
	http.NotFound(w, r)
}

// URL returns the absolute URL of path on this host.
func (h *testHost) URL(path string) string { return h.srv.URL + path }

// robotsText serves body as robots.txt.
func (h *testHost) robotsText(body string) {
	h.robots = func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, body) }
}

// html serves a page linking to links.
func (h *testHost) html(path string, links ...string) {
	h.pages[path] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var b strings.Builder
		b.WriteString("<!doctype html><html><body><h1>" + path + "</h1>")
		for _, l := range links {
			fmt.Fprintf(&b, `<a href="%s">%s</a> `, l, l)
		}
		b.WriteString("</body></html>")
		fmt.Fprint(w, b.String())
	}
}

// serveTyped answers path with body under the Content-Type contentType.
func (h *testHost) serveTyped(path, contentType, body string) {
	h.pages[path] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Write([]byte(body))
	}
}

func (h *testHost) requests() []hostRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]hostRequest(nil), h.reqs...)
}

func (h *testHost) paths() []string {
	var out []string
	for _, r := range h.requests() {
		out = append(out, r.Path)
	}
	return out
}

// assertRobotsFirst proves invariant 1: no request to the host before its
// robots.txt was fetched.
func (h *testHost) assertRobotsFirst() {
	h.t.Helper()
	reqs := h.requests()
	if len(reqs) > 0 && reqs[0].Path != "/robots.txt" {
		h.t.Errorf("%s: first request was %s, not /robots.txt", h.srv.URL, reqs[0].Path)
	}
}

// assertMinGap proves invariant 3 for a fixed interval: no two request
// starts to the host closer than gap.
//
// The gap is measured where the server sees the requests, and the crawler
// paces its own starts with a margin of 1 ms (politeness.margin): a request
// that reaches the server later after its start than the next one does
// shortens the gap seen here. So the tests that assert such gaps (this,
// or by reading the request starts) do not call t.Parallel: they run
// alone, as the tests that measure memory or count goroutines do.
func (h *testHost) assertMinGap(gap time.Duration) {
	h.t.Helper()
	reqs := h.requests()
	for i := 1; i < len(reqs); i++ {
		if d := reqs[i].Start.Sub(reqs[i-1].Start); d < gap {
			h.t.Errorf("%s: %s then %s only %v apart, pace is %v", h.srv.URL, reqs[i-1].Path, reqs[i].Path, d, gap)
		}
	}
	if h.max > 1 {
		h.t.Errorf("%s: %d requests in flight at once, per_host is 1", h.srv.URL, h.max)
	}
}

// assertNever proves invariant 2: no request for a path with one of prefixes.
func (h *testHost) assertNever(prefixes ...string) {
	h.t.Helper()
	for _, r := range h.requests() {
		for _, p := range prefixes {
			if strings.HasPrefix(r.Path, p) {
				h.t.Errorf("%s: fetched %s, which robots.txt disallows", h.srv.URL, r.Path)
			}
		}
	}
}
