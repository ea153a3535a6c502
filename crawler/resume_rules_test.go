package crawler

import (
	"net/http"
	"strings"
	"testing"
)

// TestResumedCrawlNamesRobotsPace: a crawl run again on its --out, with
// nothing left to do for a host, reports the host's pace as set by its
// robots.txt (cached from the first run), as the first run did, not as
// "previous run's interval ... (until robots.txt is read)".
func TestResumedCrawlNamesRobotsPace(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.2\n")
	h.html("/", "/a")
	h.html("/a")
	cfg := testConfig(t)
	first := crawlFor(t, cfg, h.URL("/"))
	if len(first.Hosts) != 1 || !strings.HasPrefix(first.Hosts[0].PaceRule, "crawl-delay") {
		t.Fatalf("first run: hosts %+v, want the Crawl-delay as pace rule", first.Hosts)
	}
	second := crawlFor(t, cfg, h.URL("/"))
	if len(second.Hosts) != 1 || second.Hosts[0].PaceRule != first.Hosts[0].PaceRule {
		t.Errorf("second run: pace rule %q, want %q as in the first run", second.Hosts[0].PaceRule, first.Hosts[0].PaceRule)
	}
	robots := 0
	for _, p := range h.paths() {
		if p == "/robots.txt" {
			robots++
		}
	}
	if robots != 1 {
		t.Errorf("robots.txt fetched %d times over two runs, want once (the second run uses the cached copy)", robots)
	}
}

// TestSummaryNamesNoGroupWithoutAFile: a robots.txt that was never read
// (503, unreachable) matched no group; the summary does not name "*".
func TestSummaryNamesNoGroupWithoutAFile(t *testing.T) {
	h := newTestHost(t)
	h.robots = func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "busy", http.StatusServiceUnavailable) }
	h.html("/")
	cfg := testConfig(t)
	cfg.Politeness.MaxFailures = 1
	sum := crawlFor(t, cfg, h.URL("/"))
	if len(sum.Hosts) != 1 || sum.Hosts[0].Robots == nil {
		t.Fatalf("hosts %+v: want the host with its robots summary", sum.Hosts)
	}
	if r := sum.Hosts[0].Robots; r.Outcome == "parsed" || r.Group != "" {
		t.Errorf("robots %+v: want an unread outcome and no group", r)
	}
}
