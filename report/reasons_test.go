package report

import (
	"testing"

	"github.com/crawlproject/crawl/scheduler"
)

// TestEveryReasonExplained: each skip reason the scheduler writes has its
// own plain-words meaning in the report, not the fallback for unknown ones.
func TestEveryReasonExplained(t *testing.T) {
	fallback := reasonMeaning("no-such-reason")
	for _, r := range []scheduler.Reason{
		scheduler.ReasonRobotsDisallowed, scheduler.ReasonRobotsUnreachable, scheduler.ReasonVisitTimeDeferred,
		scheduler.ReasonCrawlDelayTooLong, scheduler.ReasonPaceTooLong, scheduler.ReasonBackoffDeferred,
		scheduler.ReasonOutOfScope, scheduler.ReasonMaxDepth, scheduler.ReasonDuplicate, scheduler.ReasonHostFailing,
		scheduler.ReasonMaxPages, scheduler.ReasonInvalidURL, scheduler.ReasonFetchFailed,
		scheduler.ReasonRedirectLimit, scheduler.ReasonSitemapNesting,
	} {
		if m := reasonMeaning(string(r)); m == "" || m == fallback {
			t.Errorf("reason %q has no meaning of its own: %q", r, m)
		}
	}
}

// TestQueuedSkipCountedOnce: a URL of a deferred host logged by two runs
// (queued: true) is one skip in its group, shown as the latest run logged
// it; final skips are each counted.
func TestQueuedSkipCountedOnce(t *testing.T) {
	skips := []skip{
		{URL: "http://a/x", Reason: "visit-time-deferred", Detail: "run 1", Queued: true},
		{URL: "http://a/p", Reason: "robots-disallowed"},
		{URL: "http://a/x", Reason: "visit-time-deferred", Detail: "run 2", Queued: true},
		{URL: "http://a/q", Reason: "robots-disallowed"},
	}
	groups := skipGroups(skips, nil, map[string]*hostView{})
	counts := map[string]int{}
	for _, g := range groups {
		counts[g.Reason] = g.Count
		if g.Reason == "visit-time-deferred" && (len(g.Examples) != 1 || g.Examples[0].Detail != "run 2") {
			t.Errorf("deferred group examples %+v, want the run 2 line only", g.Examples)
		}
	}
	if counts["visit-time-deferred"] != 1 || counts["robots-disallowed"] != 2 {
		t.Errorf("counts %v, want 1 deferred URL and 2 disallowed", counts)
	}
}
