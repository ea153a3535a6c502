package crawler

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/internal/wiretest"
	"github.com/crawlproject/crawl/scheduler"
)

// failConfig is testConfig at a fast pace: the failure policy's tests
// count requests and read the logs, never the clock.
func failConfig(t *testing.T) config.Config {
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 2 * time.Millisecond
	cfg.Politeness.BackoffBase = 50 * time.Millisecond
	cfg.Politeness.MaxFailures = 5
	cfg.Fetch.Workers = 4
	return cfg
}

// brokenSite serves "/" linking first to the broken paths, which always
// answer 500, then to good pages /p0 ... /p<good-1>.
func brokenSite(t *testing.T, good int, broken ...string) *testHost {
	h := newTestHost(t)
	links := append([]string(nil), broken...)
	for i := range good {
		p := fmt.Sprintf("/p%d", i)
		links = append(links, p)
		h.html(p)
	}
	h.html("/", links...)
	for _, b := range broken {
		h.pages[b] = func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "broken", http.StatusInternalServerError) }
	}
	return h
}

// crawlEvents runs a crawl and returns its summary and the events it
// narrated.
func crawlEvents(t *testing.T, cfg config.Config, seeds ...string) (*crawllog.Summary, []Event) {
	t.Helper()
	var mu sync.Mutex
	var evs []Event
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sum, err := Run(ctx, cfg, Options{Seeds: seeds, Events: func(e Event) { mu.Lock(); evs = append(evs, e); mu.Unlock() }})
	if err != nil {
		t.Fatalf("crawl: %v", err)
	}
	return sum, evs
}

// counts returns the requests h received per path.
func (h *testHost) counts() map[string]int {
	c := map[string]int{}
	for _, p := range h.paths() {
		c[p]++
	}
	return c
}

// assertNoBackoff checks that nothing slowed the host: no back-off or
// Retry-After event, and no request paced by one (crawl.jsonl's
// pace_rule is what held each start).
func assertNoBackoff(t *testing.T, cfg config.Config, evs []Event) {
	t.Helper()
	for _, e := range evs {
		if e.Kind == EventHost {
			t.Errorf("host event %q: %s; want none, a 500 slows no host", e.Reason, e.Detail)
		}
	}
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if strings.Contains(e.PaceRule, "back-off") || strings.Contains(e.PaceRule, "retry-after") {
			t.Errorf("%s paced by %q", e.URL, e.PaceRule)
		}
	}
}

// assertFetchFailed checks that each of paths on h is logged once as
// fetch-failed after 1+retries attempts, the last an HTTP 500.
func assertFetchFailed(t *testing.T, cfg config.Config, h *testHost, paths ...string) {
	t.Helper()
	got := map[string][]crawllog.SkipEntry{}
	for _, s := range readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile)) {
		got[s.URL] = append(got[s.URL], s)
	}
	for _, p := range paths {
		s := got[h.URL(p)]
		if len(s) != 1 || s[0].Reason != "fetch-failed" || s[0].Attempts != 1+cfg.Fetch.Retries || s[0].LastError != "HTTP 500" {
			t.Errorf("%s: skips %+v, want one fetch-failed with %d attempts, last HTTP 500", p, s, 1+cfg.Fetch.Retries)
		}
	}
}

// TestDeadLinksOnAHomePageCostOnlyThemselves: a home page whose first five
// links always answer 500 (dead links) loses those five pages and nothing
// else: every good page is fetched once, the host is neither dropped nor
// slowed, and each dead link is requested 1+fetch.retries times and logged
// fetch-failed with its attempts and last error.
func TestDeadLinksOnAHomePageCostOnlyThemselves(t *testing.T) {
	dead := []string{"/dead1", "/dead2", "/dead3", "/dead4", "/dead5"}
	h := brokenSite(t, 200, dead...)
	cfg := failConfig(t)
	sum, evs := crawlEvents(t, cfg, h.URL("/"))
	c := h.counts()
	for i := range 200 {
		if p := fmt.Sprintf("/p%d", i); c[p] != 1 {
			t.Errorf("%s requested %d times, want once", p, c[p])
		}
	}
	for _, d := range dead {
		if c[d] != 1+cfg.Fetch.Retries {
			t.Errorf("%s requested %d times, want %d", d, c[d], 1+cfg.Fetch.Retries)
		}
	}
	assertFetchFailed(t, cfg, h, dead...)
	assertNoBackoff(t, cfg, evs)
	if len(sum.Hosts) != 1 || sum.Hosts[0].State != scheduler.StateDone || sum.Hosts[0].DropReason != "" || sum.ExitCode != 0 {
		t.Errorf("summary hosts %+v exit %d, want the host done, not dropped, exit 0", sum.Hosts, sum.ExitCode)
	}
	if sum.Hosts[0].PagesByStatus["200"] != 201 {
		t.Errorf("pages by status %v, want all 201 good pages", sum.Hosts[0].PagesByStatus)
	}
}

// TestThreeBrokenPagesOf203DoNotSlowTheSite: 3 always-500 pages among 203
// add at most 6 requests (each broken page requested at most 3 times) and
// no wait: no back-off, no Retry-After, every start paced by the site's
// own pace. The crawl's time is the time of its requests, so it stays
// within a few requests' time of the crawl without them.
func TestThreeBrokenPagesOf203DoNotSlowTheSite(t *testing.T) {
	broken := []string{"/b1", "/b2", "/b3"}
	h := brokenSite(t, 199, broken...)
	cfg := failConfig(t)
	_, evs := crawlEvents(t, cfg, h.URL("/"))
	c := h.counts()
	pages := 0
	for p, n := range c {
		if p != "/robots.txt" {
			pages += n
		}
	}
	if pages > 203+6 {
		t.Errorf("%d page requests, want at most 203 + 6", pages)
	}
	for _, b := range broken {
		if c[b] > 3 || c[b] == 0 {
			t.Errorf("%s requested %d times, want at most 3", b, c[b])
		}
	}
	for i := range 199 {
		if p := fmt.Sprintf("/p%d", i); c[p] != 1 {
			t.Errorf("%s requested %d times, want once", p, c[p])
		}
	}
	assertFetchFailed(t, cfg, h, broken...)
	assertNoBackoff(t, cfg, evs)
}

// TestDripPageFetchedTwiceArchivedOnce: a page whose head comes at once and
// whose body drips (a tarpit) is cut at fetch.timeout, requested once
// more, and no more; only the last cut copy is archived (WARC-Truncated:
// time), each request is in crawl.jsonl, and the URL is logged
// fetch-failed after 2 attempts. The site's other pages are fetched.
func TestDripPageFetchedTwiceArchivedOnce(t *testing.T) {
	h := newTestHost(t)
	h.html("/", "/drip", "/after")
	h.html("/after")
	h.pages["/drip"] = func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusOK)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			if _, err := w.Write([]byte("<")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-tick.C:
			}
		}
	}
	cfg := failConfig(t)
	cfg.Fetch.Timeout = 300 * time.Millisecond
	sum := crawlFor(t, cfg, h.URL("/"))
	c := h.counts()
	if c["/drip"] != 2 || c["/after"] != 1 {
		t.Errorf("requests %v, want /drip twice (at most 2) and /after once", c)
	}
	var logged []crawllog.CrawlEntry
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if e.URL == h.URL("/drip") {
			logged = append(logged, e)
		}
	}
	if len(logged) != 2 || !logged[0].Truncated || !strings.Contains(logged[0].Note, "not archived") ||
		logged[1].Attempt != 2 || !logged[1].Truncated || strings.Contains(logged[1].Note, "not archived") {
		t.Errorf("crawl log of /drip %+v, want two cut attempts, the first not archived", logged)
	}
	recs := wiretest.RecordsOf(wiretest.WARCRecords(t, cfg.Out), "response", h.URL("/drip"))
	if len(recs) != 1 || recs[0].Get("WARC-Truncated") != archive.TruncatedTime {
		t.Errorf("%d response records of /drip, want 1 with WARC-Truncated: time", len(recs))
	}
	skips := readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))
	if len(skips) != 1 || skips[0].URL != h.URL("/drip") || skips[0].Reason != "fetch-failed" || skips[0].Attempts != 2 || skips[0].LastError == "" {
		t.Errorf("skips %+v, want /drip fetch-failed after 2 attempts with its error", skips)
	}
	if sum.Hosts[0].State != scheduler.StateDone {
		t.Errorf("host %+v, want done", sum.Hosts[0])
	}
}

// TestRefusedSeedGivenUp: a seed whose port refuses connections (a typo)
// is tried politeness.max_failures times at the host's back-off and given
// up: robots.jsonl has each try, the summary names the host as dropped
// because it never answered and counts it, the exit status is 3, and the
// seed stays queued (skips.jsonl: robots-unreachable, queued).
func TestRefusedSeedGivenUp(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	seed := "http://" + addr + "/"
	cfg := failConfig(t)
	cfg.Politeness.BackoffBase = 5 * time.Millisecond
	cfg.Robots.RetryBase = time.Hour // the host's own back-off paces a refused host, not this
	sum := crawlFor(t, cfg, seed)
	tries := readJSONL[crawllog.RobotsEntry](t, filepath.Join(cfg.Out, crawllog.RobotsLogFile))
	if len(tries) != cfg.Politeness.MaxFailures {
		t.Errorf("%d robots.txt tries, want %d", len(tries), cfg.Politeness.MaxFailures)
	}
	for _, e := range tries {
		if e.Outcome != "unreachable" || !strings.Contains(e.Error, "refused") {
			t.Errorf("robots.jsonl %+v, want unreachable, connection refused", e)
		}
	}
	if len(sum.Hosts) != 1 || sum.Hosts[0].State != scheduler.StateDropped || !strings.Contains(sum.Hosts[0].DropReason, "never answered") ||
		sum.Hosts[0].Queued != 1 {
		t.Errorf("summary hosts %+v, want the host dropped as never answering, its seed queued", sum.Hosts)
	}
	if sum.Totals.DroppedHosts != 1 || sum.ExitCode != ExitHostsGivenUp || sum.Totals.Queued != 1 {
		t.Errorf("totals %+v exit %d, want 1 host given up, 1 URL queued, exit %d", sum.Totals, sum.ExitCode, ExitHostsGivenUp)
	}
	skips := readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))
	if len(skips) != 1 || skips[0].URL != seed || skips[0].Reason != "robots-unreachable" || !skips[0].Queued {
		t.Errorf("skips %+v, want the seed robots-unreachable and queued", skips)
	}
	var printed strings.Builder
	sum.Print(&printed)
	if !strings.Contains(printed.String(), "1 host(s) given up") || !strings.Contains(printed.String(), "run the same command again") {
		t.Errorf("printed summary does not say the host was given up and how to retry it:\n%s", printed.String())
	}
}

// TestOneTime503WithRetryAfter: a page that answers 503 with Retry-After: 1
// once is fetched twice; the host's next request waits the second the
// server asked for (crawl.jsonl names the Retry-After as its pace), and
// nothing is lost.
func TestOneTime503WithRetryAfter(t *testing.T) {
	h := newTestHost(t)
	h.html("/", "/busy", "/a", "/b")
	h.html("/a")
	h.html("/b")
	var mu sync.Mutex
	busy := 0
	h.pages["/busy"] = func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		busy++
		first := busy == 1
		mu.Unlock()
		if first {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, "<html>ok</html>")
	}
	cfg := failConfig(t)
	sum := crawlFor(t, cfg, h.URL("/"))
	c := h.counts()
	if c["/busy"] != 2 || c["/a"] != 1 || c["/b"] != 1 {
		t.Errorf("requests %v, want /busy twice, /a and /b once", c)
	}
	reqs := h.requests()
	for i, r := range reqs[:len(reqs)-1] {
		if r.Path == "/busy" {
			if gap := reqs[i+1].Start.Sub(r.Start); gap < time.Second {
				t.Errorf("the request after the 503 came %s later, before its Retry-After of 1s", gap)
			}
			break
		}
	}
	entries := readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile))
	for i, e := range entries[:len(entries)-1] {
		if e.Status == http.StatusServiceUnavailable {
			next := entries[i+1]
			if next.PaceRule != "retry-after 1s (Retry-After: 1)" || next.PaceSeconds < 1 {
				t.Errorf("the request after the 503 paced by %q (%gs), want the Retry-After of 1s", next.PaceRule, next.PaceSeconds)
			}
		}
	}
	if sum.Hosts[0].PagesByStatus["200"] != 4 || len(readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))) != 0 {
		t.Errorf("pages %v, want all 4 pages fetched and nothing skipped", sum.Hosts[0].PagesByStatus)
	}
}
