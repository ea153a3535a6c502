package crawler

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

// TestBackoffUnderDefaultMarginHasItsEvent: under
// the default 1 ms margin, a 503 without Retry-After (and one whose
// Retry-After equals backoff_base) leaves its host backing off until the
// back-off deadline, the next start 1 ms after it. summary.json records
// that back-off as a host event with its until, as it does when the
// deadline is later than the pace.
func TestBackoffUnderDefaultMarginHasItsEvent(t *testing.T) {
	for _, c := range []struct {
		name, retryAfter string
	}{
		{"no Retry-After", ""},
		{"Retry-After equal to backoff_base", "1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newTestHost(t)
			h.robotsText("User-agent: *\nCrawl-delay: 0.1\n")
			var mu sync.Mutex
			failed := false
			h.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
				mu.Lock()
				first := !failed
				failed = true
				mu.Unlock()
				if first {
					if c.retryAfter != "" {
						w.Header().Set("Retry-After", c.retryAfter)
					}
					w.WriteHeader(http.StatusServiceUnavailable)
					return
				}
				w.Header().Set("Content-Type", "text/html")
				w.Write([]byte("<html><body>ok</body></html>"))
			}
			cfg := testConfig(t)
			if cfg.Politeness.Margin != time.Millisecond {
				t.Fatalf("default margin %s, the repro needs 1ms", cfg.Politeness.Margin)
			}
			cfg.Politeness.BackoffBase = time.Second
			cfg.Politeness.BackoffMax = 2 * time.Second
			sum := crawlFor(t, cfg, h.URL("/"))
			var hs crawllog.HostSummary
			for _, x := range sum.Hosts {
				if x.Host == h.srv.URL {
					hs = x
				}
			}
			if hs.State != scheduler.StateDone {
				t.Errorf("state %q, want done (the retry succeeds)", hs.State)
			}
			if len(hs.Events) != 1 {
				t.Fatalf("events %+v, want one back-off event", hs.Events)
			}
			e := hs.Events[0]
			if e.Kind != hostEventBackoff && e.Kind != hostEventRetryAfter {
				t.Errorf("event kind %q, want %q or %q", e.Kind, hostEventBackoff, hostEventRetryAfter)
			}
			// until is the next start: the back-off counted from the 503's
			// start, plus the margin.
			if e.Until == nil || !e.Until.After(e.Time) || e.Until.Sub(e.Time) > time.Second+cfg.Politeness.Margin {
				t.Errorf("event %+v: want until within the 1s back-off (and margin) after it", e)
			}
			if reqs := h.requests(); len(reqs) != 3 || reqs[2].Start.Sub(reqs[1].Start) < time.Second {
				t.Errorf("requests %+v, want robots.txt, the 503, then the retry a back-off later", reqs)
			}
		})
	}
}
