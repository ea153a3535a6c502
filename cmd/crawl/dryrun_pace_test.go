package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawler"
	"github.com/crawlproject/crawl/scheduler"
)

// queuedIn opens out's frontier as a crawl would and returns how many URLs
// wait in it.
func queuedIn(t *testing.T, out string) int {
	t.Helper()
	store, err := scheduler.OpenBolt(filepath.Join(out, crawler.FrontierFile))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	s, err := scheduler.Open(scheduler.DefaultConfig(), store)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	return s.Stats().Queued
}

// TestDryRunThenCrawlKeepsThePace: `crawl --dry-run` then `crawl` on the
// same --out is one visitor to the host (DESIGN invariant 3 across the two
// commands): the crawl reuses the robots.txt the dry run fetched while it
// is fresh, and no two requests reach the host closer than its
// Crawl-delay.
func TestDryRunThenCrawlKeepsThePace(t *testing.T) {
	const delay = time.Second
	// A short default delay, so that only the Crawl-delay, kept across the
	// two commands, can hold the requests a second apart.
	t.Setenv("CRAWL_POLITENESS_DEFAULT_DELAY", "200ms")
	site := startLogSite(t, "User-agent: *\nCrawl-delay: 1\n", 1)
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seeds, []byte(site.url+"/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if code, _, stderr := runCLI(t, "--seed", seeds, "--out", out, "--dry-run", "--progress", "never"); code != exitOK {
		t.Fatalf("dry run: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "--seed", seeds, "--out", out, "--progress", "never"); code != exitOK {
		t.Fatalf("crawl: exit %d: %s", code, stderr)
	}
	hits := site.hits()
	robots := 0
	for i, h := range hits {
		if h.path == "/robots.txt" {
			robots++
		}
		if i > 0 {
			if d := h.at.Sub(hits[i-1].at); d < delay {
				t.Errorf("%s then %s only %v apart, Crawl-delay is %v", hits[i-1].path, h.path, d, delay)
			}
		}
	}
	if robots != 1 {
		t.Errorf("robots.txt requested %d times across dry run and crawl, want once (still fresh)", robots)
	}
	if len(hits) != 3 {
		t.Errorf("requests %v, want robots.txt, / and /p0", hits)
	}
}
