package crawler

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/crawlproject/crawl/crawllog"
)

// TestCancelAbortsTheRequestInFlight proves that stopping a crawl does not
// wait out fetch.timeout: the page request the server is holding is
// aborted at once (the server sees its client go away while the test still
// holds the response), and the aborted page is not logged as fetched.
func TestCancelAbortsTheRequestInFlight(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nAllow: /\n")
	arrived := make(chan struct{})
	gone := make(chan struct{})
	release := make(chan struct{})
	h.pages["/hang"] = func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		select {
		case <-r.Context().Done():
			close(gone)
		case <-release:
		}
	}
	cfg := testConfig(t)
	cfg.Fetch.Timeout = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type result struct {
		sum *crawllog.Summary
		err error
	}
	done := make(chan result, 1)
	go func() {
		sum, err := Run(ctx, cfg, Options{Seeds: []string{h.URL("/hang")}})
		done <- result{sum, err}
	}()
	<-arrived
	cancel()
	select {
	case <-gone:
	case <-time.After(30 * time.Second):
		close(release)
		t.Fatal("the request in flight was not aborted when the crawl was cancelled")
	}
	r := <-done
	if !errors.Is(r.err, context.Canceled) {
		t.Errorf("Run error = %v, want context.Canceled", r.err)
	}
	if r.sum == nil || !r.sum.Interrupted {
		t.Fatalf("summary %+v: want Interrupted", r.sum)
	}
	// The aborted page stays in the frontier for the next run: the summary
	// counts it queued (it said "still queued 0").
	if r.sum.Totals.Queued != 1 || len(r.sum.Hosts) != 1 || r.sum.Hosts[0].Queued != 1 {
		t.Errorf("interrupted: totals %+v, hosts %+v; want the aborted page still queued", r.sum.Totals, r.sum.Hosts)
	}
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if e.URL == h.URL("/hang") {
			t.Errorf("aborted page logged: %+v", e)
		}
	}
	close(release)
	h.pages["/hang"] = func(w http.ResponseWriter, r *http.Request) {}
	// The aborted request counts as lasting the fetch.timeout in force
	// (README guarantee 7): a short one keeps the test short.
	cfg.Fetch.Timeout = 500 * time.Millisecond
	sum := crawlFor(t, cfg, h.URL("/hang"))
	if sum.Totals.Errors != 0 || sum.Totals.Fetched != 1 || sum.Hosts[0].Fetched != 1 {
		t.Errorf("resumed: totals %+v hosts %+v: want the aborted page fetched once and no error", sum.Totals, sum.Hosts)
	}
	reqs := h.requests()
	if n := len(reqs); n < 2 || reqs[n-1].Path != "/hang" || reqs[n-2].Path != "/hang" {
		t.Fatalf("server saw %v, want the aborted /hang and then /hang again", h.paths())
	}
	if gap := reqs[len(reqs)-1].Start.Sub(reqs[len(reqs)-2].Start); gap < cfg.Fetch.Timeout {
		t.Errorf("/hang requested again %v after the aborted request started, want at least fetch.timeout %v", gap, cfg.Fetch.Timeout)
	}
}

// TestRunJoinsEveryGoroutine proves DESIGN.md's "every goroutine is joined
// before Run returns": after a crawl over keep-alive connections, nothing
// of the crawl (workers, progress, net/http connection loops) is left.
func TestRunJoinsEveryGoroutine(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nAllow: /\n")
	h.html("/", "/a", "/b")
	h.html("/a", "/b")
	h.html("/b")
	ignore := goleak.IgnoreCurrent()
	cfg := testConfig(t)
	sum := crawlFor(t, cfg, h.URL("/"))
	if sum.Totals.Fetched != 3 {
		t.Errorf("pages = %d, want 3", sum.Totals.Fetched)
	}
	// The server is still up, so a client connection left open would
	// still be alive; the server's own connection goroutines are not the
	// crawl's.
	if err := goleak.Find(ignore, goleak.IgnoreAnyFunction("net/http.(*conn).serve"),
		goleak.IgnoreAnyFunction("net/http.(*connReader).backgroundRead")); err != nil {
		t.Errorf("goroutines outlive Run: %v", err)
	}
}

// TestCancelDuringRobotsFetch: a robots.txt fetch cut short because the
// crawl is stopping is not an outcome of the host (RFC 9309 2.3.1.4 is
// about servers that fail, not about us leaving): nothing is logged or
// stored, no failure is counted, and the next run fetches robots.txt again
// as soon as the aborted request could have ended (its fetch.timeout) and
// crawls the host.
func TestCancelDuringRobotsFetch(t *testing.T) {
	h := newTestHost(t)
	arrived := make(chan struct{}, 1)
	h.robots = func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-r.Context().Done()
	}
	h.pages["/"] = func(w http.ResponseWriter, r *http.Request) {}
	cfg := testConfig(t)
	cfg.Fetch.Timeout = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, cfg, Options{Seeds: []string{h.URL("/")}})
		done <- err
	}()
	<-arrived
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Run error = %v, want context.Canceled", err)
	}
	if n := len(readJSONL[crawllog.RobotsEntry](t, filepath.Join(cfg.Out, crawllog.RobotsLogFile))); n != 0 {
		t.Errorf("robots.jsonl has %d lines for an aborted fetch, want none", n)
	}
	h.robotsText("User-agent: *\nAllow: /\n")
	cfg.Fetch.Timeout = 500 * time.Millisecond
	start := time.Now()
	sum := crawlFor(t, cfg, h.URL("/"))
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("resume took %v: robots.txt should be fetched again once the aborted request's timeout is over", d)
	}
	if r := h.requests(); len(r) >= 2 && r[1].Start.Sub(r[0].Start) < cfg.Fetch.Timeout {
		t.Errorf("robots.txt requested again %v after the aborted one, want at least fetch.timeout %v", r[1].Start.Sub(r[0].Start), cfg.Fetch.Timeout)
	}
	if sum.Totals.Fetched != 1 || sum.Totals.Errors != 0 {
		t.Errorf("resumed totals %+v: want the page fetched and no error", sum.Totals)
	}
	if p := h.paths(); len(p) != 3 || p[0] != "/robots.txt" || p[1] != "/robots.txt" || p[2] != "/" {
		t.Errorf("server saw %v, want robots.txt (aborted), robots.txt, /", p)
	}
}
