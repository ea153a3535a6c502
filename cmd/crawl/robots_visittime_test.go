package main

import (
	"strings"
	"testing"
	"time"
)

// TestRobotsExplainVisitTimeZones1996: explain reads a Visit-time written
// with the zone the 1996 extended standard names ("<time> is in UT (or
// GMT)") instead of dropping it as "any time", and
// warns, with the line, about a zone it cannot read.
func TestRobotsExplainVisitTimeZones1996(t *testing.T) {
	for _, c := range []struct{ value, window, warn string }{
		{"0100-0200 UTC", "01:00", ""},
		{"0100-0200 gmt", "01:00", ""},
		{"0100Z-0200Z", "01:00", ""},
		{"01:00-02:00", "01:00", ""},
		{"0100 to 0200", "01:00", ""},
		{"0200-0300 +0100", "01:00", "line 3: Visit-time times are UTC (1996 extended standard); written at UTC+01:00"},
		{"0100-0200 CET", "01:00", `line 3: Visit-time: "CET" is a word this crawler does not read`},
	} {
		file := writeRobotsFile(t, "User-agent: *\nCrawl-delay: 0.2\nVisit-time: "+c.value+"\n")
		out, err := runRobotsCmd(t, robotsOptions{}, "explain", "--file", file, "--agent", "bot")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out, "any time") || !strings.Contains(out, c.window) {
			t.Errorf("%q: window %s not shown:\n%s", c.value, c.window, out)
		}
		if c.warn == "" && !strings.Contains(out, "warnings: 0") || c.warn != "" && !strings.Contains(out, c.warn) {
			t.Errorf("%q: want warning %q:\n%s", c.value, c.warn, out)
		}
	}
}

// TestRobotsExplainWindowEndIncluded: explain words a window's end as the
// crawl keeps it, through the whole last minute (robots.Window.Contains;
// the 1996 extended standard's example tiles a day with 1300-1659,
// 1700-0459 and 0500-1259), so a one-minute window does not read as
// "between 12:23 and 12:23".
func TestRobotsExplainWindowEndIncluded(t *testing.T) {
	file := writeRobotsFile(t, "User-agent: *\nVisit-time: 1223-1224\nRequest-rate: 1/2s 1223-1223\nRequest-rate: 1/6s\n")
	now := func() time.Time { return time.Date(2026, 11, 22, 12, 21, 0, 0, time.UTC) }
	out, err := runRobotsCmd(t, robotsOptions{now: now}, "explain", "--file", file, "--agent", "bot")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Request-rate: 1 per 2s (one every 2s) from 12:23 to 12:23:59 UTC  [line 3]",
		"visit only from 12:23 to 12:24:59 UTC; closed now, next window opens 2026-11-22 12:23 UTC",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
