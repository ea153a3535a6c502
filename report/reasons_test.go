package report

import (
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
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

// TestQueuedSkipsOfEarlierRunsDropped: a URL of a deferred host is
// logged (queued: true) by each run that deferred it; the latest crawl run
// fetched it or logged it again, so lines of earlier runs are dropped and
// the report counts what the summary's totals count. Final skips of
// earlier runs stay.
func TestQueuedSkipsOfEarlierRunsDropped(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	s := &summary{Runs: []crawllog.RunSummary{
		{Started: t0, Mode: crawllog.ModeCrawl},
		{Started: t0.Add(time.Hour), Mode: crawllog.ModeDryRun},
		{Started: t0.Add(2 * time.Hour), Mode: crawllog.ModeCrawl},
	}}
	skips := []skip{
		{Time: t0.Add(time.Minute), URL: "http://a/x", Reason: "visit-time-deferred", Queued: true},
		{Time: t0.Add(time.Minute), URL: "http://a/p", Reason: "robots-disallowed"},
		{Time: t0.Add(time.Minute), URL: "http://a/fetched-later", Reason: "crawl-delay-too-long", Queued: true},
		{Time: t0.Add(2*time.Hour + time.Minute), URL: "http://a/x", Reason: "visit-time-deferred", Queued: true},
	}
	got := currentSkips(skips, s)
	var urls []string
	for _, k := range got {
		urls = append(urls, k.Reason+" "+k.URL)
	}
	want := "robots-disallowed http://a/p|visit-time-deferred http://a/x"
	if strings.Join(urls, "|") != want {
		t.Errorf("kept %q, want %q", urls, want)
	}
	if got := currentSkips(skips[:2], &summary{}); len(got) != 2 {
		t.Errorf("without runs: kept %d, want every line", len(got))
	}
}
