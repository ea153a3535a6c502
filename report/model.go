package report

import (
	"cmp"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"
	"time"
)

// maxRequestRows and maxDeferred bound the per-host tables; maxExamples the
// examples per skip reason.
const (
	maxRequestRows = 60
	maxDeferred    = 20
	maxExamples    = 6
)

// view is everything the template shows, computed before rendering so the
// page needs no script to be complete.
type view struct {
	Title      string
	CSS        template.CSS
	Overview   overview
	SkipGroups []skipGroup
	Hosts      []*hostView // the hosts with a section
	Table      []*hostView // the hosts table rows
	TableMore  int         // hosts left out of the table (maxHostRows)
	Outbound   outbound
}

type overview struct {
	Started, Finished       string
	Duration                string // the runs' own durations, summed
	Span                    string // "3 runs over ...", when more than one
	Runs                    []runRow
	Agent, UserAgent, Out   string
	Interrupted             bool
	ExitCode                int
	Totals                  totals
	Requests, RobotsFetches int
	ShortGaps               int
	Politeness              []keyValue
	Deferred                []*hostView
	DeferredMore            int // deferred hosts left out of Deferred (maxHostRows)
	Rerun                   string
	Notes                   []string
}

type keyValue struct{ Key, Value string }

type skipGroup struct {
	Reason, Meaning, ID string
	Count               int
	Examples            []skipExample
	More                int
}

type skipExample struct {
	URL, Detail, Rule  string
	Host, HostID, Line string // Line is an anchor, "" if no robots line decided
	LineN              int
}

type robotsView struct {
	Known      bool
	NoBody     string // why no lines are shown
	URL        string
	Status     int
	Outcome    string
	Group      string
	CrawlDelay string
	Rates      []string
	Sitemaps   []string
	Warnings   []string
	// SitemapsOmitted and WarningsOmitted count those summary.json left out.
	SitemapsOmitted, WarningsOmitted int
	Lines                            []robotsLine
	Omitted                          omission // lines not shown after the last one shown
	Dangling                         []int
	Fetches                          []fetchRow
}

type fetchRow struct {
	Time, URL, Outcome, Bytes, Duration, Expires, Error string
	Status                                              int
	Redirects                                           []string
	Truncated                                           bool
}

// hostOf returns a record's host, falling back to its URL's authority.
func hostOf(host, u string) string {
	if host != "" {
		return host
	}
	return authorityOf(u)
}

// groupRequests reorders in.requests by host, in the order note first
// meets the hosts, each host's requests oldest first (in log order at equal
// times), and returns each host's part of it. The parts share the one
// array: a million requests are not copied again per host (the copy made
// here is the only one, and the old order is dropped with it). Requests
// with no host stay, after all the parts, in no part.
func groupRequests(in *input, note func(host string)) map[string][]request {
	hostIdx := make(map[string]int)
	var counts []int
	which := make([]int32, len(in.requests))
	for i, r := range in.requests {
		h := hostOf(r.Host, r.URL)
		if h == "" {
			which[i] = -1
			continue
		}
		k, ok := hostIdx[h]
		if !ok {
			k = len(counts)
			hostIdx[h] = k
			counts = append(counts, 0)
			note(h)
		}
		which[i] = int32(k)
		counts[k]++
	}
	starts := make([]int, len(counts)+1)
	for k, n := range counts {
		starts[k+1] = starts[k] + n
	}
	grouped := make([]request, len(in.requests))
	next := append([]int(nil), starts...) // next[len(counts)]: the hostless
	for i, r := range in.requests {
		k := int(which[i])
		if k < 0 {
			k = len(counts)
		}
		grouped[next[k]] = r
		next[k]++
	}
	in.requests = grouped
	out := make(map[string][]request, len(hostIdx))
	for h, k := range hostIdx {
		part := grouped[starts[k]:starts[k+1]:starts[k+1]]
		slices.SortStableFunc(part, byTime)
		out[h] = part
	}
	return out
}

// buildView turns the crawl's files into the page's view.
func buildView(in *input, css template.CSS) *view {
	s := in.summary
	span := crawlSpan(in)
	v := &view{Title: "Crawl report", CSS: css}

	byHost := make(map[string]*hostView)
	var order []string
	host := func(h string) *hostView {
		hv, ok := byHost[h]
		if !ok {
			hv = &hostView{ID: "host-" + strconv.Itoa(len(order)+1), Host: h, State: "no summary"}
			byHost[h] = hv
			order = append(order, h)
		}
		return hv
	}
	summaries := make(map[string]hostSummary)
	for _, hs := range s.Hosts {
		if hs.Host == "" {
			continue
		}
		summaries[hs.Host] = hs
		host(hs.Host)
	}
	if in.large != nil {
		for _, h := range in.large.counts.order {
			host(h)
		}
	}
	reqsBy := groupRequests(in, func(h string) { host(h) })
	fetchesBy := make(map[string][]robotsFetch)
	for _, f := range in.robots {
		h := hostOf(f.Host, f.URL)
		if h == "" {
			continue
		}
		host(h)
		fetchesBy[h] = append(fetchesBy[h], f)
	}
	// A host the skips name for more than declined links has a section,
	// after the hosts named above, in the order the skips first name it.
	for _, h := range contactedBySkips(in.skips) {
		host(h)
	}
	// A host the skips alone name, only for declined links, is a row of
	// the outbound table, not a section; finish orders the rows by links
	// and host, whatever order they are added in.
	skipsBy := skipsByHost(in.skips)
	for h, ks := range skipsBy {
		if byHost[h] == nil {
			v.Outbound.add(h, ks)
		}
	}
	v.Outbound.finish()

	maxMarks := marksPerHost(len(reqsBy))
	if in.large != nil {
		maxMarks = in.large.marks
	}
	all := make([]*hostView, 0, len(order))
	for _, h := range order {
		hv := byHost[h]
		all = append(all, hv)
		agg := in.large.aggregate(h)
		if in.large != nil && agg == nil {
			hv.fillRow(summaries[h], skipsBy[h], in.large.counts.hosts[h])
			continue
		}
		fillHost(hv, summaries[h], reqsBy[h], agg, skipsBy[h], fetchesBy[h], span, s.Started, maxMarks)
		v.Hosts = append(v.Hosts, hv)
	}
	v.Table, v.TableMore = hostTable(v.Hosts, in.large, byHost)
	v.SkipGroups = skipGroups(in.skips, s.SkipReasons, byHost)
	v.Overview = buildOverview(in, span, all)
	return v
}

// skipsByHost groups skips by host, each host's in log order; skips with
// no host are in no group.
func skipsByHost(skips []skip) map[string][]skip {
	by := make(map[string][]skip)
	for _, k := range skips {
		h := hostOf(k.Host, k.URL)
		if h == "" {
			continue
		}
		by[h] = append(by[h], k)
	}
	return by
}

// aggregate returns host h's aggregate when the log is not held whole and
// h has a section; nil otherwise.
func (l *largeInput) aggregate(h string) *hostAggregate {
	if l == nil || l.details[h] == nil {
		return nil
	}
	c := l.counts.hosts[h]
	if c == nil {
		c = &hostCount{}
	}
	return &hostAggregate{count: c, detail: l.details[h]}
}

// hostTable returns the rows of the hosts table: the hosts with a section,
// in page order, when the log was held whole; else the first l.rows
// hosts by rank (rankHosts), and how many more there are.
func hostTable(sections []*hostView, l *largeInput, byHost map[string]*hostView) ([]*hostView, int) {
	if l == nil {
		return sections, 0
	}
	rows := make([]*hostView, 0, min(len(l.ranked), l.rows))
	for _, h := range l.ranked[:min(len(l.ranked), l.rows)] {
		rows = append(rows, byHost[h])
	}
	return rows, len(l.ranked) - len(rows)
}

// crawlSpan is the time the timelines show: the crawl from start to finish,
// widened to every request and event recorded.
func crawlSpan(in *input) timeSpan {
	first, last := in.summary.Started, in.summary.Finished
	widen := func(t time.Time) {
		if t.IsZero() {
			return
		}
		if first.IsZero() || t.Before(first) {
			first = t
		}
		if last.IsZero() || t.After(last) {
			last = t
		}
	}
	for _, r := range in.requests {
		widen(r.Time)
	}
	if in.large != nil {
		widen(in.large.counts.first)
		widen(in.large.counts.last)
	}
	for _, h := range in.summary.Hosts {
		for _, e := range h.Events {
			widen(e.Time)
		}
	}
	if last.IsZero() || last.Before(first) {
		last = first
	}
	return newSpan(first, last)
}

// parseClock reads "HH:MM" as minutes after midnight.
func parseClock(s string) (int, bool) {
	h, m, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return 0, false
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, false
	}
	return hh*60 + mm, true
}

func robotsViewFor(hostID, authority string, rb *robotsSummary, allowed map[int]*urlList, skips []skip, fetches []robotsFetch, paceRules []string) robotsView {
	var rv robotsView
	for _, f := range fetches {
		row := fetchRow{Time: fmtTime(f.Time), URL: f.URL, Status: f.Status, Outcome: f.Outcome,
			Bytes: strconv.FormatInt(f.Bytes, 10), Duration: fmtSeconds(f.DurationMS / 1000),
			Redirects: f.Redirects, Truncated: f.Truncated, Error: f.Error}
		if !f.Expires.IsZero() {
			row.Expires = fmtTime(f.Expires)
		}
		rv.Fetches = append(rv.Fetches, row)
	}
	if rb == nil {
		return rv
	}
	rv.Known = true
	rv.NoBody = noBodyText(rb.Status, rb.Outcome, rb.Policy)
	rv.URL, rv.Status, rv.Outcome = rb.URL, rb.Status, rb.Outcome
	if rb.Outcome == "parsed" {
		// A group is matched only in a file that was read: for a
		// robots.txt that was unavailable or unreachable, the policy
		// in its place has no group to name.
		rv.Group = rb.Group
	}
	if rb.CrawlDelaySeconds != nil {
		rv.CrawlDelay = fmtSeconds(*rb.CrawlDelaySeconds)
	}
	for _, r := range rb.RequestRates {
		s := fmt.Sprintf("%d per %s", r.Requests, fmtSeconds(r.Seconds))
		if r.From != nil && r.To != nil {
			s += fmt.Sprintf(" from %s to %s UTC", *r.From, *r.To)
		}
		rv.Rates = append(rv.Rates, s)
	}
	rv.Sitemaps, rv.Warnings = rb.Sitemaps, rb.Warnings
	rv.SitemapsOmitted, rv.WarningsOmitted = rb.SitemapsOmitted, rb.WarningsOmitted
	visitKeys := make(map[string]bool)
	for _, vt := range rb.VisitTimes {
		visitKeys[digits(vt.From+vt.To)] = true
	}
	rv.Lines, rv.Omitted, rv.Dangling = robotsLinesOf(hostID, authority, rb.Body, allowed, skips, paceRules, visitKeys)
	return rv
}

// anchor returns the anchor of line n of the robots.txt listed in rv for
// the host whose section anchor is hostID, or "" if the line is not shown.
func (rv *robotsView) anchor(hostID string, n int) string {
	if _, ok := slices.BinarySearchFunc(rv.Lines, n, func(l robotsLine, n int) int { return cmp.Compare(l.N, n) }); !ok {
		return ""
	}
	return lineAnchor(hostID, n)
}

// noBodyText explains an empty robots.txt body by what the fetch meant
// (RFC 9309 2.3.1.3 and 2.3.1.4).
func noBodyText(status int, outcome, policy string) string {
	switch {
	case outcome == "unavailable" && policy == "disallow-all":
		return fmt.Sprintf("No rules: robots.txt answered %d, and robots.forbidden_disallows reads that as \"everything disallowed\", as the 1996 draft recommended (RFC 9309 alone would allow everything).", status)
	case outcome == "unreachable" || status >= 500:
		return "No rules: robots.txt could not be fetched, so RFC 9309 says to treat the whole host as disallowed."
	case outcome == "unavailable" || status >= 400 && status < 500:
		return "No rules: robots.txt is unavailable (4xx), which RFC 9309 reads as \"everything allowed\"."
	default:
		return "The file was empty: no rules, everything allowed."
	}
}
