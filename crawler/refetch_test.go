package crawler

import (
	"fmt"
	"testing"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/internal/wiretest"
)

// TestSummaryCountsAPageFetchedTwiceOnce: a page answered twice (a 503
// and then its page, a body cut short and then whole) is one page fetched
// in the summary, its host's count and its run's share, while every answer
// still counts under its status; it counted as two. A later run reading
// the logs back counts it once too.
func TestSummaryCountsAPageFetchedTwiceOnce(t *testing.T) {
	index := `<a href="/flaky">f</a><a href="/cut">c</a>`
	whole := `<html>whole</html>`
	s := wiretest.NewServer(t, map[string]wiretest.Route{
		"/": {Resp: fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(index), index)},
		"/flaky": {Resp: "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 0\r\nContent-Length: 0\r\n\r\n",
			Then: &wiretest.Route{Resp: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"}},
		"/cut": {Resp: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n<html>", End: "close",
			Then: &wiretest.Route{Resp: fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(whole), whole)}},
	}, nil)
	cfg := testConfig(t)
	sum := crawlFor(t, cfg, s.URL("/"))
	for _, p := range []string{"/flaky", "/cut"} {
		if n := len(s.Requests(p)); n != 2 {
			t.Fatalf("%s requested %d times, want twice (the case counted)", p, n)
		}
	}
	check := func(run string, sum *crawllog.Summary) {
		t.Helper()
		if sum.Totals.Fetched != 3 {
			t.Errorf("%s: totals fetched %d, want 3 pages", run, sum.Totals.Fetched)
		}
		if got := sum.Runs[0].Fetched; got != 3 {
			t.Errorf("%s: first run's share %d pages, want 3", run, got)
		}
		for _, h := range sum.Hosts {
			if h.Host != "http://"+s.Addr() {
				continue
			}
			if h.Fetched != 3 || h.PagesByStatus["200"] != 4 || h.PagesByStatus["503"] != 1 {
				t.Errorf("%s: host fetched %d, by status %v; want 3 pages, 4 answers 200 and one 503", run, h.Fetched, h.PagesByStatus)
			}
		}
	}
	check("first run", sum)
	check("second run", crawlFor(t, cfg, s.URL("/")))
}

// TestRefetchSetForgetsFinalAnswers: only a URL whose answer may be
// followed by another fetch (429, 5xx, cut short) is remembered, so the
// set holds no page fetched for good.
func TestRefetchSetForgetsFinalAnswers(t *testing.T) {
	r := newRefetchSet()
	for i, c := range []struct {
		status    int
		truncated bool
		again     bool
	}{{503, false, false}, {500, false, true}, {200, true, true}, {200, false, true}, {200, false, false}} {
		if again := r.answered(crawllog.CrawlEntry{URL: "http://h/x", Status: c.status, Truncated: c.truncated}); again != c.again {
			t.Errorf("answer %d (%d): again %v, want %v", i, c.status, again, c.again)
		}
	}
	r.answered(crawllog.CrawlEntry{URL: "http://h/404", Status: 404})
	r.answered(crawllog.CrawlEntry{URL: "http://h/gone", Status: 500})
	r.forget("http://h/gone")
	if len(r.m) != 0 {
		t.Errorf("%d URLs remembered, want none", len(r.m))
	}
}
