package robotscache

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// testHost is one local site on 127.0.0.1 with its own robots.txt and
// pages, keeping the path of every request it receives: the server-side
// evidence the tests read. robots answers /robots.txt whatever its query
// (404 when nil); pages answer by path and query.
type testHost struct {
	srv    *httptest.Server
	robots http.HandlerFunc
	pages  map[string]http.HandlerFunc

	mu   sync.Mutex
	seen []string
}

func newTestHost(t *testing.T) *testHost {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h := &testHost{pages: map[string]http.HandlerFunc{}}
	h.srv = &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	h.srv.Start()
	t.Cleanup(h.srv.Close)
	return h
}

// ServeHTTP answers r and keeps its path.
func (h *testHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.seen = append(h.seen, r.URL.RequestURI())
	h.mu.Unlock()
	serve := h.pages[r.URL.RequestURI()]
	if r.URL.Path == "/robots.txt" {
		serve = h.robots
	}
	if serve == nil {
		serve = http.NotFound
	}
	serve(w, r)
}

// URL returns the absolute URL of path on this host.
func (h *testHost) URL(path string) string { return h.srv.URL + path }

// robotsText serves body as robots.txt.
func (h *testHost) robotsText(body string) {
	h.robots = func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, body) }
}

// requests returns the paths asked for, in order.
func (h *testHost) requests() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.seen...)
}
