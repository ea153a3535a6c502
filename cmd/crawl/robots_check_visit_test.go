package main

import (
	"strings"
	"testing"
	"time"
)

// TestRobotsCheckVisitTimeClosed: the 1996 extended standard's Visit-time
// ("the robot is requested to only visit the site between the given
// times"): when no window is open at the moment of check, its group line
// says no request is made before the next window opens, and no "pace now"
// that would suggest one; explain says the same.
func TestRobotsCheckVisitTimeClosed(t *testing.T) {
	file := writeRobotsFile(t, "User-agent: *\nCrawl-delay: 0.2\nVisit-time: 0100-0200\n")
	at := func(h, m int) robotsOptions {
		return robotsOptions{now: func() time.Time { return time.Date(2026, 11, 22, h, m, 0, 0, time.UTC) }}
	}
	cases := []struct {
		name    string
		opts    robotsOptions
		sub     string
		want    string
		mustNot string
	}{
		{"check, closed", at(12, 38), "check",
			"the * group; visits only from 01:00 to 02:00:59 UTC: closed now, no request before 2026-11-23 01:00 UTC; pace then: at most one request every 200ms (line 2: Crawl-delay: 0.2)\n",
			"pace now"},
		{"check, open in the last minute", at(2, 0), "check",
			"the * group; pace now: at most one request every 200ms (line 2: Crawl-delay: 0.2); visits only from 01:00 to 02:00:59 UTC, open now\n",
			"closed"},
		{"explain, closed", at(0, 59), "explain",
			"pace now (00:59 UTC): no request: outside the Visit-time windows until 2026-11-22 01:00 UTC; then at most one request every 200ms",
			"pace now (00:59 UTC): at most"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := []string{c.sub, "--file", file, "--agent", "bot"}
			if c.sub == "check" {
				args = append(args, "/p1")
			}
			out, err := runRobotsCmd(t, c.opts, args...)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, c.want) || strings.Contains(out, c.mustNot) {
				t.Errorf("got\n%s\nwant %q and no %q", out, c.want, c.mustNot)
			}
		})
	}
}
