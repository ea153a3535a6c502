package crawler

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
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
		if e.Kind == EventRobots && e.Reason == outcomeUnreachable {
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
