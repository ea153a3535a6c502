package main

import (
	"fmt"
	"strings"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robots"
)

// explain shows where each part of what applies to an agent comes from:
// the Allow and Disallow lines from the RFC 9309 group (its User-agent
// lines: every one up to the group's first rule), the pace, Visit-time,
// Comment and Robot-version from the 1996 records naming the agent (the
// User-agent lines directly above those lines), or naming "*" when no
// User-agent line names it.

// paceRecordJSON is explain --json's "pace_record": the records the pace
// is read from, their lines flattened in file order.
type paceRecordJSON struct {
	StarFallback bool       `json:"star_fallback"` // no User-agent line names the agent: the records naming "*" (if any) apply
	UserAgents   []ruleJSON `json:"user_agents"`   // the records' User-agent lines
	Lines        []ruleJSON `json:"lines"`         // their Crawl-delay, Request-rate, Visit-time, Comment and Robot-version lines
}

// jsonLines turns robots.Lines into their JSON; [] for none.
func jsonLines(ls []robots.Line) []ruleJSON {
	out := []ruleJSON{}
	for _, l := range ls {
		out = append(out, ruleJSON{Line: l.N, Rule: l.Text})
	}
	return out
}

// paceRecord builds the "pace_record" of the group g that agent gets from
// t; nil when the fetch's policy decides.
func paceRecord(t robotsTxt, g *robots.Group, agent string) *paceRecordJSON {
	if t.policyText() != "" {
		return nil
	}
	recs, _ := g.PaceRecords()
	out := &paceRecordJSON{StarFallback: !t.r.Names(agent), UserAgents: []ruleJSON{}, Lines: []ruleJSON{}}
	for _, rec := range recs {
		out.UserAgents = append(out.UserAgents, jsonLines(rec.Agents)...)
		out.Lines = append(out.Lines, jsonLines(rec.Pace)...)
	}
	return out
}

// writeLines writes ls as explain's text lists lines: "  line N: text".
func writeLines(b *strings.Builder, ls []robots.Line) {
	for _, l := range ls {
		fmt.Fprintf(b, "  line %d: %s\n", l.N, crawllog.Printable(l.Text))
	}
}

// writePaceRecords writes which 1996 records the pace of g, the group
// agent gets, is read from, and their lines in file order.
func writePaceRecords(b *strings.Builder, t robotsTxt, g *robots.Group, agent string) {
	recs, _ := g.PaceRecords()
	q := crawllog.Printable(fmt.Sprintf("%q", agent))
	switch {
	case t.r.Names(agent):
		fmt.Fprintf(b, "pace from the 1996 records naming %s (the User-agent lines directly above the pace lines):\n", q)
	case len(recs) > 0:
		fmt.Fprintf(b, "pace from the 1996 records naming *, as no User-agent line names %s:\n", q)
	default:
		fmt.Fprintf(b, "pace: no 1996 record names %s or *\n", q)
	}
	for _, rec := range recs {
		writeLines(b, rec.Agents)
		writeLines(b, rec.Pace)
	}
}

// paceConflicts are the warnings about Crawl-delays of g's records that a
// slower one of another record overrode, as explain lists warnings.
func paceConflicts(g *robots.Group) []string {
	_, conflicts := g.PaceRecords()
	var out []string
	for _, w := range conflicts {
		out = append(out, w.String())
	}
	return out
}
