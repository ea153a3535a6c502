package crawler

import (
	"context"
	"testing"
	"time"
)

// A robots.txt cache TTL shorter than the host's pace: the copy expires
// while the first page waits out the Crawl-delay it set. The page is still
// decided by it (it was fresh when its turn was set), so the crawl makes
// progress instead of refetching robots.txt in every slot forever; pages
// after that may refresh it, each paced.
func TestRobotsCacheTTLShorterThanPace(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.4\n")
	h.html("/", "/a")
	h.html("/a")
	cfg := testConfig(t)
	cfg.Robots.CacheTTL = 100 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := Run(ctx, cfg, Options{Seeds: []string{h.URL("/")}}); err != nil {
		t.Fatalf("crawl did not finish: %v (server saw %v)", err, h.paths())
	}
	pages := 0
	for _, p := range h.paths() {
		if p != "/robots.txt" {
			pages++
		}
	}
	if pages != 2 {
		t.Errorf("server saw %v, want both pages fetched", h.paths())
	}
	h.assertRobotsFirst()
	h.assertMinGap(400 * time.Millisecond)
}
