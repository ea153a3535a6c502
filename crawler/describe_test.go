package crawler

import (
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// TestDescribeHostSaysWhatHoldsIt: a host backing off is described by
// what set the back-off (a Retry-After), not by the rule of its pace; a
// deferred host is offered a rerun only when the crawl can be resumed, and
// its time is written once as UTC.
func TestDescribeHostSaysWhatHoldsIt(t *testing.T) {
	until := time.Date(2026, 11, 22, 7, 0, 0, 0, time.UTC)
	backing := scheduler.HostStatus{Authority: "http://h", State: scheduler.StateBackingOff, NextAllowed: until,
		PaceSource: "crawl-delay 1s (line 2)", BackoffReason: "retry-after 2s (Retry-After: 2)"}
	if got := describeHost(backing, false); !strings.Contains(got, "(retry-after 2s (Retry-After: 2))") {
		t.Errorf("backing off: %q, want the Retry-After named", got)
	}
	deferred := scheduler.HostStatus{Authority: "http://h", State: scheduler.StateDeferred, DeferredUntil: until,
		DeferReason: "visit-time 08:00-09:00"}
	got := describeHost(deferred, false)
	if !strings.Contains(got, "deferred until 2026-11-22T07:00:00Z: visit-time 08:00-09:00; run the same command again") ||
		strings.Contains(got, "Z UTC") {
		t.Errorf("deferred: %q", got)
	}
	if got := describeHost(deferred, true); strings.Contains(got, "again") {
		t.Errorf("deferred in a crawl that cannot be resumed: %q offers a rerun", got)
	}
}
