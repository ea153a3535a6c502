package crawler

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

// TestSummaryCoversEveryRun: after a resume, summary.json counts the whole
// crawl of the output directory, not only the last run; it starts with the
// first run, so no logged request is before it, and it lists each run's
// share.
func TestSummaryCoversEveryRun(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nAllow: /\n")
	h.html("/", "/a", "/b")
	h.html("/a")
	h.html("/b")
	h.html("/c")
	cfg := testConfig(t)
	first := crawlFor(t, cfg, h.URL("/"))
	if first.Totals.Fetched != 3 || len(first.Runs) != 1 {
		t.Fatalf("first run: fetched %d, runs %+v; want 3 pages in one run", first.Totals.Fetched, first.Runs)
	}
	sum := crawlFor(t, cfg, h.URL("/"), h.URL("/c"))
	if !sum.Started.Equal(first.Started) {
		t.Errorf("started %v, want the first run's start %v", sum.Started, first.Started)
	}
	if sum.Totals.Fetched != 4 || sum.Totals.RobotsFetches != 1 {
		t.Errorf("totals %+v: want 4 pages and 1 robots.txt over both runs", sum.Totals)
	}
	if len(sum.Hosts) != 1 || sum.Hosts[0].Fetched != 4 || sum.Hosts[0].PagesByStatus["200"] != 4 {
		t.Errorf("hosts %+v: want the host's 4 pages, all 200", sum.Hosts)
	}
	if len(sum.Runs) != 2 || sum.Runs[0].Fetched != 3 || sum.Runs[1].Fetched != 1 ||
		sum.Runs[0].RobotsFetches != 1 || sum.Runs[0].Finished == nil || sum.Runs[1].Mode != crawllog.ModeCrawl {
		t.Errorf("runs %+v: want 3 pages and the robots.txt, then 1 page", sum.Runs)
	}
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if e.Time.Before(sum.Started) {
			t.Errorf("%s logged at %v, before the crawl's start %v", e.URL, e.Time, sum.Started)
		}
	}
	var out bytes.Buffer
	sum.Print(&out)
	if !strings.Contains(out.String(), "fetched 4 pages") || !strings.Contains(out.String(), "over 2 runs") {
		t.Errorf("printed summary:\n%s", out.String())
	}
}

// TestHistoryWithoutRunLog: a directory crawled before runs.jsonl existed,
// or whose run was killed before its end line, still counts every logged
// request, and the crawl starts no later than its first entry.
func TestHistoryWithoutRunLog(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nAllow: /\n")
	h.html("/", "/a")
	h.html("/a")
	h.html("/b")
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/"))
	if err := os.Remove(filepath.Join(cfg.Out, crawllog.RunsLogFile)); err != nil {
		t.Fatal(err)
	}
	sum := crawlFor(t, cfg, h.URL("/b"))
	if sum.Totals.Fetched != 3 || len(sum.Runs) != 2 || sum.Runs[0].Fetched != 2 || sum.Runs[0].Finished != nil {
		t.Errorf("totals %+v runs %+v: want 2 pages in a run without end line, then 1", sum.Totals, sum.Runs)
	}
	entries := readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile))
	if len(entries) == 0 || !sum.Started.Equal(entries[0].Time) {
		t.Errorf("started %v, want the first entry's time", sum.Started)
	}
}

// TestSummaryListsOnlyCrawlHosts: links the crawl declined (another host,
// a URL whose port is not a port) are counted in the totals and skip
// reasons, but are not hosts of the crawl: no nameless or foreign host
// entry with "pages: none".
func TestSummaryListsOnlyCrawlHosts(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nAllow: /\n")
	h.html("/", "http://127.0.0.1:99999/bad", "http://elsewhere.invalid/x", "/a")
	h.html("/a")
	sum := crawlFor(t, testConfig(t), h.URL("/"))
	if len(sum.Hosts) != 1 || sum.Hosts[0].Host == "" || sum.Hosts[0].Fetched != 2 {
		t.Errorf("hosts %+v: want only the seed host, with its 2 pages", sum.Hosts)
	}
	if sum.SkipReasons["invalid-url"] != 1 || sum.SkipReasons["out-of-scope"] != 1 || sum.Totals.Skipped != 2 {
		t.Errorf("skip reasons %v, skipped %d: want one invalid-url and one out-of-scope", sum.SkipReasons, sum.Totals.Skipped)
	}
}

// deferredSite is a host of one page whose Visit-time window opens in
// three hours: every crawl of it defers it.
func deferredSite(t *testing.T) *testHost {
	now := time.Now().UTC()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nVisit-time: " + clockAt(now.Add(3*time.Hour)) + "-" + clockAt(now.Add(4*time.Hour)) + "\n")
	h.html("/")
	return h
}

// TestDeferredURLCountedOncePerCrawl: a URL whose host is deferred stays
// queued and is logged with queued: true; the crawl's totals count it
// once, each run's share counts it in that run.
func TestDeferredURLCountedOncePerCrawl(t *testing.T) {
	h := deferredSite(t)
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/"))
	sum := crawlFor(t, cfg, h.URL("/"))
	if sum.SkipReasons["visit-time-deferred"] != 1 || sum.Totals.Skipped != 1 || sum.Totals.Queued != 1 {
		t.Errorf("skip reasons %v, skipped %d, queued %d: want the one waiting URL once", sum.SkipReasons, sum.Totals.Skipped, sum.Totals.Queued)
	}
	if len(sum.Runs) != 2 || sum.Runs[0].Skipped != 1 || sum.Runs[1].Skipped != 1 {
		t.Errorf("runs %+v: want the URL in each run's share", sum.Runs)
	}
	for _, s := range readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile)) {
		if !s.Queued {
			t.Errorf("skip %+v: a deferred URL is logged with queued: true", s)
		}
	}
}

// TestDeferredURLLoggedOncePerURL: a URL whose host stays deferred run
// after run is logged (queued: true) by the first run that leaves it
// queued, not again by each later run; each run's share still counts it,
// also once a later run reads the earlier ones back.
func TestDeferredURLLoggedOncePerURL(t *testing.T) {
	h := deferredSite(t)
	cfg := testConfig(t)
	for range 3 {
		crawlFor(t, cfg, h.URL("/"))
	}
	if n := len(readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))); n != 1 {
		t.Errorf("%d skip lines after three runs, want the deferred URL once", n)
	}
	sum := crawlFor(t, cfg, h.URL("/"))
	if len(sum.Runs) != 4 || sum.Runs[1].Skipped != 1 || sum.Runs[2].Skipped != 1 || sum.Runs[3].Skipped != 1 {
		t.Errorf("runs %+v: want the URL in each run's share", sum.Runs)
	}
	if sum.SkipReasons["visit-time-deferred"] != 1 || sum.Totals.Queued != 1 {
		t.Errorf("skip reasons %v, queued %d: want the one waiting URL once", sum.SkipReasons, sum.Totals.Queued)
	}
}
