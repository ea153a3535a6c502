package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestRobotsJSONSaysWhichGroupApplies: explain and check --json carry what
// their text leads with: the group that applies to
// the agent (RFC 9309 2.2.1: its own group, else the "*" group, else none,
// which allows everything), its rules, the pace in force and the
// Visit-time state (1996 extended standard), so a consumer can tell the
// three cases apart for a file without extensions.
func TestRobotsJSONSaysWhichGroupApplies(t *testing.T) {
	withStar := writeRobotsFile(t, "User-agent: mybot\nUser-agent: MyBot/1.0\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n")
	noStar := writeRobotsFile(t, "User-agent: other\nDisallow: /\nCrawl-delay: 1\nVisit-time: 0100-0200\n")
	type result struct {
		Group        []string
		Rules        []ruleJSON
		PaceNow      *paceNowJSON `json:"pace_now"`
		VisitOpenNow bool         `json:"visit_open_now"`
		NextVisit    *string      `json:"next_visit"`
		At           string
	}
	next := "2026-01-02T01:00:00Z"
	cases := []struct {
		name, file, agent string
		want              result
	}{
		{"own group", withStar, "MYBOT", result{Group: []string{"mybot", "MyBot/1.0"}, Rules: []ruleJSON{{3, "Disallow: /a"}}, VisitOpenNow: true}},
		{"the * group", withStar, "bot", result{Group: []string{"*"}, Rules: []ruleJSON{{6, "Disallow: /"}}, VisitOpenNow: true}},
		{"no group", noStar, "bot", result{Group: nil, Rules: []ruleJSON{}, VisitOpenNow: true}},
		{"visit closed", noStar, "other", result{Group: []string{"other"}, Rules: []ruleJSON{{2, "Disallow: /"}},
			PaceNow: &paceNowJSON{IntervalSeconds: 1, Line: 3, Rule: "Crawl-delay: 1"}, NextVisit: &next}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.want.At = "2026-01-01T14:00:00Z"
			for _, sub := range []string{"explain", "check"} {
				args := []string{sub, "--file", c.file, "--agent", c.agent, "--json"}
				if sub == "check" {
					args = append(args, "/x")
				}
				out, err := runRobotsCmd(t, robotsOptions{now: func() time.Time { return time.Date(2026, 1, 1, 14, 0, 0, 0, time.UTC) }}, args...)
				if err != nil {
					t.Fatal(err)
				}
				var got result
				if err := json.Unmarshal([]byte(out), &got); err != nil {
					t.Fatalf("%s: %v: %s", sub, err, out)
				}
				want := c.want
				if sub == "check" {
					want.Rules = nil // check gives the deciding rule, not the list
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: got %+v\nwant %+v\n%s", sub, got, want, out)
				}
				if !strings.Contains(out, `"group":`) || !strings.Contains(out, `"next_visit":`) {
					t.Errorf("%s: keys missing: %s", sub, out)
				}
			}
		})
	}
}
