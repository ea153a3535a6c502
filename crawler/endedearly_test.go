package crawler

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/internal/wiretest"
)

// A page whose server over-states its Content-Length (or ends a chunked
// body early) is archived as far as it came; its links are followed; it
// is fetched once more in case that was a passing fault (a proxy's idle
// timeout can also cut a page in half for good), and the second time alike the part received is the page; the
// crawl log and the metadata records say so; the host is not failing. A
// page cut only the first time is archived whole the second. A robots.txt
// that ends early is still an unreachable one (RFC 9309 2.3.1.4), tried
// again.
func TestCrawlTakesPagesTheServerEndedEarly(t *testing.T) {
	t.Parallel()
	long := `<html><body><a href="/fromlong">x</a></body></html>`
	chunk := `<html><a href="/fromchunk">y</a>`
	whole := `<html><a href="/fromwhole">w</a></html>`
	index := `<a href="/longcl">l</a><a href="/chunkcut">c</a><a href="/passing">p</a>`
	routes := map[string]wiretest.Route{
		"/":         {Resp: fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(index), index)},
		"/longcl":   {Resp: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n" + long, End: "close"},
		"/chunkcut": {Resp: fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(chunk), chunk), End: "close"},
		"/passing": {Resp: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n<html><a href=", End: "close",
			Then: &wiretest.Route{Resp: fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(whole), whole)}},
		"/fromwhole": {Resp: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"},
		"/fromlong":  {Resp: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"},
		"/fromchunk": {Resp: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"},
	}
	s := wiretest.NewServer(t, routes, nil)
	robotsCut := wiretest.NewServer(t, map[string]wiretest.Route{
		"/robots.txt": {Resp: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 500\r\n\r\nUser-agent: *\nAllow: /\n", End: "close"},
	}, nil)
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 10 * time.Millisecond
	cfg.Robots.RetryBase = 50 * time.Millisecond
	sum := crawlFor(t, cfg, s.URL("/"), robotsCut.URL("/page"))

	for path, want := range map[string]int{"/longcl": 2, "/chunkcut": 2, "/passing": 2, "/fromlong": 1, "/fromchunk": 1, "/fromwhole": 1} {
		if n := len(s.Requests(path)); n != want {
			t.Errorf("%s requested %d times, want %d", path, n, want)
		}
	}
	entries := map[string][]crawllog.CrawlEntry{}
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		entries[e.URL] = append(entries[e.URL], e)
	}
	recs := wiretest.WARCRecords(t, cfg.Out)
	for path, want := range map[string]string{
		"/longcl":   fmt.Sprintf("after %d of the 5000 body octets", len(long)),
		"/chunkcut": fmt.Sprintf("inside the chunked body, after %d octets", len(chunk)),
	} {
		es := entries[s.URL(path)]
		if len(es) != 2 {
			t.Fatalf("%s: crawl log %+v, want two lines", path, es)
		}
		for i, then := range []string{"fetched once more", "not fetched again"} {
			if e := es[i]; e.Status != 200 || e.Error != "" || !e.Truncated || !strings.Contains(e.Note, want) || !strings.Contains(e.Note, then) {
				t.Errorf("%s: crawl log line %d %+v: want 200, no error, truncated, a note saying %q and %q", path, i+1, e, want, then)
			}
		}
		resps, meta := wiretest.RecordsOf(recs, "response", s.URL(path)), wiretest.RecordsOf(recs, "metadata", s.URL(path))
		if len(resps) != 2 || resps[1].Get("WARC-Truncated") != archive.TruncatedDisconnect {
			t.Errorf("%s: %d response records, want 2 with WARC-Truncated: disconnect", path, len(resps))
		}
		if len(meta) != 2 || !strings.Contains(string(meta[1].Block), "body-ended-early: the server closed the connection") ||
			!strings.Contains(string(meta[1].Block), "not fetched again") || !strings.Contains(string(meta[1].Block), "outlink: ") {
			t.Errorf("%s: metadata records %d, want two saying why and listing the outlink", path, len(meta))
		}
	}
	if es := entries[s.URL("/passing")]; len(es) != 2 || !es[0].Truncated || es[1].Truncated || es[1].Note != "" {
		t.Errorf("/passing: crawl log %+v, want the cut answer, then the whole one", es)
	}
	if resps := wiretest.RecordsOf(recs, "response", s.URL("/passing")); len(resps) != 2 || resps[1].Get("WARC-Truncated") != "" {
		t.Errorf("/passing: %d response records, want the cut one, then the whole one", len(resps))
	}
	if n := len(robotsCut.Requests("/robots.txt")); n < 2 || len(robotsCut.Requests("/page")) != 0 {
		t.Errorf("robots.txt ended early: asked %d times, /page %d times; want it retried as unreachable, /page never asked",
			n, len(robotsCut.Requests("/page")))
	}
	for _, h := range sum.Hosts {
		if h.Host == "http://"+s.Addr() && (h.State == "dropped" || h.Errors != 0) {
			t.Errorf("host %+v: want no errors, not dropped", h)
		}
	}
}

// TestEndedEarlyWithOneAttempt: with politeness.max_failures 1 there is no
// attempt left for the second fetch, so the first cut answer is the page
// and the note says so, promising no fetch that never comes.
func TestEndedEarlyWithOneAttempt(t *testing.T) {
	t.Parallel()
	page := `<html><a href="/next">n</a></html>`
	s := wiretest.NewServer(t, map[string]wiretest.Route{
		"/cut":  {Resp: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 900\r\n\r\n" + page, End: "close"},
		"/next": {Resp: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"},
	}, nil)
	cfg := testConfig(t)
	cfg.Politeness.MaxFailures = 1
	crawlFor(t, cfg, s.URL("/cut"))
	if n := len(s.Requests("/cut")); n != 1 {
		t.Errorf("/cut requested %d times, want once", n)
	}
	if n := len(s.Requests("/next")); n != 1 {
		t.Errorf("/next requested %d times, want once (the cut page's link)", n)
	}
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if e.URL == s.URL("/cut") && (!strings.Contains(e.Note, "taken as the page") || strings.Contains(e.Note, "once more")) {
			t.Errorf("/cut note %q: want the part taken as the page, no second fetch promised", e.Note)
		}
	}
}
