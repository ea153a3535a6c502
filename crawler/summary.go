package crawler

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// maxSummaryRobots caps the robots.txt text kept per host in summary.json.
const maxSummaryRobots = 64 << 10

// Summary is the end-of-crawl report, written as summary.json.
type Summary struct {
	Started     time.Time      `json:"started"`
	Finished    time.Time      `json:"finished"`
	Agent       string         `json:"agent"`
	UserAgent   string         `json:"user_agent"`
	Out         string         `json:"out"`
	Interrupted bool           `json:"interrupted"`
	ExitCode    int            `json:"exit_code"`
	Politeness  map[string]any `json:"politeness"`
	Totals      Totals         `json:"totals"`
	Hosts       []HostSummary  `json:"hosts"`
	SkipReasons map[string]int `json:"skip_reasons"`
}

// Totals counts the whole run.
type Totals struct {
	Fetched        int `json:"fetched"`
	RobotsFetches  int `json:"robots_fetches"`
	Skipped        int `json:"skipped"`
	Errors         int `json:"errors"`
	Queued         int `json:"queued"`
	DeferredHosts  int `json:"deferred_hosts"`
	DuplicateLinks int `json:"duplicate_links"`
}

// HostSummary is one host's line in the report.
type HostSummary struct {
	Host          string         `json:"host"`
	Label         string         `json:"label,omitempty"`
	Note          string         `json:"note,omitempty"`
	State         string         `json:"state"`
	PaceSeconds   float64        `json:"pace_seconds"`
	PaceRule      string         `json:"pace_rule"`
	PagesByStatus map[string]int `json:"pages_by_status"`
	Fetched       int            `json:"fetched"`
	RobotsFetches int            `json:"robots_fetches"`
	Errors        int            `json:"errors"`
	Skipped       int            `json:"skipped"`
	Queued        int            `json:"queued"`
	DeferredUntil *time.Time     `json:"deferred_until"`
	DeferReason   string         `json:"defer_reason,omitempty"`
	DropReason    string         `json:"drop_reason,omitempty"`
	Warning       string         `json:"warning,omitempty"`
	Robots        *RobotsSummary `json:"robots,omitempty"`
	Events        []HostEvent    `json:"events"`
}

// RobotsSummary is what a host's robots.txt said to our agent.
type RobotsSummary struct {
	URL               string        `json:"url"`
	Status            int           `json:"status"`
	Outcome           string        `json:"outcome"`
	Body              string        `json:"body"`
	Group             string        `json:"group"`
	CrawlDelaySeconds *float64      `json:"crawl_delay_seconds"`
	RequestRates      []RateSummary `json:"request_rates"`
	VisitTimes        []WindowJSON  `json:"visit_times"`
	Comments          []string      `json:"comments"`
	Sitemaps          []string      `json:"sitemaps"`
	Warnings          []string      `json:"warnings"`
}

// RateSummary is one Request-rate line.
type RateSummary struct {
	Requests int     `json:"requests"`
	Seconds  float64 `json:"seconds"`
	From     *string `json:"from"`
	To       *string `json:"to"`
}

// WindowJSON is a UTC window as "HH:MM".
type WindowJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// HostEvent is a host state change worth showing on its timeline.
type HostEvent struct {
	Time   time.Time  `json:"time"`
	Kind   string     `json:"kind"`
	Until  *time.Time `json:"until"`
	Detail string     `json:"detail"`
}

func (c *crawl) finish(started time.Time, interrupted bool) *Summary {
	s := &Summary{Started: started.UTC(), Finished: time.Now().UTC(), Agent: c.cfg.Agent.Token, UserAgent: c.cfg.UserAgentHeader(),
		Out: c.cfg.Out, Interrupted: interrupted, SkipReasons: map[string]int{}}
	p := c.cfg.Politeness
	s.Politeness = map[string]any{
		"default_delay_seconds": p.DefaultDelay.Seconds(), "min_delay_seconds": p.MinDelay.Seconds(),
		"fetch_time_factor": p.FetchTimeFactor, "per_host": p.PerHost, "max_wait_seconds": p.MaxWait.Seconds(),
		"max_crawl_delay_seconds": p.MaxCrawlDelay.Seconds(), "crawl_delay_policy": p.CrawlDelayPolicy,
	}
	st := c.sched.Stats()
	s.Totals = Totals{Queued: st.Queued}
	c.tally.mu.Lock()
	s.Totals.DuplicateLinks = c.tally.duplicates
	tallies := map[string]hostTally{}
	for a, h := range c.tally.hosts {
		tallies[a] = *h
	}
	c.tally.mu.Unlock()
	events := c.events.hostEvents()
	for _, hs := range c.sched.Hosts() {
		t := tallies[hs.Authority]
		h := HostSummary{Host: hs.Authority, State: hs.State, PaceSeconds: hs.Interval.Seconds(), PaceRule: hs.PaceSource,
			PagesByStatus: t.byStatus, Fetched: t.fetched, RobotsFetches: t.robots, Errors: t.errors, Queued: hs.Queued, DeferReason: hs.DeferReason,
			DropReason: hs.DropReason, Warning: hs.Warning, Events: events[hs.Authority]}
		if h.PagesByStatus == nil {
			h.PagesByStatus = map[string]int{}
		}
		if n, ok := c.opts.HostNotes[hs.Authority]; ok {
			h.Label, h.Note = n.Label, n.Note
		}
		if h.Events == nil {
			h.Events = []HostEvent{}
		}
		for r, n := range t.skipped {
			h.Skipped += n
			s.SkipReasons[r] += n
		}
		if !hs.DeferredUntil.IsZero() {
			u := hs.DeferredUntil.UTC()
			h.DeferredUntil = &u
			s.Totals.DeferredHosts++
		}
		if rs, _ := c.robots.cached(hs.Authority, time.Time{}); rs != nil {
			h.Robots = robotsSummary(rs)
		}
		s.Totals.Fetched += t.fetched
		s.Totals.RobotsFetches += t.robots
		s.Totals.Errors += t.errors
		s.Totals.Skipped += h.Skipped
		delete(tallies, hs.Authority)
		s.Hosts = append(s.Hosts, h)
	}
	for a, t := range tallies { // hosts seen only through skips or robots redirects
		h := HostSummary{Host: a, State: scheduler.StateDone, PagesByStatus: t.byStatus, Fetched: t.fetched, RobotsFetches: t.robots, Errors: t.errors, Events: []HostEvent{}}
		for r, n := range t.skipped {
			h.Skipped += n
			s.SkipReasons[r] += n
		}
		s.Totals.Fetched += t.fetched
		s.Totals.RobotsFetches += t.robots
		s.Totals.Errors += t.errors
		s.Totals.Skipped += h.Skipped
		s.Hosts = append(s.Hosts, h)
	}
	sort.Slice(s.Hosts, func(i, j int) bool { return s.Hosts[i].Host < s.Hosts[j].Host })
	if interrupted {
		s.ExitCode = 130
	}
	if err := writeSummary(c.cfg.Out, s); err != nil {
		c.log.Error("summary not written", "err", err)
	}
	return s
}

func robotsSummary(st *robotsState) *RobotsSummary {
	g := st.group
	r := &RobotsSummary{URL: st.rec.URL, Status: st.rec.Status, Outcome: st.rec.Outcome, Group: strings.Join(g.Agents(), ", "),
		RequestRates: []RateSummary{}, VisitTimes: []WindowJSON{}, Comments: g.Comments(), Sitemaps: st.robots.Sitemaps(), Warnings: []string{}}
	body := st.rec.Body
	if len(body) > maxSummaryRobots {
		body = body[:maxSummaryRobots]
	}
	r.Body = string(body)
	if d, ok := g.CrawlDelay(); ok {
		secs := d.Seconds()
		r.CrawlDelaySeconds = &secs
	}
	for _, rr := range g.RequestRates() {
		rs := RateSummary{Requests: rr.Requests, Seconds: rr.Per.Seconds()}
		if rr.Windowed {
			f, t := rr.Window.FromClock(), rr.Window.ToClock()
			rs.From, rs.To = &f, &t
		}
		r.RequestRates = append(r.RequestRates, rs)
	}
	for _, w := range g.VisitTimes() {
		r.VisitTimes = append(r.VisitTimes, WindowJSON{From: w.FromClock(), To: w.ToClock()})
	}
	for _, w := range st.robots.Warnings() {
		r.Warnings = append(r.Warnings, fmt.Sprintf("line %d: %s", w.Line, w.Message))
	}
	if r.Comments == nil {
		r.Comments = []string{}
	}
	if r.Sitemaps == nil {
		r.Sitemaps = []string{}
	}
	return r
}

func writeSummary(dir string, s *Summary) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("crawler: encode summary: %w", err)
	}
	tmp := filepath.Join(dir, SummaryFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("crawler: write summary: %w", err)
	}
	return os.Rename(tmp, filepath.Join(dir, SummaryFile))
}

// Print writes the summary for a person: per host, pages by status, the pace
// used and what set it, deferred URLs and the site's Comment lines.
func (s *Summary) Print(w io.Writer) {
	fmt.Fprintf(w, "\nCrawl summary (%s, %s)\n", s.Out, s.Finished.Sub(s.Started).Round(time.Millisecond))
	fmt.Fprintf(w, "  fetched %d pages (and %d robots.txt), skipped %d, errors %d, still queued %d\n", s.Totals.Fetched, s.Totals.RobotsFetches, s.Totals.Skipped, s.Totals.Errors, s.Totals.Queued)
	for _, h := range s.Hosts {
		fmt.Fprintf(w, "\n  %s  [%s]\n", h.Host, h.State)
		fmt.Fprintf(w, "    pages: %s\n", statusMix(h.PagesByStatus))
		if h.PaceRule != "" {
			fmt.Fprintf(w, "    pace:  %s, set by %s\n", roundDur(time.Duration(h.PaceSeconds*float64(time.Second))), h.PaceRule)
		}
		if h.Warning != "" {
			fmt.Fprintf(w, "    warning: %s\n", h.Warning)
		}
		if h.DeferredUntil != nil {
			fmt.Fprintf(w, "    deferred until %s (%s): %d URLs wait in the frontier\n", h.DeferredUntil.Format(time.RFC3339), h.DeferReason, h.Queued)
		}
		if h.DropReason != "" {
			fmt.Fprintf(w, "    dropped: %s\n", h.DropReason)
		}
		if h.Robots != nil {
			for _, c := range h.Robots.Comments {
				fmt.Fprintf(w, "    the site says: %s\n", c)
			}
		}
	}
	if len(s.SkipReasons) > 0 {
		keys := make([]string, 0, len(s.SkipReasons))
		for k := range s.SkipReasons {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(w, "\n  not fetched:")
		for _, k := range keys {
			fmt.Fprintf(w, " %s %d;", k, s.SkipReasons[k])
		}
		fmt.Fprintln(w, " (reasons in skips.jsonl)")
	}
	if s.Totals.DeferredHosts > 0 {
		fmt.Fprintf(w, "\n  %d host(s) deferred: run the same command again later to continue.\n", s.Totals.DeferredHosts)
	}
}

func statusMix(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s x%d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
