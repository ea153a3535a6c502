package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robots"
)

// checkLine is one line of "robots check --json".
type checkLine struct {
	URL       string        `json:"url"`        // as typed
	CheckedAs *string       `json:"checked_as"` // as the crawler requests it (checkedAs), the form judged; null if it would not request it
	Allowed   bool          `json:"allowed"`
	Rule      string        `json:"rule"`
	Line      int           `json:"line"`
	RobotsTxt robotsTxtJSON `json:"robots_txt"`
	groupJSON
}

func runRobotsCheck(w io.Writer, load func(string) (robotsTxt, error), f robotsFlags, targets []string, now time.Time) error {
	// The robots.txt files the targets were checked against, in the order
	// first met: several when the URLs are on several hosts.
	var files []robotsTxt
	seen := map[string]bool{}
	agent := f.asked.name
	if note := f.asked.noteLine(); note != "" && !f.json {
		if _, err := io.WriteString(w, note); err != nil {
			return err
		}
	}
	for _, target := range targets {
		t, err := load(target)
		if err != nil {
			return err
		}
		canon, requestable := checkedAs(target)
		v := t.r.GroupNamed(agent).Allowed(canon)
		if f.json {
			var as *string
			if requestable {
				as = &canon
			}
			if err := encodeJSON(w, checkLine{URL: target, CheckedAs: as, Allowed: v.Allowed, Rule: v.Rule, Line: v.Line, RobotsTxt: t.json(),
				groupJSON: groupState(t, agent, now)}); err != nil {
				return err
			}
			continue
		}
		word := "ALLOWED   "
		if !v.Allowed {
			word = "DISALLOWED"
		}
		why := v.Reason.String()
		switch {
		case v.Reason == robots.ReasonRule:
			why = fmt.Sprintf("line %d: %s", v.Line, v.Rule)
		case v.Reason != robots.ReasonRobotsTxt && t.policyText() != "":
			why = "robots.txt " + t.outcome()
		}
		switch {
		case !requestable:
			why = "judged as typed: the crawl would not request this URL; " + why
		case !spelledAlike(target, canon):
			why = "checked as " + canon + ", the URL the crawler requests; " + why
		}
		if _, err := fmt.Fprintf(w, "%s %s  (%s)\n", word, crawllog.Printable(target), crawllog.Printable(why)); err != nil {
			return err
		}
		if !seen[t.source] {
			seen[t.source] = true
			files = append(files, t)
		}
	}
	for _, t := range files {
		prefix := ""
		if len(files) > 1 {
			prefix = crawllog.Printable(t.source) + ": "
		}
		if _, err := fmt.Fprintf(w, "%s%s; %s\n", prefix, groupName(t, agent), paceNow(t.r.GroupNamed(agent), now)); err != nil {
			return err
		}
	}
	return nil
}

// explainJSON is the object "robots explain --json" prints.
type explainJSON struct {
	RobotsTxt         robotsTxtJSON     `json:"robots_txt"`
	CrawlDelaySeconds *float64          `json:"crawl_delay_seconds"`
	RequestRates      []explainRateJSON `json:"request_rates"`
	VisitTimes        []explainSpanJSON `json:"visit_times"`
	Comments          []string          `json:"comments"`
	Sitemaps          []string          `json:"sitemaps"`
	RobotVersion      *string           `json:"robot_version"`
	Warnings          []string          `json:"warnings"`
	Rules             []ruleJSON        `json:"rules"` // the group's Allow and Disallow lines; [] when the fetch's policy decides
	// GroupLines are the User-agent lines of the RFC 9309 groups the rules
	// come from; [] when the fetch's policy decides.
	GroupLines []ruleJSON `json:"group_lines"`
	// PaceRecord is where the pace comes from: the 1996 records naming the
	// agent, or "*"; null when the fetch's policy decides.
	PaceRecord *paceRecordJSON `json:"pace_record"`
	groupJSON
}

type explainRateJSON struct {
	Requests        int     `json:"requests"`
	Seconds         float64 `json:"seconds"`          // the period as written
	IntervalSeconds float64 `json:"interval_seconds"` // between two requests: seconds/requests, at most a day
	From            *string `json:"from"`
	To              *string `json:"to"`
}

type explainSpanJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func writeExplainJSON(w io.Writer, t robotsTxt, agent string, now time.Time) error {
	r := t.r
	g := r.GroupNamed(agent)
	out := explainJSON{
		Rules:        []ruleJSON{},
		groupJSON:    groupState(t, agent, now),
		RobotsTxt:    t.json(),
		RequestRates: []explainRateJSON{},
		VisitTimes:   []explainSpanJSON{},
		Comments:     append([]string{}, g.Comments()...),
		Sitemaps:     append([]string{}, r.Sitemaps()...),
		Warnings:     []string{},
	}
	if d, ok := g.CrawlDelay(); ok {
		s := d.Seconds()
		out.CrawlDelaySeconds = &s
	}
	for _, rate := range g.RequestRates() {
		j := explainRateJSON{Requests: rate.Requests, Seconds: rate.Per.Seconds(), IntervalSeconds: rate.Interval().Seconds()}
		if rate.Windowed {
			from, to := rate.Window.FromClock(), rate.Window.ToClock()
			j.From, j.To = &from, &to
		}
		out.RequestRates = append(out.RequestRates, j)
	}
	for _, win := range g.VisitTimes() {
		out.VisitTimes = append(out.VisitTimes, explainSpanJSON{From: win.FromClock(), To: win.ToClock()})
	}
	if v, ok := g.RobotVersion(); ok {
		out.RobotVersion = &v
	}
	out.Warnings = append(out.Warnings, t.warnings()...)
	out.Warnings = append(out.Warnings, paceConflicts(g)...)
	out.GroupLines, out.PaceRecord = []ruleJSON{}, paceRecord(t, g, agent)
	if t.policyText() == "" {
		out.Rules = groupRules(g)
		out.GroupLines = jsonLines(g.AgentLines())
	}
	return encodeJSON(w, out)
}

func writeExplainText(w io.Writer, t robotsTxt, asked askedAgent, now time.Time) error {
	r, agent := t.r, asked.name
	g := r.GroupNamed(agent)
	var b strings.Builder
	b.WriteString(asked.noteLine())
	fmt.Fprintf(&b, "robots.txt: %s (%s", crawllog.Printable(t.source), crawllog.Printable(t.outcome()))
	if r.Truncated() {
		b.WriteString(", cut at the parsing limit, robots.max_bytes")
	}
	b.WriteString(")\n")
	rules := g.Rules()
	if p := t.policyText(); p != "" {
		fmt.Fprintf(&b, "policy: %s\n", p)
		fmt.Fprintf(&b, "agent %q -> no group; the policy applies to every agent\n", agent)
		b.WriteString("rules: none (the policy decides every URL)\n")
	} else {
		fmt.Fprintf(&b, "agent %q -> %s\n", agent, groupName(t, agent))
		writeLines(&b, g.AgentLines())
		fmt.Fprintf(&b, "rules: %d (longest match wins, Allow wins a tie)\n", len(rules))
	}
	for _, rule := range rules {
		fmt.Fprintf(&b, "  line %d: %s\n", rule.Line, crawllog.Printable(rule.Text))
	}
	if t.policyText() == "" {
		writePaceRecords(&b, t, g, agent)
	}
	if g.VisitAllowed(now) {
		fmt.Fprintf(&b, "pace now (%s): %s\n", now.UTC().Format("15:04 UTC"), paceWords(g, now))
	} else {
		next := g.NextVisit(now)
		fmt.Fprintf(&b, "pace now (%s): no request: outside the Visit-time windows until %s; then %s\n",
			now.UTC().Format("15:04 UTC"), next.UTC().Format("2006-01-02 15:04 UTC"), paceWords(g, next))
	}
	if d, ok := g.CrawlDelay(); ok {
		if d == 0 {
			b.WriteString("  Crawl-delay: 0, no pace asked for\n")
		} else {
			fmt.Fprintf(&b, "  Crawl-delay: one request every %s\n", robots.ShortDuration(d))
		}
	}
	for _, rate := range g.RequestRates() {
		when := "at any time"
		if rate.Windowed {
			when = "from " + rate.Window.Span() // the last minute included, as the crawl applies it
		}
		capped := ""
		if rate.Interval() < rate.Per/time.Duration(rate.Requests) {
			capped = ", capped at " + robots.ShortDuration(robots.MaxDelay)
		}
		fmt.Fprintf(&b, "  Request-rate: %d per %s (one every %s%s) %s  [line %d]\n",
			rate.Requests, robots.ShortDuration(rate.Per), robots.ShortDuration(rate.Interval()), capped, when, rate.Line)
	}
	if wins := g.VisitTimes(); len(wins) > 0 {
		fmt.Fprintf(&b, "visit only %s; %s\n", visitSpans(wins), visitNow(g, now))
	} else {
		b.WriteString("visit times: any time\n")
	}
	if v, ok := g.RobotVersion(); ok {
		fmt.Fprintf(&b, "robot-version: %s (informational; rules follow RFC 9309)\n", crawllog.Printable(v))
	}
	for _, c := range g.Comments() {
		fmt.Fprintf(&b, "comment: %s\n", crawllog.Printable(c))
	}
	for _, s := range r.Sitemaps() {
		fmt.Fprintf(&b, "sitemap: %s\n", crawllog.Printable(s))
	}
	ws := append(t.warnings(), paceConflicts(g)...)
	fmt.Fprintf(&b, "warnings: %d\n", len(ws))
	for _, warn := range ws {
		fmt.Fprintf(&b, "  %s\n", crawllog.Printable(warn))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// visitSpans words Visit-time windows as the crawl keeps them, each last
// minute included: "from 06:00 to 08:45:59 UTC" (Window.Span).
func visitSpans(wins []robots.Window) string {
	spans := make([]string, len(wins))
	for i, win := range wins {
		spans[i] = win.Span()
		if !strings.HasPrefix(spans[i], "all day") {
			spans[i] = "from " + spans[i]
		}
	}
	return strings.Join(spans, ", ")
}

// visitNow says whether g's Visit-time windows are open at now and, if
// not, when the crawl may next send a request.
func visitNow(g *robots.Group, now time.Time) string {
	if g.VisitAllowed(now) {
		return "open now"
	}
	return "closed now, next window opens " + g.NextVisit(now).UTC().Format("2006-01-02 15:04 UTC")
}

// groupName describes the group that applies to agent, for people.
func groupName(t robotsTxt, agent string) string {
	if effect, _ := t.policy(); effect != "" {
		return "no group: robots.txt " + crawllog.Printable(t.outcome()) + ", so " + effect
	}
	agents := t.r.GroupNamed(agent).Agents()
	switch {
	case len(agents) == 0:
		return "no group applies (everything allowed)"
	case len(agents) == 1 && agents[0] == "*":
		return "the * group"
	}
	return "group User-agent: " + crawllog.Printable(strings.Join(agents, ", "))
}

// paceNow says, for check's group line, what the crawl would do at now:
// the pace, and, for a group with Visit-time windows, the windows and
// whether one is open; outside them, that no request is sent before the
// next opens, and the pace from then.
func paceNow(g *robots.Group, now time.Time) string {
	wins := g.VisitTimes()
	switch {
	case len(wins) == 0:
		return "pace now: " + paceWords(g, now)
	case g.VisitAllowed(now):
		return "pace now: " + paceWords(g, now) + "; visits only " + visitSpans(wins) + ", open now"
	}
	next := g.NextVisit(now)
	return fmt.Sprintf("visits only %s: closed now, no request before %s; pace then: %s",
		visitSpans(wins), next.UTC().Format("2006-01-02 15:04 UTC"), paceWords(g, next))
}

// paceWords says in words how fast the group lets a crawler go at now.
func paceWords(g *robots.Group, now time.Time) string {
	const keeps = "a crawl keeps its politeness.default_delay, 10s unless configured"
	interval, source, ok := g.Pace(now)
	if !ok {
		return "no pace asked for (" + keeps + ")"
	}
	if interval == 0 {
		// "Crawl-delay: 0" asks for no pace; the crawl does not go faster
		// than its default for it.
		return fmt.Sprintf("no pace asked for (%s; %s)", crawllog.Printable(source), keeps)
	}
	return fmt.Sprintf("at most one request every %s (%s)", robots.ShortDuration(interval), crawllog.Printable(source))
}

// encodeJSON writes v as one line of JSON. encoding/json escapes the C0
// controls and replaces invalid UTF-8, but writes DEL, the C1 controls and
// the bidi and other format characters as they are; they are escaped here
// too ("\u007f", "\u009b", "\u202e"), which is the same JSON.
func encodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	out := buf.Bytes()
	if bytes.IndexFunc(out, func(r rune) bool { return r != '\n' && !strconv.IsPrint(r) }) >= 0 {
		var b bytes.Buffer
		for _, r := range string(out) {
			if r != '\n' && !strconv.IsPrint(r) {
				if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
					fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
				} else {
					fmt.Fprintf(&b, `\u%04x`, r)
				}
				continue
			}
			b.WriteRune(r)
		}
		out = b.Bytes()
	}
	_, err := w.Write(out)
	return err
}
