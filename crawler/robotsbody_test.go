package crawler

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robotscache"
)

func gzipped(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// TestCodedRobotsTxtIsFollowed: a robots.txt sent gzip-coded (though the
// crawler asked for identity) is read as its text, so its Disallow holds
// (parsed as coded bytes it would have no rules: everything allowed); one
// in a coding the crawler cannot read stands for an unreachable file and
// disallows everything (RFC 9309 2.3.1.4): zstd, which is not asked for.
func TestCodedRobotsTxtIsFollowed(t *testing.T) {
	t.Parallel()
	text := []byte("User-agent: *\nDisallow: /private\n")
	gz := newTestHost(t)
	var asked []string
	gz.robots = func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.Header.Get("Accept-Encoding"))
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gzipped(t, text))
	}
	gz.html("/", "/private/x", "/public")
	gz.html("/public")
	zst := newTestHost(t)
	zst.robots = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Encoding", "zstd")
		w.Write([]byte{0x28, 0xb5, 0x2f, 0xfd})
	}
	zst.html("/")
	cfg := testConfig(t)
	cfg.Robots.RetryBase = 10 * time.Second // one attempt within the test
	crawlFor(t, cfg, gz.URL("/"), zst.URL("/"))
	gz.assertNever("/private")
	if got := strings.Join(gz.paths(), " "); !strings.Contains(got, "/public") {
		t.Errorf("gzip host: requests %s; want /public fetched", got)
	}
	if len(asked) == 0 || asked[0] != "identity" {
		t.Errorf("robots.txt asked with Accept-Encoding %q, want identity", asked)
	}
	if p := zst.paths(); len(p) != 1 || p[0] != "/robots.txt" {
		t.Errorf("zstd host: requests %v; want robots.txt only", p)
	}
	var zstEntry *crawllog.RobotsEntry
	for _, e := range readJSONL[crawllog.RobotsEntry](t, filepath.Join(cfg.Out, crawllog.RobotsLogFile)) {
		if e.Host == zst.srv.URL {
			zstEntry = &e
		}
	}
	if zstEntry == nil || zstEntry.Outcome != robotscache.OutcomeUnreachable || !strings.Contains(zstEntry.Error, `"zstd"`) {
		t.Errorf("zstd robots.txt logged as %+v; want unreachable, naming the coding", zstEntry)
	}
}

// TestRobotsRedirectToDeferredHostEnds: a robots.txt that redirects to a
// host the crawl has deferred (its robots.txt answered 503 with a
// Retry-After of two hours) cannot be followed now. That is an outcome
// for the redirecting host, unreachable and retried with back-off (RFC
// 9309 2.3.1.4). Taken as "not sent", it would have the host ask for its
// robots.txt at every turn of its pace, and the crawl would never end.
func TestRobotsRedirectToDeferredHostEnds(t *testing.T) {
	t.Parallel()
	b := newTestHost(t)
	b.robots = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "7200")
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	b.html("/")
	a := newTestHost(t)
	a.robots = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL("/robots.txt"), http.StatusMovedPermanently)
	}
	a.html("/")
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 50 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// B first, so that it is deferred when A's robots.txt redirects to it.
	if _, err := Run(ctx, cfg, Options{Seeds: []string{b.URL("/"), a.URL("/")}}); err != nil {
		t.Fatalf("crawl: %v (it must end by itself)", err)
	}
	if n := len(a.requests()); n == 0 || n > cfg.Politeness.MaxFailures+1 {
		t.Errorf("A's robots.txt requested %d times; want at most %d (one per retry)", n, cfg.Politeness.MaxFailures+1)
	}
	for _, p := range a.paths() {
		if p != "/robots.txt" {
			t.Errorf("A's %s fetched with its robots.txt unread", p)
		}
	}
	found := false
	for _, e := range readJSONL[crawllog.RobotsEntry](t, filepath.Join(cfg.Out, crawllog.RobotsLogFile)) {
		if e.Host == a.srv.URL && e.Outcome == robotscache.OutcomeUnreachable && strings.Contains(e.Error, "cannot be asked now") {
			found = true
		}
	}
	if !found {
		t.Error("robots.jsonl has no unreachable line for A naming the redirect it could not follow")
	}
}

// TestRobotsRedirectUsesTheTargetsCachedCopy: hosts whose robots.txt
// redirects to another host's robots.txt (http://a to https://www.a, a
// hosting platform's shared file) must not each fetch it again, waiting
// in a worker for that host's pace. A fresh cached copy of it answers
// with no request; its rules apply to the redirecting host (RFC 9309
// 2.3.1.2), and robots.jsonl names the copy.
func TestRobotsRedirectUsesTheTargetsCachedCopy(t *testing.T) {
	t.Parallel()
	b := newTestHost(t)
	b.robotsText("User-agent: *\nDisallow: /private\n")
	b.html("/")
	var as []*testHost
	seeds := []string{b.URL("/")}
	for range 3 {
		a := newTestHost(t)
		a.robots = func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(300 * time.Millisecond) // B's own robots.txt is read first
			http.Redirect(w, r, b.URL("/robots.txt"), http.StatusMovedPermanently)
		}
		a.html("/", "/private/x", "/ok")
		a.html("/ok")
		as = append(as, a)
		seeds = append(seeds, a.URL("/"))
	}
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 50 * time.Millisecond
	crawlFor(t, cfg, seeds...)
	n := 0
	for _, p := range b.paths() {
		if p == "/robots.txt" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("B's robots.txt requested %d times, want once", n)
	}
	for _, a := range as {
		a.assertNever("/private")
		if got := strings.Join(a.paths(), " "); !strings.Contains(got, "/ok") {
			t.Errorf("%s: requests %s; want /ok fetched", a.srv.URL, got)
		}
	}
	copies := 0
	for _, e := range readJSONL[crawllog.RobotsEntry](t, filepath.Join(cfg.Out, crawllog.RobotsLogFile)) {
		if e.CopyOf == b.srv.URL && e.Outcome == robotscache.OutcomeParsed && e.URL == b.URL("/robots.txt") {
			copies++
		}
	}
	if copies != 3 {
		t.Errorf("%d robots.jsonl lines answered from B's copy, want 3", copies)
	}
}

// TestRobotsRedirectHopsKeepPerHost: robots.txt redirect hops from several
// hosts to one slow host take places among its requests in flight, so it
// never has one from each at once: politeness.per_host (1) holds.
func TestRobotsRedirectHopsKeepPerHost(t *testing.T) {
	t.Parallel()
	b := newTestHost(t)
	b.robots = func(w http.ResponseWriter, _ *http.Request) {
		time.Sleep(300 * time.Millisecond)
		w.WriteHeader(http.StatusServiceUnavailable) // never cached as a copy
	}
	b.html("/")
	seeds := []string{b.URL("/")}
	for range 3 {
		a := newTestHost(t)
		a.robots = func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, b.URL("/robots.txt"), http.StatusMovedPermanently)
		}
		a.html("/")
		seeds = append(seeds, a.URL("/"))
	}
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 10 * time.Millisecond
	cfg.Politeness.MaxFailures = 2
	// The pace between B's requests plays no part here, only how many are
	// in flight: with no adaptive delay (twice B's 300 ms) and short
	// back-off steps after its 503s, the four hosts' robots.txt fetches
	// and their retries take a second or two, not eight.
	cfg.Politeness.FetchTimeFactor = 0
	cfg.Politeness.BackoffBase = 50 * time.Millisecond
	cfg.Politeness.BackoffMax = 200 * time.Millisecond
	crawlFor(t, cfg, seeds...)
	b.mu.Lock()
	most := b.max
	b.mu.Unlock()
	if most != 1 {
		t.Errorf("B had %d requests in flight at once; politeness.per_host is 1", most)
	}
	if n := len(b.requests()); n < 2 {
		t.Errorf("B saw %d requests; the hops did not reach it", n)
	}
}

// TestRobotsRedirectLoopBetweenHostsEnds: two hosts whose robots.txt
// redirect to each other (a <-> www.a) must not hang the crawl now that
// redirect hops take places among the target's requests in flight, each
// host's lease waiting for a place the other's lease holds. A place is
// held by a request being sent only, and the loop ends as RFC 9309 2.3.1.2
// has it: past five redirects, robots.txt is unavailable.
func TestRobotsRedirectLoopBetweenHostsEnds(t *testing.T) {
	t.Parallel()
	a, b := newTestHost(t), newTestHost(t)
	a.robots = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, b.URL("/robots.txt"), http.StatusMovedPermanently)
	}
	b.robots = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, a.URL("/robots.txt"), http.StatusMovedPermanently)
	}
	a.html("/")
	b.html("/")
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 10 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := Run(ctx, cfg, Options{Seeds: []string{a.URL("/"), b.URL("/")}}); err != nil {
		t.Fatalf("crawl: %v (it must end by itself)", err)
	}
	for _, h := range []*testHost{a, b} {
		got := strings.Join(h.paths(), " ")
		if !strings.HasSuffix(got, " /") {
			t.Errorf("%s: requests %s; want / fetched, robots.txt unavailable after the loop", h.srv.URL, got)
		}
		h.mu.Lock()
		most := h.max
		h.mu.Unlock()
		if most > 1 {
			t.Errorf("%s had %d requests in flight at once", h.srv.URL, most)
		}
	}
}

// TestRobotsRedirectTargetKeptForTheNext: eight hosts whose robots.txt
// redirects to the robots.txt of a host that is not crawled itself must
// not ask it eight times, one at a time. The redirects to it wait for
// the first, whose answer is kept as that host's robots.txt, and are
// answered from it.
func TestRobotsRedirectTargetKeptForTheNext(t *testing.T) {
	t.Parallel()
	b := newTestHost(t)
	b.robotsText("User-agent: *\nDisallow: /private\n")
	var seeds []string
	var as []*testHost
	for range 8 {
		a := newTestHost(t)
		a.robots = func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, b.URL("/robots.txt"), http.StatusMovedPermanently)
		}
		a.html("/", "/private/x")
		as = append(as, a)
		seeds = append(seeds, a.URL("/"))
	}
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 10 * time.Millisecond
	crawlFor(t, cfg, seeds...)
	if n := len(b.requests()); n != 1 {
		t.Errorf("B's robots.txt requested %d times; want once", n)
	}
	for _, a := range as {
		a.assertNever("/private")
	}
}
