package crawler

import (
	"bytes"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/crawlproject/crawl/internal/wiretest"
	"github.com/crawlproject/crawl/mirror"
)

// brotlied returns b in the br coding (RFC 7932).
func brotlied(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	bw := brotli.NewWriter(&buf)
	if _, err := bw.Write(b); err != nil || bw.Close() != nil {
		t.Fatal("brotli: write failed")
	}
	return buf.Bytes()
}

// TestPagesAskForCompressedBodies: pages are asked for with
// Accept-Encoding: gzip, br (RFC 9110 12.5.3), robots.txt still with
// identity; a gzip page and a br page are read for their links; the WARC
// keeps each body as received, its payload digest over those octets (WARC
// 1.1 section 5.9); the mirror holds the decoded page.
func TestPagesAskForCompressedBodies(t *testing.T) {
	h := newTestHost(t)
	var mu sync.Mutex
	asked := map[string]string{} // path -> Accept-Encoding
	note := func(r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		asked[r.URL.Path] = r.Header.Get("Accept-Encoding")
	}
	h.robots = func(w http.ResponseWriter, r *http.Request) {
		note(r)
		w.Write([]byte("User-agent: *\nDisallow: /private\n"))
	}
	home := []byte(`<!doctype html><html><body><h1>home</h1><a href="/b">b</a> <a href="/private/x">p</a></body></html>`)
	gzHome := gzipped(t, home)
	brPage := brotlied(t, []byte(`<!doctype html><html><body><h1>b</h1><a href="/c">c</a></body></html>`))
	h.pages["/"] = func(w http.ResponseWriter, r *http.Request) {
		note(r)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gzHome)
	}
	h.pages["/b"] = func(w http.ResponseWriter, r *http.Request) {
		note(r)
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "br")
		w.Write(brPage)
	}
	h.html("/c")
	cfg := testConfig(t)
	cfg.Archive.Mirror = true
	crawlFor(t, cfg, h.URL("/"))

	if got := h.paths(); !slices.Contains(got, "/b") || !slices.Contains(got, "/c") {
		t.Errorf("requests %v; want the gzip page's link /b and the br page's link /c followed", got)
	}
	h.assertNever("/private")
	mu.Lock()
	if asked["/"] != "gzip, br" || asked["/b"] != "gzip, br" {
		t.Errorf("pages asked with Accept-Encoding %q and %q; want \"gzip, br\"", asked["/"], asked["/b"])
	}
	if asked["/robots.txt"] != "identity" {
		t.Errorf("robots.txt asked with Accept-Encoding %q; want identity", asked["/robots.txt"])
	}
	mu.Unlock()

	recs := wiretest.WARCRecords(t, cfg.Out)
	for path, sent := range map[string][]byte{"/": gzHome, "/b": brPage} {
		resp := wiretest.RecordsOf(recs, "response", h.URL(path))
		if len(resp) != 1 {
			t.Fatalf("%d response records for %s, want 1", len(resp), path)
		}
		rec := resp[0]
		payload, _ := rec.Payload()
		if !bytes.Equal(payload, sent) {
			t.Errorf("%s: WARC payload %.40q; want the %d coded octets as sent", path, payload, len(sent))
		}
		if err := rec.VerifyPayloadDigest(); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}

	root := filepath.Join(cfg.Out, "archive", "mirror")
	u, _ := url.Parse(h.URL("/"))
	p, err := mirror.Path(root, u)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(p); err != nil || !strings.Contains(string(b), "<h1>home</h1>") {
		t.Errorf("mirror file of the gzip page: %v, %.60q; want the decoded page", err, b)
	}
	u.Path = "/b"
	p, _ = mirror.Path(root, u)
	if b, err := os.ReadFile(p); err != nil || !strings.Contains(string(b), "<h1>b</h1>") {
		t.Errorf("mirror file of the br page: %v, %.60q; want the decoded page", err, b)
	}
}
