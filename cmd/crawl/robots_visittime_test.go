package main

import (
	"strings"
	"testing"
)

// TestRobotsExplainVisitTimeZones1996: explain reads a Visit-time written
// with the zone the 1996 extended standard names ("<time> is in UT (or
// GMT)") instead of dropping it as "any time" (review 28 finding 5), and
// warns, with the line, about a zone it cannot read.
func TestRobotsExplainVisitTimeZones1996(t *testing.T) {
	for _, c := range []struct{ value, window, warn string }{
		{"0100-0200 UTC", "01:00", ""},
		{"0100-0200 gmt", "01:00", ""},
		{"0100Z-0200Z", "01:00", ""},
		{"01:00-02:00", "01:00", ""},
		{"0100 to 0200", "01:00", ""},
		{"0200-0300 +0100", "01:00", "line 3: Visit-time times are UTC (1996 extended standard); written at UTC+01:00"},
		{"0100-0200 CET", "01:00", `line 3: Visit-time: "CET" is not a time zone this crawler reads`},
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
