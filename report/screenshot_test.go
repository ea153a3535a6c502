package report

import (
	"strings"
	"testing"
)

// TestScreenshotInputIsConsistent guards the README picture's input (a real
// demo crawl trimmed to a few sites) against edits that make it contradict
// itself: every host has a summary and a pace, the totals and skip counts
// agree with the logs, and the picture has what the README promises.
func TestScreenshotInputIsConsistent(t *testing.T) {
	in, err := readInput(copyDir(t, screenshotDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(in.notes) > 0 {
		t.Errorf("input notes: %q", in.notes)
	}
	s := in.summary
	if !strings.HasPrefix(s.UserAgent, "crawl/") || s.Agent != "crawl" {
		t.Errorf("agent %q, User-Agent %q: not what crawl sends", s.Agent, s.UserAgent)
	}
	pages, robotsReqs := 0, 0
	for _, r := range in.requests {
		switch r.Kind {
		case "page":
			pages++
		case "robots":
			robotsReqs++
		}
	}
	if s.Totals.Fetched != pages || s.Totals.RobotsFetches != robotsReqs || s.Totals.RobotsFetches != len(in.robots) || s.Totals.Skipped != len(in.skips) {
		t.Errorf("totals %+v disagree with the logs: %d pages, %d robots.txt requests, %d robots.jsonl lines, %d skips",
			s.Totals, pages, robotsReqs, len(in.robots), len(in.skips))
	}
	reasons := make(map[string]int)
	for _, k := range in.skips {
		reasons[k.Reason]++
	}
	if len(reasons) != len(s.SkipReasons) {
		t.Errorf("skip_reasons %v, logs %v", s.SkipReasons, reasons)
	}
	for r, n := range reasons {
		if s.SkipReasons[r] != n {
			t.Errorf("skip_reasons[%s] = %d, logs have %d", r, s.SkipReasons[r], n)
		}
	}
	v := buildView(in, "")
	if len(v.Hosts) < 4 {
		t.Errorf("%d hosts, want several", len(v.Hosts))
	}
	fetched, shaded, highlighted := 0, false, false
	for _, hv := range v.Hosts {
		if hv.State == "no summary" || hv.Pace == "" || hv.PaceRule == "" {
			t.Errorf("%s: state %q, pace %q (%q)", hv.Host, hv.State, hv.Pace, hv.PaceRule)
		}
		fetched += hv.Fetched
		shaded = shaded || len(hv.Timeline.Windows) > 0
		for _, l := range hv.Robots.Lines {
			highlighted = highlighted || l.Decided
		}
	}
	if fetched != s.Totals.Fetched {
		t.Errorf("hosts fetched %d, totals %d", fetched, s.Totals.Fetched)
	}
	if !shaded || !highlighted || len(v.SkipGroups) < 2 {
		t.Errorf("picture lacks Visit-time shading (%v), deciding robots.txt lines (%v) or skip reasons (%d)", shaded, highlighted, len(v.SkipGroups))
	}
}
