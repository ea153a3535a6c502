package main

import (
	"time"

	"github.com/crawlproject/crawl/robots"
)

// groupJSON is what check and explain --json say about the group that
// applies to the agent at a moment, as their text does: the robot asked
// about, which group (null when none applies, or when the robots.txt
// fetch's policy decides instead), the pace in force and the Visit-time
// state.
type groupJSON struct {
	Agent        string       `json:"agent"`          // the robot's name the group was looked up by (--agent reduced, or agent.token)
	Group        []string     `json:"group"`          // the group's User-agent values; ["*"] for the * group; null for none
	PaceNow      *paceNowJSON `json:"pace_now"`       // the pace the group asks for at "at"; null if none
	VisitOpenNow bool         `json:"visit_open_now"` // whether a request may be sent at "at" (no Visit-time, or inside one)
	NextVisit    *string      `json:"next_visit"`     // when a window next opens (RFC 3339, UTC), if closed at "at"; else null
	At           string       `json:"at"`             // the moment the above hold for (RFC 3339, UTC)
}

// paceNowJSON is the pace a group asks for at a moment and the line that
// set it.
type paceNowJSON struct {
	IntervalSeconds float64 `json:"interval_seconds"`
	Line            int     `json:"line"`
	Rule            string  `json:"rule"` // the line as written
}

// ruleJSON is one line of the robots.txt: its number and the line as
// written: an Allow, Disallow or User-agent line, or a line of the
// records the pace is read from.
type ruleJSON struct {
	Line int    `json:"line"`
	Rule string `json:"rule"` // the line as written
}

// groupState builds the groupJSON of the group t gives agent at now.
func groupState(t robotsTxt, agent string, now time.Time) groupJSON {
	g := t.r.GroupNamed(agent)
	out := groupJSON{Agent: agent, VisitOpenNow: true, At: now.UTC().Format(time.RFC3339)}
	if effect, _ := t.policy(); effect == "" {
		if agents := g.Agents(); len(agents) > 0 {
			out.Group = agents
		}
	}
	if iv, line, text, ok := g.PaceLine(now); ok {
		out.PaceNow = &paceNowJSON{IntervalSeconds: iv.Seconds(), Line: line, Rule: text}
	}
	if !g.VisitAllowed(now) {
		next := g.NextVisit(now).UTC().Format(time.RFC3339)
		out.VisitOpenNow, out.NextVisit = false, &next
	}
	return out
}

// groupRules lists g's rules as explain --json gives them; [] for none.
func groupRules(g *robots.Group) []ruleJSON {
	out := []ruleJSON{}
	for _, r := range g.Rules() {
		out = append(out, ruleJSON{Line: r.Line, Rule: r.Text})
	}
	return out
}
