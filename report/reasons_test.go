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
