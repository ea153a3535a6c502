package crawler

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

// TestDeferredHostsHaveTheirEvents: summary.json lists, per host, the
// state changes that held it back. A host whose Visit-time window opens
// beyond max_wait is deferred as soon as its robots.txt is read, and one
// that answers 429 with a Retry-After beyond max_wait as soon as the
// answer arrives; both are deferred while the crawl drains, before the
// progress watcher's next poll. Each has its deferral recorded, until the
// time the summary gives, and the Retry-After host the Retry-After too.
func TestDeferredHostsHaveTheirEvents(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	closed := newTestHost(t)
	closed.robotsText("User-agent: *\nVisit-time: " + clockAt(now.Add(3*time.Hour)) + "-" + clockAt(now.Add(4*time.Hour)) + "\n")
	closed.html("/")
	busy := newTestHost(t)
	busy.robotsText("User-agent: *\nCrawl-delay: 0.1\n")
	busy.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "7200")
		w.WriteHeader(http.StatusTooManyRequests)
	}
	cfg := testConfig(t)
	sum := crawlFor(t, cfg, closed.URL("/"), busy.URL("/"))
	hosts := map[string]crawllog.HostSummary{}
	for _, h := range sum.Hosts {
		hosts[h.Host] = h
	}
	for _, c := range []struct {
		host  *testHost
		kinds []string
	}{
		{closed, []string{hostEventDeferred}},
		{busy, []string{hostEventRetryAfter, hostEventDeferred}},
	} {
		h := hosts[c.host.srv.URL]
		if h.State != scheduler.StateDeferred || h.DeferredUntil == nil {
			t.Errorf("%s: state %q, deferred until %v: want deferred", h.Host, h.State, h.DeferredUntil)
			continue
		}
		var kinds []string
		for _, e := range h.Events {
			kinds = append(kinds, e.Kind)
			if e.Until == nil {
				t.Errorf("%s: %s event without until", h.Host, e.Kind)
			} else if e.Kind == hostEventDeferred && !e.Until.Equal(*h.DeferredUntil) {
				t.Errorf("%s: deferred until %s, the summary says %s", h.Host, e.Until, h.DeferredUntil)
			}
		}
		if strings.Join(kinds, " ") != strings.Join(c.kinds, " ") {
			t.Errorf("%s: events %v, want %v", h.Host, kinds, c.kinds)
		}
	}
	if ev := hosts[busy.srv.URL].Events; len(ev) > 0 && !strings.Contains(ev[0].Detail, "Retry-After: 7200") {
		t.Errorf("retry-after event says %q, want the header named", ev[0].Detail)
	}
}

// TestHostStateRecordedOnce: the same state seen by a lease and by the
// progress watcher's poll is one event; a host that leaves the state and
// enters it again has a second one; a drop carries no until (it is final
// for the run); a back-off by a Retry-After is one retry-after event.
func TestHostStateRecordedOnce(t *testing.T) {
	s := &eventSink{log: discardLogger()}
	until := time.Date(2026, 11, 22, 7, 0, 0, 0, time.UTC)
	deferred := scheduler.HostStatus{Authority: "http://a", State: scheduler.StateDeferred, DeferredUntil: until, NextAllowed: until, DeferReason: "visit-time 07:00-08:00"}
	s.observe(deferred, true)
	s.observe(deferred, true) // the watcher's poll
	s.observe(scheduler.HostStatus{Authority: "http://a", State: scheduler.StateActive}, true)
	s.observe(deferred, true)
	backing := scheduler.HostStatus{Authority: "http://b", State: scheduler.StateBackingOff, NextAllowed: until, BackoffReason: "retry-after 2s (Retry-After: 2)"}
	s.observe(backing, true) // the watcher's poll
	s.observe(backing, true)
	s.observe(scheduler.HostStatus{Authority: "http://c", State: scheduler.StateDropped, NextAllowed: until, DropReason: "dropped"}, true)
	got := s.hostEvents()
	if evs := got["http://a"]; len(evs) != 2 || evs[0].Kind != hostEventDeferred || evs[1].Kind != hostEventDeferred {
		t.Errorf("deferred, active, deferred again: %+v, want two deferred events", evs)
	}
	if evs := got["http://b"]; len(evs) != 1 || evs[0].Kind != hostEventRetryAfter {
		t.Errorf("back-off polled then observed: %+v, want one retry-after event", evs)
	}
	if evs := got["http://c"]; len(evs) != 1 || evs[0].Kind != hostEventDropped || evs[0].Until != nil {
		t.Errorf("drop: %+v, want one dropped event without until", evs)
	}
}

// TestOneDeferralIsOneEvent: a resumed crawl sees its host deferred while
// a request is in flight, then again when the answer moves the last start
// and the adaptive pace. One deferral is one event, narrated once, whose
// until is the latest one seen; the host deferred again after leaving the
// state has a second event.
func TestOneDeferralIsOneEvent(t *testing.T) {
	var narrated []Event
	s := &eventSink{log: discardLogger(), fn: func(e Event) { narrated = append(narrated, e) }}
	first := time.Date(2026, 11, 22, 5, 55, 36, 716531182, time.UTC)
	later := time.Date(2026, 11, 22, 5, 55, 37, 224070898, time.UTC)
	deferred := func(until time.Time) scheduler.HostStatus {
		return scheduler.HostStatus{Authority: "http://a", State: scheduler.StateDeferred, DeferredUntil: until, NextAllowed: until,
			PaceSource: "adaptive 10x502ms", DeferReason: "adaptive 10x502ms"}
	}
	s.observe(deferred(first), false)
	s.observe(deferred(later), false)
	s.observe(deferred(later), false) // the watcher's poll
	evs := s.hostEvents()["http://a"]
	if len(evs) != 1 || evs[0].Kind != hostEventDeferred || evs[0].Until == nil || !evs[0].Until.Equal(later) {
		t.Fatalf("one deferral seen with two untils: %+v, want one deferred event until %s", evs, later)
	}
	if want := describeHost(deferred(later), false); evs[0].Detail != want {
		t.Errorf("detail %q, want the latest words %q", evs[0].Detail, want)
	}
	if len(narrated) != 1 {
		t.Errorf("narrated %d events, want 1", len(narrated))
	}
	s.observe(scheduler.HostStatus{Authority: "http://a", State: scheduler.StateWaiting}, false)
	s.observe(deferred(later.Add(time.Minute)), false)
	if evs := s.hostEvents()["http://a"]; len(evs) != 2 || evs[0].Until == nil || !evs[0].Until.Equal(later) {
		t.Errorf("deferred, waiting, deferred again: %+v, want two events, the first one kept", evs)
	}
}
