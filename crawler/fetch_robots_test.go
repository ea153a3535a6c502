package crawler

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robotscache"
)

// TestRobotsRetryMessageSaysTheRealNextAttempt: when robots.txt fails, the
// event names the time of the real next attempt (the host's back-off, here
// 1 s, wins over the robots cache's 200 ms retry), and the last failure
// says the host is given up instead of promising a retry.
func TestRobotsRetryMessageSaysTheRealNextAttempt(t *testing.T) {
	h := newTestHost(t)
	h.robots = func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "busy", http.StatusServiceUnavailable) }
	h.html("/")
	cfg := testConfig(t) // max_failures 2, robots retry base 200 ms
	cfg.Politeness.BackoffBase = time.Second
	cfg.Politeness.BackoffMax = 2 * time.Second
	var mu sync.Mutex
	var failed []Event
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := Run(ctx, cfg, Options{Seeds: []string{h.URL("/")}, Events: func(e Event) {
		if e.Kind == EventRobots && e.Reason == robotscache.OutcomeUnreachable {
			mu.Lock()
			failed = append(failed, e)
			mu.Unlock()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.requests()
	if len(reqs) != 2 || len(failed) != 2 {
		t.Fatalf("requests %v, failure events %+v: want 2 of each", h.paths(), failed)
	}
	first := failed[0]
	if !strings.Contains(first.Detail, "next attempt at "+first.Until.UTC().Format("15:04:05.0")) || strings.Contains(first.Detail, "giving up") {
		t.Errorf("first failure says %q, want the next attempt at %s", first.Detail, first.Until.UTC().Format("15:04:05.000"))
	}
	if min := reqs[0].Start.Add(time.Second); first.Until.Before(min) {
		t.Errorf("next attempt announced for %s, before the 1 s back-off after the first request (%s) ends", first.Until.Format("15:04:05.000"), reqs[0].Start.Format("15:04:05.000"))
	}
	if reqs[1].Start.Before(first.Until) {
		t.Errorf("second request at %s, before the announced %s", reqs[1].Start.Format("15:04:05.000"), first.Until.Format("15:04:05.000"))
	}
	last := failed[1]
	if !strings.Contains(last.Detail, "giving up on the host") || strings.Contains(last.Detail, "next attempt") || !last.Until.IsZero() {
		t.Errorf("last failure says %q (until %s), want it to give up on the host", last.Detail, last.Until)
	}
}

// TestRobotsMaxBytesIsTheParsingLimit: RFC 9309 2.5 "Crawlers MAY impose a
// parsing limit that MUST be at least 500 kibibytes (KiB)". robots.max_bytes
// is that limit: raised, the rules it lets in are applied; at the default,
// a file longer than it is logged as truncated, and a page under a rule
// past the limit is fetched (the rule was never read).
func TestRobotsMaxBytesIsTheParsingLimit(t *testing.T) {
	t.Parallel()
	body := "User-agent: *\nDisallow: /head\n" + strings.Repeat("# "+strings.Repeat("x", 97)+"\n", 6000) + "Disallow: /late\n"
	for _, c := range []struct {
		name      string
		maxBytes  int64
		lateFetch bool
		truncated bool
	}{
		{"raised to 800,000", 800_000, false, false},
		{"default 512 KiB", 0, true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newTestHost(t)
			h.robotsText(body)
			h.html("/", "/late/x", "/head/x")
			h.html("/late/x")
			h.html("/head/x")
			cfg := testConfig(t)
			if c.maxBytes > 0 {
				cfg.Robots.MaxBytes = c.maxBytes
			}
			crawlFor(t, cfg, h.URL("/"))
			fetched := map[string]bool{}
			for _, p := range h.paths() {
				fetched[p] = true
			}
			if fetched["/late/x"] != c.lateFetch || fetched["/head/x"] {
				t.Errorf("fetched %v: want /late/x fetched = %v, /head/x never", fetched, c.lateFetch)
			}
			entries := readJSONL[crawllog.RobotsEntry](t, filepath.Join(cfg.Out, crawllog.RobotsLogFile))
			if len(entries) != 1 || entries[0].Truncated != c.truncated {
				t.Errorf("robots.jsonl %+v: want one fetch with truncated = %v", entries, c.truncated)
			}
		})
	}
}
