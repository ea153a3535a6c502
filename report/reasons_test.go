package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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
		scheduler.ReasonRedirectLimit, scheduler.ReasonSitemapNesting, scheduler.ReasonURLTooLong, scheduler.ReasonPathRepeats,
		scheduler.ReasonMaxLinks,
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
	read := func(skips []skip, s *summary) []skip {
		dir := t.TempDir()
		var b strings.Builder
		for _, k := range skips {
			line, _ := json.Marshal(k)
			b.Write(line)
			b.WriteByte('\n')
		}
		os.WriteFile(filepath.Join(dir, SkipsFile), []byte(b.String()), 0o644)
		var notes []string
		got, err := readSkips(outDirs{dir}, s, &notes)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	got := read(skips, s)
	var urls []string
	for _, k := range got {
		urls = append(urls, k.Reason+" "+k.URL)
	}
	want := "robots-disallowed http://a/p|visit-time-deferred http://a/x"
	if strings.Join(urls, "|") != want {
		t.Errorf("kept %q, want %q", urls, want)
	}
	if got := read(skips[:2], &summary{}); len(got) != 2 {
		t.Errorf("without runs: kept %d, want every line", len(got))
	}
}

// TestSkipsOfAKindFolded: of a million skip lines of one host, reason and
// robots.txt line, the report keeps maxSkipsPerKind, the last of which
// stands for the rest, so it does not hold them all (1.2 GB for a million);
// what it counts is unchanged.
func TestSkipsOfAKindFolded(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&b, `{"url":"http://a.test/s%d","host":"http://a.test:80","reason":"max-pages"}`+"\n", i)
		if i%100 == 0 {
			fmt.Fprintf(&b, `{"url":"http://a.test/r%d","host":"http://a.test:80","reason":"robots-disallowed","line":3}`+"\n", i)
		}
	}
	os.WriteFile(filepath.Join(dir, SkipsFile), []byte(b.String()), 0o644)
	var notes []string
	got, err := readSkips(outDirs{dir}, &summary{}, &notes)
	if err != nil {
		t.Fatal(err)
	}
	byReason, total := map[string]int{}, 0
	for _, k := range got {
		byReason[k.Reason]++
		total += weight(k)
	}
	if byReason["max-pages"] != maxSkipsPerKind || byReason["robots-disallowed"] != 10 || total != 1010 {
		t.Errorf("kept %v standing for %d lines; want %d max-pages and 10 robots-disallowed standing for 1010", byReason, total, maxSkipsPerKind)
	}
	if got[0].URL != "http://a.test/s0" || got[1].URL != "http://a.test/r0" {
		t.Errorf("the first lines kept are %s and %s; file order is kept", got[0].URL, got[1].URL)
	}
}

// TestQueuedSkipOfEarlierRunKeptWhileWaiting: a URL left queued is logged
// once, by the first run that left it queued; the report still lists it
// while its host has URLs queued, and not once a later request fetched it.
func TestQueuedSkipOfEarlierRunKeptWhileWaiting(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	s := summary{Started: t0, Finished: t0.Add(3 * time.Hour), Runs: []crawllog.RunSummary{
		{Started: t0, Mode: crawllog.ModeCrawl},
		{Started: t0.Add(2 * time.Hour), Mode: crawllog.ModeCrawl},
	}, Hosts: []hostSummary{{Host: "http://a", State: "deferred", Queued: 1}}}
	b, _ := json.Marshal(s)
	os.WriteFile(filepath.Join(dir, SummaryFile), b, 0o644)
	var lines strings.Builder
	for _, k := range []skip{
		{Time: t0.Add(time.Minute), URL: "http://a/x", Host: "http://a", Reason: "visit-time-deferred", Queued: true},
		{Time: t0.Add(time.Minute), URL: "http://a/y", Host: "http://a", Reason: "visit-time-deferred", Queued: true},
	} {
		l, _ := json.Marshal(k)
		lines.Write(append(l, '\n'))
	}
	os.WriteFile(filepath.Join(dir, SkipsFile), []byte(lines.String()), 0o644)
	req, _ := json.Marshal(crawllog.CrawlEntry{Time: t0.Add(2*time.Hour + time.Minute), URL: "http://a/y", Host: "http://a", Kind: "page", Status: 200})
	os.WriteFile(filepath.Join(dir, CrawlFile), append(req, '\n'), 0o644)
	in, err := readInput(dir)
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, k := range in.skips {
		urls = append(urls, k.URL)
	}
	if strings.Join(urls, " ") != "http://a/x" {
		t.Errorf("kept %q, want the URL still waiting, not the one fetched since", urls)
	}
}
