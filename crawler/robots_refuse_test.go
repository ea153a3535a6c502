package crawler

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

// refusePace is the pace of the hosts below: a skip written before half of
// it has passed since robots.txt was not held back by it.
const refusePace = 2 * time.Second

// TestDisallowedSeedsSkippedAfterRobots: seeds /a, /b, /c of a host whose
// robots.txt disallows /a and /b and asks for Crawl-delay 2. No request is
// made for /a or /b, so they do not wait for the host's turn: their skips
// are written as soon as robots.txt is read, with the rule, line and words
// the crawler's own check gives; /c is fetched one Crawl-delay after
// robots.txt.
func TestDisallowedSeedsSkippedAfterRobots(t *testing.T) {
	h := newTestHost(t)
	h.robotsText(fmt.Sprintf("User-agent: *\nDisallow: /a\nDisallow: /b\nCrawl-delay: %g\n", refusePace.Seconds()))
	h.html("/a")
	h.html("/b")
	h.html("/c")
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/a"), h.URL("/b"), h.URL("/c"))
	reqs := h.requests()
	if p := h.paths(); !slices.Equal(p, []string{"/robots.txt", "/c"}) {
		t.Fatalf("requests %v, want /robots.txt and /c only", p)
	}
	if gap := reqs[1].Start.Sub(reqs[0].Start); gap < refusePace {
		t.Errorf("/c requested %s after robots.txt, want the Crawl-delay %s", gap, refusePace)
	}
	skips := readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))
	if len(skips) != 2 {
		t.Fatalf("skips %+v, want /a and /b", skips)
	}
	for i, p := range []string{"/a", "/b"} {
		s := skips[i]
		rule := "Disallow: " + p
		want := crawllog.SkipEntry{URL: h.URL(p), Host: h.URL(""), Reason: "robots-disallowed", Rule: rule, Line: i + 2,
			Detail: fmt.Sprintf("robots.txt line %d %q disallows it for testbot", i+2, rule)}
		got := s
		got.Time = time.Time{}
		if got != want {
			t.Errorf("skip %d: %+v, want %+v", i, got, want)
		}
		if after := s.Time.Sub(reqs[0].Start); after >= refusePace/2 {
			t.Errorf("%s skipped %s after robots.txt was requested, want before the host's pace %s ran out", p, after, refusePace)
		}
	}
}

// TestForbiddenRobotsEndsWithoutPace: with robots.forbidden_disallows a
// 403 for robots.txt disallows everything: the four seeds are skipped
// right after the robots.txt fetch, naming the policy, and the crawl ends
// without waiting out the host's pace (2 s).
func TestForbiddenRobotsEndsWithoutPace(t *testing.T) {
	h := newTestHost(t)
	h.robots = func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", http.StatusForbidden) }
	seeds := []string{h.URL("/a"), h.URL("/b"), h.URL("/c"), h.URL("/d")}
	cfg := testConfig(t)
	cfg.Robots.ForbiddenDisallows = true
	cfg.Politeness.DefaultDelay = refusePace
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := Run(ctx, cfg, Options{Seeds: seeds}); err != nil {
		t.Fatal(err)
	}
	end := time.Now()
	reqs := h.requests()
	if p := h.paths(); !slices.Equal(p, []string{"/robots.txt"}) {
		t.Fatalf("requests %v, want /robots.txt only", p)
	}
	if d := end.Sub(reqs[0].Start); d >= refusePace/2 {
		t.Errorf("crawl ended %s after robots.txt was requested, want before the host's pace %s ran out", d, refusePace)
	}
	skips := readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))
	if len(skips) != len(seeds) {
		t.Fatalf("skips %+v, want the %d seeds'", skips, len(seeds))
	}
	const policy = "robots.txt HTTP 403: access restricted; everything but /robots.txt is disallowed (robots.forbidden_disallows: "
	for i, s := range skips {
		if s.URL != seeds[i] || s.Reason != "robots-disallowed" || !strings.HasPrefix(s.Detail, policy) || s.Rule != "" || s.Line != 0 {
			t.Errorf("skip %d: %+v, want %s robots-disallowed naming the policy, no rule or line", i, s, seeds[i])
		}
		if after := s.Time.Sub(reqs[0].Start); after >= refusePace/2 {
			t.Errorf("%s skipped %s after robots.txt was requested, want before the host's pace %s ran out", s.URL, after, refusePace)
		}
	}
}
