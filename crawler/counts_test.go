package crawler

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

// TestSummaryCountsPagesApart: the pages fetched are pages; the
// requisites and sitemaps fetched are counted beside them, in the totals,
// the host's line, the run's share and the printed summary.
func TestSummaryCountsPagesApart(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nAllow: /\nSitemap: " + h.URL("/sm.xml") + "\n")
	h.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><body><img src="/i.png"><a href="/a">a</a></body></html>`))
	}
	h.html("/a")
	h.pages["/i.png"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte{0x89, 'P', 'N', 'G'})
	}
	h.pages["/sm.xml"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.Write([]byte(`<urlset><url><loc>` + h.URL("/a") + `</loc></url></urlset>`))
	}
	cfg := testConfig(t)
	cfg.Fetch.Requisites = true
	cfg.Seeds.Sitemaps = true
	sum := crawlFor(t, cfg, h.URL("/"))
	if tt := sum.Totals; tt.Fetched != 2 || tt.Requisites != 1 || tt.Sitemaps != 1 || tt.RobotsFetches != 1 {
		t.Errorf("totals %+v; want 2 pages, 1 requisite, 1 sitemap, 1 robots.txt", tt)
	}
	if len(sum.Hosts) != 1 || sum.Hosts[0].Fetched != 2 || sum.Hosts[0].Requisites != 1 || sum.Hosts[0].Sitemaps != 1 {
		t.Errorf("hosts %+v; want the host's 2 pages, 1 requisite and 1 sitemap", sum.Hosts)
	}
	if r := sum.Runs[0]; r.Fetched != 2 || r.Requisites != 1 || r.Sitemaps != 1 {
		t.Errorf("run %+v; want 2 pages, 1 requisite, 1 sitemap", r)
	}
	var out bytes.Buffer
	sum.Print(&out)
	if !strings.Contains(out.String(), "fetched 2 pages (and 1 requisite, 1 sitemap, 1 robots.txt)") {
		t.Errorf("printed summary:\n%s", out.String())
	}
}

// TestSummaryErrorsAreURLsThatEndedInError: a page answered 429 and then
// 200 is no error; a page answered 500 at each of its three attempts is
// one error, not three.
func TestSummaryErrorsAreURLsThatEndedInError(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nAllow: /\n")
	h.html("/", "/retry", "/broken")
	var mu sync.Mutex
	asked := 0
	h.pages["/retry"] = func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		asked++
		first := asked == 1
		mu.Unlock()
		if first {
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Write([]byte("<html>ok</html>"))
	}
	h.pages["/broken"] = func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) }
	cfg := testConfig(t)
	cfg.Politeness.MaxFailures = 3
	sum := crawlFor(t, cfg, h.URL("/"))
	broken := 0
	for _, p := range h.paths() {
		if p == "/broken" {
			broken++
		}
	}
	if asked != 2 || broken != 3 {
		t.Fatalf("/retry asked %d times, /broken %d; want 2 and 3", asked, broken)
	}
	if sum.Totals.Errors != 1 || len(sum.Hosts) != 1 || sum.Hosts[0].Errors != 1 || sum.Runs[0].Errors != 1 {
		t.Errorf("errors: totals %d, hosts %+v, run %d; want 1, /broken alone", sum.Totals.Errors, sum.Hosts, sum.Runs[0].Errors)
	}
}

// TestErrorsAcrossRuns: a URL that failed in one run and got an answer in
// a later run is no error; one that failed again is the error of the run
// of its last attempt, also for a directory crawled before runs.jsonl
// existed.
func TestErrorsAcrossRuns(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	write := func(name string, lines ...any) {
		var b bytes.Buffer
		for _, l := range lines {
			j, _ := json.Marshal(l)
			b.Write(append(j, '\n'))
		}
		if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const host = "http://a.test:80"
	page := func(s int, path string, status int) crawllog.CrawlEntry {
		return crawllog.CrawlEntry{Time: at(s), URL: "http://a.test" + path, Host: host, Kind: "page", Status: status}
	}
	write(crawllog.RunsLogFile,
		crawllog.RunEntry{Time: at(10), Event: crawllog.RunStart, Mode: crawllog.ModeCrawl},
		crawllog.RunEntry{Time: at(19), Event: crawllog.RunEnd, Mode: crawllog.ModeCrawl})
	write(crawllog.CrawlLogFile,
		page(1, "/old", 503), // before runs.jsonl: a run of its own
		page(11, "/x", 503),
		page(12, "/y", 500),
		crawllog.CrawlEntry{Time: at(13), URL: "http://a.test/z", Host: host, Kind: "page", Error: "connection refused"})
	h, err := readHistory(dir)
	if err != nil {
		t.Fatal(err)
	}
	now := at(20)
	for _, e := range []crawllog.CrawlEntry{page(21, "/x", 200), page(22, "/y", 500)} {
		h.failing.note(e, now, e.Status >= 500)
	}
	byHost, byRun := h.failing.counts()
	if byHost[host] != 3 {
		t.Errorf("errors %d; want 3: /old, /y and /z", byHost[host])
	}
	if len(h.runs) != 2 || byRun[h.runs[0].Started] != 1 || byRun[h.runs[1].Started] != 1 || byRun[now] != 1 {
		t.Errorf("errors by run %v (runs %+v); want /old in the first, /z in the second, /y in this one", byRun, h.runs)
	}
}
