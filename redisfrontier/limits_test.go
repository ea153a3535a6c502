package redisfrontier

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/redistest"
	"github.com/crawlproject/crawl/scheduler"
)

// skipLog collects the skips several processes report.
type skipLog struct {
	mu    sync.Mutex
	skips []scheduler.Skip
}

func (s *skipLog) add(sk scheduler.Skip) {
	s.mu.Lock()
	s.skips = append(s.skips, sk)
	s.mu.Unlock()
}

// crawlTwo runs two processes with cfg (one worker each) over hosts
// hosts of n URLs each until they drain, and returns the requests started
// and the skips both reported.
func crawlTwo(t *testing.T, cfg scheduler.Config, hosts, n int) (int, *skipLog) {
	t.Helper()
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	log := &skipLog{}
	cfg.OnSkip = log.add
	a, b := openCfg(t, url, prefix, 5*time.Second, cfg), openCfg(t, url, prefix, 5*time.Second, cfg)
	for h := range hosts {
		addURLs(t, a, fmt.Sprintf("http://h%d.limit.test", h), n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	w := startWorkers(ctx, a, b)
	if err := w.wait(); err != nil {
		t.Fatal(err)
	}
	return len(w.starts), log
}

// checkSkips checks that every URL not fetched was reported once, with
// max-pages.
func checkSkips(t *testing.T, log *skipLog, want int) {
	t.Helper()
	seen := map[string]bool{}
	for _, sk := range log.skips {
		if sk.Reason != scheduler.ReasonMaxPages || seen[sk.URL] {
			t.Errorf("skip %s %s (%s): want each URL once, with max-pages", sk.URL, sk.Reason, sk.Detail)
		}
		seen[sk.URL] = true
	}
	if len(seen) != want {
		t.Errorf("%d URLs skipped, want %d", len(seen), want)
	}
}

// TestMaxPagesPerHostAcrossProcesses protects the shared per-host page
// limit: with one lease per host it is exact across processes, and the
// URLs over it are reported once each with max-pages.
func TestMaxPagesPerHostAcrossProcesses(t *testing.T) {
	cfg := testConfig()
	cfg.DefaultDelay = 20 * time.Millisecond
	cfg.Scope.MaxPagesPerHost = 2
	fetched, log := crawlTwo(t, cfg, 2, 4)
	if fetched != 4 {
		t.Errorf("%d pages fetched, want 2 per host", fetched)
	}
	checkSkips(t, log, 4)
}

// TestMaxPagesAcrossProcesses protects the shared page limit: the crawl
// fetches MaxPages pages, at most one more per worker of every process
// whose lease was out when the limit was reached, and reports every other
// URL once with max-pages.
func TestMaxPagesAcrossProcesses(t *testing.T) {
	cfg := testConfig()
	cfg.DefaultDelay = 20 * time.Millisecond
	cfg.Scope.MaxPages = 3
	fetched, log := crawlTwo(t, cfg, 3, 3)
	if fetched < 3 || fetched > 3+2 {
		t.Errorf("%d pages fetched, want 3 to 5 (3 and a lease per worker)", fetched)
	}
	checkSkips(t, log, 9-fetched)
}
