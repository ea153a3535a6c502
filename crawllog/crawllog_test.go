package crawllog

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestSummaryPrintTellsPaceDeferralAndComments(t *testing.T) {
	until := time.Date(2026, 1, 2, 6, 0, 0, 0, time.UTC)
	s := &Summary{Out: "out", Started: until.Add(-time.Minute), Finished: until.Add(-30 * time.Second),
		Totals:      Totals{Fetched: 3, RobotsFetches: 1, DeferredHosts: 1},
		SkipReasons: map[string]int{"robots-disallowed": 2},
		Hosts: []HostSummary{{Host: "http://a.test:80", State: "deferred", PaceSeconds: 10, PaceRule: "crawl-delay 10s (line 3)",
			PagesByStatus: map[string]int{"200": 3}, DeferredUntil: &until, DeferReason: "visit-time 06:00-08:45", Queued: 4,
			Robots: &RobotsSummary{Comments: []string{"be gentle"}}}}}
	var b strings.Builder
	s.Print(&b)
	for _, want := range []string{"http://a.test:80", "200 x3", "10s, set by crawl-delay 10s (line 3)",
		"deferred until 2026-01-02T06:00:00Z", "4 URLs wait", "the site says: be gentle", "robots-disallowed 2", "run the same command again"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

// TestSummaryPrintListsAFewHosts: with thousands of hosts the printed
// summary does not list every one (40,000 lines for 8,000 hosts): past 20
// hosts it lists only those with something to note, at most 20, and says
// how many it left out; of a host's Comment lines it prints three.
func TestSummaryPrintListsAFewHosts(t *testing.T) {
	until := time.Date(2026, 1, 2, 6, 0, 0, 0, time.UTC)
	s := &Summary{Out: "out", SkipReasons: map[string]int{}}
	for i := range 30 {
		s.Hosts = append(s.Hosts, HostSummary{Host: fmt.Sprintf("http://quiet%d.test:80", i), State: "done"})
	}
	for i := range 25 {
		s.Hosts = append(s.Hosts, HostSummary{Host: fmt.Sprintf("http://waits%d.test:80", i), State: "deferred", DeferredUntil: &until})
	}
	s.Hosts = append(s.Hosts[:1], append([]HostSummary{{Host: "http://says.test:80", State: "done",
		Robots: &RobotsSummary{Comments: []string{"c1", "c2", "c3", "c4", "c5"}, CommentsOmitted: 10}}}, s.Hosts[1:]...)...)
	var b strings.Builder
	s.Print(&b)
	out := b.String()
	if strings.Contains(out, "quiet") {
		t.Errorf("a host with nothing to note was listed:\n%s", out)
	}
	if n := strings.Count(out, "\n  http://"); n != 20 {
		t.Errorf("%d hosts listed, want 20:\n%s", n, out)
	}
	for _, want := range []string{"the site says: c3", "(and 12 more Comment lines in its robots.txt)", "36 more host(s) not listed (30 with nothing to note)"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "c4") {
		t.Errorf("more than three Comment lines printed:\n%s", out)
	}
	// A few hosts are all listed, as before.
	s.Hosts = s.Hosts[:5]
	b.Reset()
	s.Print(&b)
	if n := strings.Count(b.String(), "\n  http://"); n != 5 || strings.Contains(b.String(), "not listed") {
		t.Errorf("with 5 hosts, %d listed:\n%s", n, b.String())
	}
}

// TestRunTimeSumsRuns: the time a crawl ran is its runs' own time, not
// the stretch from the first start to the last end (a dry run, a pause of
// a day, a crawl); a run killed before its end line makes it "at least".
func TestRunTimeSumsRuns(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *time.Time { x := t0.Add(d); return &x }
	s := &Summary{Out: "out", Started: t0, Finished: t0.Add(24*time.Hour + 21*time.Second), Runs: []RunSummary{
		{Started: t0, Finished: at(time.Second), Mode: ModeDryRun},
		{Started: t0.Add(24 * time.Hour), Finished: at(24*time.Hour + 21*time.Second), Mode: ModeCrawl},
	}}
	if d, complete := s.RunTime(); d != 22*time.Second || !complete {
		t.Errorf("RunTime = %v %v, want 22s complete", d, complete)
	}
	var b strings.Builder
	s.Print(&b)
	if !strings.Contains(b.String(), "Crawl summary (out, 22s)") {
		t.Errorf("summary head:\n%s", b.String())
	}
	s.Runs = append(s.Runs, RunSummary{Started: t0.Add(25 * time.Hour), Mode: ModeCrawl})
	b.Reset()
	s.Print(&b)
	if d, complete := s.RunTime(); d != 22*time.Second || complete || !strings.Contains(b.String(), "(out, at least 22s)") {
		t.Errorf("with a killed run: RunTime = %v %v; summary:\n%s", d, complete, b.String())
	}
}

// The JSON names are the contract with the report and outside tools.
func TestFieldNames(t *testing.T) {
	b, _ := json.Marshal(CrawlEntry{URL: "u", PaceRule: "r", Error: "e"})
	for _, k := range []string{`"time"`, `"url"`, `"host"`, `"kind"`, `"status"`, `"bytes"`, `"duration_ms"`, `"pace_seconds"`, `"pace_rule"`, `"robots_rule"`, `"robots_line"`, `"error"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("crawl.jsonl line lacks %s: %s", k, b)
		}
	}
	b, _ = json.Marshal(SkipEntry{Reason: "robots-disallowed", Rule: "Disallow: /x", Line: 2, Parent: "p"})
	for _, k := range []string{`"reason"`, `"rule"`, `"line"`, `"parent"`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("skips.jsonl line lacks %s: %s", k, b)
		}
	}
}

// TestSummaryPrintSaysWhenEachRunStarted: each run of a resumed crawl is
// a line that says when it started (a clock time, and how long after the
// first run), how long it ran and what it fetched; a start offset is not
// written "+2.61s", which reads as a duration.
func TestSummaryPrintSaysWhenEachRunStarted(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 6, 0, 0, 0, time.UTC)
	end0, end1 := t0.Add(1500*time.Millisecond), t0.Add(5*time.Second)
	s := &Summary{Out: "out", Started: t0, Finished: end1, SkipReasons: map[string]int{},
		Totals: Totals{Fetched: 5, Requisites: 7, RobotsFetches: 1},
		Runs: []RunSummary{
			{Started: t0, Finished: &end0, Mode: ModeDryRun},
			{Started: t0.Add(2610 * time.Millisecond), Finished: &end1, Mode: ModeCrawl, Fetched: 5, Requisites: 7},
			{Started: t0.Add(time.Minute), Mode: ModeCrawl},
		}}
	var b strings.Builder
	s.Print(&b)
	for _, want := range []string{
		"fetched 5 pages (and 7 requisites, 1 robots.txt)",
		"over 3 runs:\n",
		"run 1, dry-run: started 2026-01-02 06:00:00 UTC, ran 1.5s, 0 pages\n",
		"run 2, crawl: started 2026-01-02 06:00:02 UTC (2.61s after the first run started), ran 2.39s, 5 pages, 7 requisites\n",
		"run 3, crawl: started 2026-01-02 06:01:00 UTC (1m0s after the first run started), no end recorded, 0 pages\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "+2.61s") {
		t.Errorf("a start offset written as +2.61s:\n%s", b.String())
	}
}
