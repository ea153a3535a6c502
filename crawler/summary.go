package crawler

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robotscache"
	"github.com/crawlproject/crawl/scheduler"
)

// ExitHostsGivenUp is the exit status of a crawl that ended with hosts
// given up after connection failures (Summary.Totals.DroppedHosts): their
// URLs are kept, and running the same command again retries them.
const ExitHostsGivenUp = 3

// maxSummaryRobots caps the robots.txt text kept per host in summary.json.
const maxSummaryRobots = 64 << 10

// A host's robots.txt summary keeps its first maxSummaryLines Comment lines
// and warnings, its first maxSummarySitemaps Sitemap lines, each cut to
// maxSummaryText octets, and counts the rest: 200 hosts with a robots.txt
// of 4,000 of each made a 154 MB summary.json.
const (
	maxSummaryLines    = 20
	maxSummarySitemaps = 50
	maxSummaryText     = 500
)

// finish ends the run in runs.jsonl and writes summary.json for the whole
// crawl of the output directory: this run's counts added to the earlier
// runs' (read from the logs when the run started), the start of the first
// run as Started, and each run's share in Runs.
func (c *crawl) finish(interrupted bool) *crawllog.Summary {
	c.tally.mu.Lock()
	dups, again := c.tally.duplicates, c.tally.queuedAgain
	c.tally.mu.Unlock()
	if err := endRun(c.runs, crawllog.ModeCrawl, interrupted, dups, again); err != nil {
		c.fail(WroteLog, err)
	}
	if dropped, reloaded := c.robots.Squeezed(); dropped > 0 {
		c.log.Warn("robots cache was full this run", "cache_bytes", c.cfg.Robots.CacheBytes,
			"busy_files_dropped", dropped, "parsed_again", reloaded)
	}
	failedBy, failedIn := c.history.failing.counts()
	s := c.newSummary(interrupted, dups, failedIn)
	c.addHosts(s, c.hostTallies(), failedBy)
	s.ExitCode = c.exitCode(s, interrupted)
	if err := writeSummary(c.cfg.Out, s); err != nil {
		c.fail(WroteLog, err)
	}
	return s
}

// admitted reports whether the crawl had anything to do with the host
// beyond declining links to it: a request, or a skip of a URL that was
// in scope (a robots.txt rule, the host's state, a limit).
func (h hostTally) admitted() bool {
	if h.fetched > 0 || h.robots > 0 {
		return true
	}
	for r := range h.skipped {
		if r != string(scheduler.ReasonOutOfScope) && r != string(scheduler.ReasonInvalidURL) {
			return true
		}
	}
	return false
}

// tallied returns a host's summary from its counts and the number of its
// URLs that ended in error, with state "done", and adds them to s's totals
// and skip reasons.
func tallied(s *crawllog.Summary, host string, t hostTally, errors int) crawllog.HostSummary {
	h := crawllog.HostSummary{Host: host, State: scheduler.StateDone, PagesByStatus: t.byStatus, Fetched: t.fetched,
		Requisites: t.requisites, Sitemaps: t.sitemaps, RobotsFetches: t.robots, Errors: errors, Events: []crawllog.HostEvent{}}
	if h.PagesByStatus == nil {
		h.PagesByStatus = map[string]int{}
	}
	for r, n := range t.skipped {
		h.Skipped += n
		s.SkipReasons[r] += n
	}
	s.Totals.Fetched += t.fetched
	s.Totals.Requisites += t.requisites
	s.Totals.Sitemaps += t.sitemaps
	s.Totals.RobotsFetches += t.robots
	s.Totals.Errors += errors
	s.Totals.Skipped += h.Skipped
	return h
}

func robotsSummary(st *robotscache.State) *crawllog.RobotsSummary {
	g, rec := st.Group(), st.Record()
	r := &crawllog.RobotsSummary{URL: rec.URL, Status: rec.Status, Outcome: rec.Outcome, Policy: rec.Policy, Group: strings.Join(g.Agents(), ", "),
		RequestRates: []crawllog.RateSummary{}, VisitTimes: []crawllog.WindowJSON{}}
	r.Comments, r.CommentsOmitted = firstOf(g.Comments(), maxSummaryLines, maxSummaryText)
	r.Sitemaps, r.SitemapsOmitted = firstOf(st.Robots().Sitemaps(), maxSummarySitemaps, maxSummaryText)
	body := rec.Body
	if len(body) > maxSummaryRobots {
		body = body[:maxSummaryRobots]
	}
	r.Body = string(body)
	if rec.Outcome != robotscache.OutcomeParsed {
		// No file was read: no group was matched (the policy decides).
		r.Group = ""
	}
	if d, ok := g.CrawlDelay(); ok {
		secs := d.Seconds()
		r.CrawlDelaySeconds = &secs
	}
	for _, rr := range g.RequestRates() {
		rs := crawllog.RateSummary{Requests: rr.Requests, Seconds: rr.Per.Seconds()}
		if rr.Windowed {
			f, t := rr.Window.FromClock(), rr.Window.ToClock()
			rs.From, rs.To = &f, &t
		}
		r.RequestRates = append(r.RequestRates, rs)
	}
	for _, w := range g.VisitTimes() {
		r.VisitTimes = append(r.VisitTimes, crawllog.WindowJSON{From: w.FromClock(), To: w.ToClock()})
	}
	ws := st.Robots().Warnings()
	warnings := make([]string, 0, min(len(ws), maxSummaryLines))
	for _, w := range ws[:min(len(ws), maxSummaryLines)] {
		if w.Line == 0 { // about the file as a whole
			warnings = append(warnings, w.Message)
			continue
		}
		warnings = append(warnings, fmt.Sprintf("line %d: %s", w.Line, w.Message))
	}
	r.Warnings, _ = firstOf(warnings, maxSummaryLines, maxSummaryText)
	r.WarningsOmitted = len(ws) - len(r.Warnings)
	return r
}

// firstOf returns copies of the first n strings of list, each cut to at
// most width octets (on a UTF-8 boundary), never nil, and how many it left
// out. The copies keep no parsed robots.txt alive.
func firstOf(list []string, n, width int) ([]string, int) {
	out := make([]string, 0, min(len(list), n))
	for _, s := range list[:min(len(list), n)] {
		if len(s) > width {
			s = strings.ToValidUTF8(s[:width], "") + "…"
		}
		out = append(out, strings.Clone(s))
	}
	return out, len(list) - len(out)
}

func writeSummary(dir string, s *crawllog.Summary) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("crawler: encode summary: %w", err)
	}
	tmp := filepath.Join(dir, crawllog.SummaryFile+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		os.Remove(tmp) // the old summary stays whole
		return fmt.Errorf("crawler: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, crawllog.SummaryFile)); err != nil {
		return fmt.Errorf("crawler: %w", err)
	}
	return nil
}

// newSummary starts the summary of the crawl of the output directory: its
// time span, agent and settings, every run's share (this one's last, each
// charged the URLs whose last failed attempt it made), and the totals
// the frontier knows.
func (c *crawl) newSummary(interrupted bool, dups int, failedIn map[time.Time]int) *crawllog.Summary {
	now := time.Now()
	s := &crawllog.Summary{Started: c.history.started(c.started).UTC(), Finished: now.UTC(), Agent: c.cfg.Agent.Token, UserAgent: c.cfg.UserAgentHeader(),
		Out: c.cfg.Out, Interrupted: interrupted, SkipReasons: map[string]int{}, Ephemeral: c.opts.Ephemeral}
	fin := now.UTC()
	run := crawllog.RunSummary{Started: c.started.UTC(), Finished: &fin, Mode: crawllog.ModeCrawl, Interrupted: interrupted}
	c.tally.runCounts(&run)
	s.Runs = append(append([]crawllog.RunSummary{}, c.history.runs...), run)
	// Errors are URLs that ended in error, each charged to the run of its
	// last attempt: a URL retried with success, in this run or a later
	// one, is none.
	for i := range s.Runs {
		s.Runs[i].Errors = failedIn[s.Runs[i].Started.UTC()]
	}
	p := c.cfg.Politeness
	s.Politeness = map[string]any{
		"default_delay_seconds": p.DefaultDelay.Seconds(), "min_delay_seconds": p.MinDelay.Seconds(),
		"fetch_time_factor": p.FetchTimeFactor, "per_host": p.PerHost, "max_wait_seconds": p.MaxWait.Seconds(),
		"max_crawl_delay_seconds": p.MaxCrawlDelay.Seconds(), "crawl_delay_policy": p.CrawlDelayPolicy,
	}
	st := c.sched.Stats()
	// A URL leased when the run stopped stays in the frontier: queued.
	s.Totals = crawllog.Totals{Queued: st.Queued + st.Leased}
	s.Totals.DuplicateLinks = c.history.duplicates + dups
	return s
}

// hostTallies adds up each host's counts over the earlier runs and this
// one.
func (c *crawl) hostTallies() map[string]hostTally {
	tallies := map[string]hostTally{}
	for _, t := range []*tally{c.history.tally, c.tally} {
		t.mu.Lock()
		for a, h := range t.hosts {
			sum, ok := tallies[a]
			if !ok {
				sum = hostTally{byStatus: map[string]int{}, skipped: map[string]int{}}
			}
			sum.add(h)
			tallies[a] = sum
		}
		t.mu.Unlock()
	}
	return tallies
}

// addHosts adds a section per host the crawl contacted, with its state,
// pace, events and robots.txt, counting deferred and given-up hosts, and
// counts the hosts seen only through links in the totals, sorted by name;
// failedBy counts each host's URLs that ended in error.
func (c *crawl) addHosts(s *crawllog.Summary, tallies map[string]hostTally, failedBy map[string]int) {
	events := c.events.hostEvents()
	for _, hs := range c.sched.Hosts() {
		h := tallied(s, hs.Authority, tallies[hs.Authority], failedBy[hs.Authority])
		delete(tallies, hs.Authority)
		h.State, h.PaceSeconds, h.PaceRule = hs.State, hs.Interval.Seconds(), hs.PaceSource
		h.Queued, h.DeferReason, h.DropReason, h.Warning = hs.Queued+hs.Leased, hs.DeferReason, hs.DropReason, hs.Warning
		if evs := events[hs.Authority]; evs != nil {
			h.Events = evs
		}
		if n, ok := c.opts.HostNotes[hs.Authority]; ok {
			h.Label, h.Note = n.Label, n.Note
		}
		if h.DeferredUntil = utcOrNil(hs.DeferredUntil); h.DeferredUntil != nil {
			s.Totals.DeferredHosts++
		}
		if hs.State == scheduler.StateDropped && h.Queued > 0 {
			s.Totals.DroppedHosts++
		}
		if rs := c.robots.Peek(hs.Authority); rs != nil {
			h.Robots = robotsSummary(rs)
		}
		s.Hosts = append(s.Hosts, h)
	}
	for a, t := range tallies { // hosts seen only through skips or robots redirects
		h := tallied(s, a, t, failedBy[a])
		if a == "" || !t.admitted() {
			// Links the crawl never took up (another host, a URL with no
			// valid host): counted in the totals and skip reasons, but
			// not a host of the crawl.
			continue
		}
		s.Hosts = append(s.Hosts, h)
	}
	sort.Slice(s.Hosts, func(i, j int) bool { return s.Hosts[i].Host < s.Hosts[j].Host })
}

// exitCode is the status the run ends with: 130 interrupted, 1 a write
// failed, ExitHostsGivenUp when hosts were given up with URLs queued (not
// for a demo, whose sites end with it), else 0.
func (c *crawl) exitCode(s *crawllog.Summary, interrupted bool) int {
	switch {
	case interrupted:
		return 130
	case c.failure() != nil:
		return 1 // a write failed: the crawl stopped
	case s.Totals.DroppedHosts > 0 && !c.opts.Ephemeral:
		return ExitHostsGivenUp
	}
	return 0
}
