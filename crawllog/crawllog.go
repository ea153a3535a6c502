package crawllog

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"
)

// The files a crawl writes in its output directory.
const (
	CrawlLogFile  = "crawl.jsonl"
	SkipLogFile   = "skips.jsonl"
	RobotsLogFile = "robots.jsonl"
	RunsLogFile   = "runs.jsonl"
	SummaryFile   = "summary.json"
)

// The events of a RunEntry.
const (
	RunStart = "start"
	RunEnd   = "end"
)

// The modes of a run.
const (
	ModeCrawl  = "crawl"
	ModeDryRun = "dry-run"
)

// RunEntry is one line of runs.jsonl: a run of the output directory
// started (Event RunStart) or ended (RunEnd). A run killed with SIGKILL has
// a start line and no end line.
type RunEntry struct {
	Time        time.Time `json:"time"`
	Event       string    `json:"event"`
	Mode        string    `json:"mode"`
	Interrupted bool      `json:"interrupted,omitempty"`
	// DuplicateLinks counts the links to already seen URLs the run found:
	// they are counted, not logged one by one, so an end line keeps them.
	DuplicateLinks int `json:"duplicate_links,omitempty"`
	// QueuedAgain counts the URLs of deferred hosts the run left queued
	// without logging them in skips.jsonl: an earlier run logged each
	// (queued: true) for the same reason. They count in the run's share.
	QueuedAgain int `json:"queued_again,omitempty"`
}

// CrawlEntry is one line of crawl.jsonl: one HTTP request made.
type CrawlEntry struct {
	Time        time.Time `json:"time"`
	URL         string    `json:"url"`
	Host        string    `json:"host"`
	Kind        string    `json:"kind"`
	Status      int       `json:"status"`
	Bytes       int64     `json:"bytes"`
	DurationMS  float64   `json:"duration_ms"`
	ContentType string    `json:"content_type,omitempty"`
	Depth       int       `json:"depth"`
	Parent      string    `json:"parent,omitempty"`
	PaceSeconds float64   `json:"pace_seconds"`
	PaceRule    string    `json:"pace_rule"`
	RobotsRule  string    `json:"robots_rule"`
	RobotsLine  int       `json:"robots_line"`
	Redirect    string    `json:"redirect,omitempty"`
	// Nofollow is the robots <meta> element or X-Robots-Tag header, as
	// written, that asked not to follow the page's links.
	Nofollow  string `json:"nofollow,omitempty"`
	Truncated bool   `json:"truncated,omitempty"`
	Error     string `json:"error,omitempty"`
	// Attempt numbers a request of a URL fetched again after a failed
	// attempt (2 for the first retry); absent on the first attempt.
	Attempt int `json:"attempt,omitempty"`
	// Note says, in human words, how an answer that is no failure was
	// read all the same: a response head repaired before it was parsed,
	// a body the server ended early.
	Note string `json:"note,omitempty"`
}

// SkipEntry is one line of skips.jsonl: one URL not fetched, and why.
type SkipEntry struct {
	Time   time.Time `json:"time"`
	URL    string    `json:"url"`
	Host   string    `json:"host,omitempty"`
	Reason string    `json:"reason"`
	Detail string    `json:"detail,omitempty"`
	Rule   string    `json:"rule,omitempty"`
	Line   int       `json:"line,omitempty"`
	Parent string    `json:"parent,omitempty"`
	// Queued is true for a URL of a deferred host, or of a host given up
	// for the run: it stays in the frontier for the next run, which
	// fetches it or logs it again.
	Queued bool `json:"queued,omitempty"`
	// Attempts and LastError are set for fetch-failed: how many times
	// the URL was requested, and what its last request ended with (its
	// error, or "HTTP 500").
	Attempts  int    `json:"attempts,omitempty"`
	LastError string `json:"last_error,omitempty"`
	// Folded is not in the file: a reader that keeps one entry for many
	// like it (report does) counts here the lines it folded into this one.
	Folded int `json:"-"`
}

// RobotsEntry is one line of robots.jsonl: one robots.txt fetch.
type RobotsEntry struct {
	Time       time.Time `json:"time"`
	Host       string    `json:"host"`
	URL        string    `json:"url"`
	Status     int       `json:"status"`
	Outcome    string    `json:"outcome"`
	Bytes      int64     `json:"bytes"`
	DurationMS float64   `json:"duration_ms"`
	Redirects  []string  `json:"redirects"`
	Truncated  bool      `json:"truncated"`
	Error      string    `json:"error,omitempty"`
	// Expires is when the copy stops being used: absent on a redirect
	// hop (Outcome "redirect"), which is not a copy of anything.
	Expires time.Time `json:"expires,omitzero"`
	// CopyOf names the host whose robots.txt a redirect led to and
	// whose cached copy answered it: no request was made.
	CopyOf string `json:"copy_of,omitempty"`
}

// Summary is the end-of-crawl report, written as summary.json. It covers
// the whole crawl of its output directory: Started is the first run's
// start, and the totals and hosts count every run (Runs has each one's
// share); Interrupted and ExitCode are the last run's.
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
	Runs        []RunSummary   `json:"runs"`
	// Ephemeral is true for a crawl of sites that ended with it (crawl
	// demo): it cannot be resumed, whatever waits in its frontier.
	Ephemeral bool `json:"ephemeral,omitempty"`
}

// RunSummary is one run's share of a crawl, from runs.jsonl and the logs.
type RunSummary struct {
	Started time.Time `json:"started"`
	// Finished is nil for a run that never ended (killed with SIGKILL, or
	// logged before runs.jsonl existed).
	Finished    *time.Time `json:"finished"`
	Mode        string     `json:"mode"`
	Interrupted bool       `json:"interrupted"`
	// Fetched counts the pages that got an answer; Requisites and
	// Sitemaps the other URLs that did, robots.txt requests apart.
	Fetched       int `json:"fetched"`
	Requisites    int `json:"requisites"`
	Sitemaps      int `json:"sitemaps"`
	RobotsFetches int `json:"robots_fetches"`
	Skipped       int `json:"skipped"`
	// Errors counts the URLs whose last attempt, made in this run,
	// failed: a URL retried with success later is no error.
	Errors int `json:"errors"`
}

// Totals counts the whole crawl, every run of the output directory:
// Fetched the pages that got an answer, Requisites and Sitemaps the other
// URLs that did, Errors the URLs whose last attempt failed.
type Totals struct {
	Fetched        int `json:"fetched"`
	Requisites     int `json:"requisites"`
	Sitemaps       int `json:"sitemaps"`
	RobotsFetches  int `json:"robots_fetches"`
	Skipped        int `json:"skipped"`
	Errors         int `json:"errors"`
	Queued         int `json:"queued"`
	DeferredHosts  int `json:"deferred_hosts"`
	DuplicateLinks int `json:"duplicate_links"`
	// DroppedHosts counts the hosts the last run gave up (connection
	// failures, robots.txt unreachable) with URLs still queued: running
	// the same command again tries them again.
	DroppedHosts int `json:"dropped_hosts"`
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
	Requisites    int            `json:"requisites,omitempty"`
	Sitemaps      int            `json:"sitemaps,omitempty"`
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
	URL     string `json:"url"`
	Status  int    `json:"status"`
	Outcome string `json:"outcome"`
	// Policy is what the crawl applied: "parse" (the file's rules),
	// "allow-all" or "disallow-all" (no file was read).
	Policy            string        `json:"policy,omitempty"`
	Body              string        `json:"body"`
	Group             string        `json:"group"`
	CrawlDelaySeconds *float64      `json:"crawl_delay_seconds"`
	RequestRates      []RateSummary `json:"request_rates"`
	VisitTimes        []WindowJSON  `json:"visit_times"`
	Comments          []string      `json:"comments"`
	Sitemaps          []string      `json:"sitemaps"`
	Warnings          []string      `json:"warnings"`
	// The Comment lines, Sitemap lines and warnings left out of the lists
	// above, which keep the first few of each: a robots.txt of thousands
	// of them made every host's summary megabytes long.
	CommentsOmitted int `json:"comments_omitted,omitempty"`
	SitemapsOmitted int `json:"sitemaps_omitted,omitempty"`
	WarningsOmitted int `json:"warnings_omitted,omitempty"`
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

// RunTime is how long the crawl ran: the sum of its runs' own durations,
// not first start to last end, which would count the time between a dry
// run today and a crawl tomorrow. A run with no recorded end (killed)
// adds nothing, and complete is false. A summary without runs gives
// Finished - Started.
func (s *Summary) RunTime() (d time.Duration, complete bool) {
	if len(s.Runs) == 0 {
		return max(s.Finished.Sub(s.Started), 0), true
	}
	complete = true
	for _, r := range s.Runs {
		if r.Finished == nil {
			complete = false
			continue
		}
		d += max(r.Finished.Sub(r.Started), 0)
	}
	return d, complete
}

// alsoFetched says what was fetched besides pages: the requisites and
// sitemaps, where there were any, and the robots.txt requests.
func alsoFetched(requisites, sitemaps, robots int) string {
	var parts []string
	if requisites > 0 {
		parts = append(parts, plural(requisites, "requisite"))
	}
	if sitemaps > 0 {
		parts = append(parts, plural(sitemaps, "sitemap"))
	}
	return strings.Join(append(parts, fmt.Sprintf("%d robots.txt", robots)), ", ")
}

// plural is n and noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// runLine says when run i of a crawl started (the clock time, and how long
// after the first run's start), how long it ran and what it fetched.
func runLine(i int, r RunSummary, first time.Time) string {
	line := fmt.Sprintf("run %d, %s: started %s", i+1, r.Mode, r.Started.UTC().Format("2006-01-02 15:04:05 UTC"))
	if i > 0 {
		line += fmt.Sprintf(" (%s after the first run started)", RoundDuration(r.Started.Sub(first)))
	}
	if r.Finished != nil {
		line += fmt.Sprintf(", ran %s", RoundDuration(max(r.Finished.Sub(r.Started), 0)))
	} else {
		line += ", no end recorded"
	}
	line += fmt.Sprintf(", %s", plural(r.Fetched, "page"))
	if r.Requisites > 0 {
		line += ", " + plural(r.Requisites, "requisite")
	}
	return line
}

// Print writes the summary for a person: per host, pages by status, the pace
// used and what set it, deferred URLs and the site's Comment lines. Text
// that may come from a server is written through Printable.
func (s *Summary) Print(w io.Writer) {
	s.printTotals(w)
	s.printHosts(w)
	s.printSkipReasons(w)
	s.printUnfinished(w)
}

// printTotals writes the summary's heading, its totals and, over several
// runs, a line per run.
func (s *Summary) printTotals(w io.Writer) {
	took, complete := s.RunTime()
	ran := took.Round(time.Millisecond).String()
	if !complete {
		ran = "at least " + ran
	}
	fmt.Fprintf(w, "\nCrawl summary (%s, %s)\n", Printable(s.Out), ran)
	fmt.Fprintf(w, "  fetched %d pages (and %s), skipped %d, errors %d, still queued %d\n",
		s.Totals.Fetched, alsoFetched(s.Totals.Requisites, s.Totals.Sitemaps, s.Totals.RobotsFetches), s.Totals.Skipped, s.Totals.Errors, s.Totals.Queued)
	if len(s.Runs) > 1 {
		fmt.Fprintf(w, "  over %d runs:\n", len(s.Runs))
		for i, r := range s.Runs {
			fmt.Fprintf(w, "    %s\n", runLine(i, r, s.Runs[0].Started))
		}
	}
}

// printHosts writes a paragraph per host. A crawl of thousands of hosts
// would print thousands: past maxPrintedHosts hosts only those with
// something to note are listed, up to that many; summary.json and
// report.html have all.
func (s *Summary) printHosts(w io.Writer) {
	listed, quiet := 0, 0
	for _, h := range s.Hosts {
		if len(s.Hosts) > maxPrintedHosts && !h.noteworthy() {
			quiet++
			continue
		}
		if listed == maxPrintedHosts {
			continue
		}
		listed++
		h.print(w)
	}
	if n := len(s.Hosts) - listed; n > 0 {
		fmt.Fprintf(w, "\n  %d more host(s) not listed (%d with nothing to note): see summary.json or report.html\n", n, quiet)
	}
}

// print writes a host's paragraph: its state, pages by status, pace,
// warning, deferral or drop, and the first Comment lines of its
// robots.txt.
func (h *HostSummary) print(w io.Writer) {
	fmt.Fprintf(w, "\n  %s  [%s]\n", Printable(h.Host), Printable(h.State))
	fmt.Fprintf(w, "    pages: %s\n", Printable(statusMix(h.PagesByStatus)))
	if h.PaceRule != "" {
		fmt.Fprintf(w, "    pace:  %s, set by %s\n", RoundSeconds(h.PaceSeconds), Printable(h.PaceRule))
	}
	if h.Warning != "" {
		fmt.Fprintf(w, "    warning: %s\n", Printable(h.Warning))
	}
	if h.DeferredUntil != nil {
		fmt.Fprintf(w, "    deferred until %s (%s): %d URLs wait in the frontier\n", h.DeferredUntil.Format(time.RFC3339), Printable(h.DeferReason), h.Queued)
	}
	if h.DropReason != "" {
		fmt.Fprintf(w, "    dropped: %s\n", Printable(h.DropReason))
	}
	if h.Robots == nil {
		return
	}
	cs := h.Robots.Comments
	shown := cs[:min(len(cs), maxPrintedComments)]
	for _, c := range shown {
		fmt.Fprintf(w, "    the site says: %s\n", Printable(c))
	}
	if more := len(cs) - len(shown) + h.Robots.CommentsOmitted; more > 0 {
		fmt.Fprintf(w, "    (and %d more Comment lines in its robots.txt)\n", more)
	}
}

// printSkipReasons writes how many URLs each reason kept from being
// fetched.
func (s *Summary) printSkipReasons(w io.Writer) {
	if len(s.SkipReasons) == 0 {
		return
	}
	keys := make([]string, 0, len(s.SkipReasons))
	for k := range s.SkipReasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(w, "\n  not fetched:")
	for _, k := range keys {
		fmt.Fprintf(w, " %s %d;", Printable(k), s.SkipReasons[k])
	}
	fmt.Fprintln(w, " (reasons in skips.jsonl)")
}

// printUnfinished says what a run of the same command would continue:
// hosts given up and hosts deferred (a demo's sites end with it, so it
// says so instead).
func (s *Summary) printUnfinished(w io.Writer) {
	if n := s.Totals.DroppedHosts; n > 0 {
		if s.Ephemeral {
			fmt.Fprintf(w, "\n  %d host(s) given up (see \"dropped\" above): their pages were not fetched.\n", n)
		} else {
			fmt.Fprintf(w, "\n  %d host(s) given up (see \"dropped\" above): their pages were not fetched and stay queued; run the same command again to retry them.\n", n)
		}
	}
	if s.Totals.DeferredHosts > 0 {
		if s.Ephemeral {
			fmt.Fprintf(w, "\n  %d host(s) deferred; their sites ended with this run, so it cannot be continued.\n", s.Totals.DeferredHosts)
		} else {
			fmt.Fprintf(w, "\n  %d host(s) deferred: run the same command again later to continue.\n", s.Totals.DeferredHosts)
		}
	}
}

// Print lists at most maxPrintedHosts hosts, and of each at most
// maxPrintedComments of its robots.txt Comment lines.
const (
	maxPrintedHosts    = 20
	maxPrintedComments = 3
)

// noteworthy reports whether h has more to say than that it is done:
// another state, a warning, a deferral or drop, the site's Comment lines.
func (h *HostSummary) noteworthy() bool {
	return h.State != "done" || h.Warning != "" || h.DeferredUntil != nil || h.DropReason != "" ||
		h.Robots != nil && len(h.Robots.Comments) > 0
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

// RoundDuration rounds d for people: to 10 ms above a second, to 0.1 ms
// above a millisecond.
func RoundDuration(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(100 * time.Microsecond)
	}
	return d
}

// RoundSeconds is RoundDuration for a duration given in seconds, as the
// logs' pace fields hold it.
func RoundSeconds(s float64) time.Duration {
	return RoundDuration(time.Duration(s * float64(time.Second)))
}
