package report

import (
	"sort"
	"strconv"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// hostView is one host's section of the report: its summary, status mix,
// pace, timeline, skips, robots.txt and requests.
type hostView struct {
	ID, Host, State            string
	Label, Note                string
	Pace, PaceRule             string
	Fetched, Errors, Skipped   int
	Queued                     int
	DeferredUntil, DeferReason string
	DropReason                 string
	Warning                    string
	Status                     []statusPart
	Timeline                   timeline
	Visits                     []string
	WindowNote                 string
	Paces                      []paceUse
	Events                     []eventRow
	DeferredURLs               []string
	DeferredMore               int
	Comments                   []string
	CommentsOmitted            int
	SkipReasons                []reasonCount
	Requests                   []requestRow
	RequestsMore               int
	Robots                     robotsView
	Section                    bool       // the host has a section of its own (see maxHostSections)
	deferredAt                 *time.Time // for sorting out when to resume
}

type statusPart struct {
	Code, Class string
	Count       int
	X, W        float64 // position in a 0..100 bar
}

type paceUse struct {
	Pace, Rule string
	Count      int
}

type eventRow struct{ Time, Kind, Until, Detail string }

type reasonCount struct {
	Reason, ID string
	Count      int
}

type requestRow struct {
	Offset, Clock, Kind, URL string
	Status, StatusClass      string
	Pace, Rule, Line         string
	LineN                    int
	Short                    bool
}

// fillHost fills hv from the host's summary and records; reqs are the
// host's requests oldest first, as groupRequests leaves them: all of them,
// or, when the log is not held whole (agg set), the first ones, and agg
// holds what is counted over all of them.
func fillHost(hv *hostView, hs hostSummary, reqs []request, agg *hostAggregate, skips []skip, fetches []robotsFetch, span timeSpan, started time.Time, maxMarks int) {
	hv.Section = true
	hv.fillSummary(hs)
	windows := hv.fillRobots(hs.Robots)

	// Pace used, by kind of rule, in first-use order.
	var paceRules, used []string
	if hs.PaceRule != "" {
		paceRules = append(paceRules, hs.PaceRule)
	}
	allowed := allowedTally{authority: hv.Host}
	if agg == nil {
		hv.Status = statusParts(statusMix(hs, reqs))
		hv.Paces, used = pacesUsed(reqs)
		for _, r := range reqs {
			allowed.add(r)
		}
	} else {
		hv.Status = statusParts(statusMixOf(hs, agg.detail.pages))
		hv.Paces, used = agg.detail.paces.uses(), agg.detail.paces.rules
		allowed = agg.detail.allowed
	}
	paceRules = append(paceRules, used...)

	hv.Timeline = buildTimeline(span, reqs, windows, hs.Events, maxMarks)
	if agg != nil {
		agg.count.fix(&hv.Timeline)
	}
	if len(windows) > 0 && len(hv.Timeline.Windows) == 0 {
		hv.WindowNote = "No Visit-time window was open during the crawl; the next opens at " + fmtTime(nextOpen(windows, span.end)) + "."
	}
	hv.Events = eventRows(hs.Events)
	hv.fillSkips(skips)
	hv.Robots = robotsViewFor(hv.ID, hv.Host, hs.Robots, allowed.lines, skips, fetches, paceRules)
	hv.requestRows(reqs, started) // links to the robots.txt lines shown
	if agg != nil && agg.count.n > maxRequestRows {
		hv.RequestsMore = agg.count.n - maxRequestRows
	}
}

// hostAggregate is what is counted over all of a host's requests when the
// log is not held whole.
type hostAggregate struct {
	count  *hostCount
	detail *hostDetail
}

// fillRow fills hv, a host without a section of its own, for the hosts
// table and the overview: its summary, skips and request counts.
func (hv *hostView) fillRow(hs hostSummary, skips []skip, c *hostCount) {
	hv.fillSummary(hs)
	hv.fillSkips(skips)
	if c != nil {
		hv.Timeline.Requests, hv.Timeline.Short = c.n, c.short
	}
}

// fillSummary copies what the host's summary says of it: state, counts,
// label, pace, deferral, drop and warning.
func (hv *hostView) fillSummary(hs hostSummary) {
	if hs.State != "" {
		hv.State = hs.State
	}
	hv.Fetched, hv.Errors, hv.Skipped, hv.Queued = hs.Fetched, hs.Errors, hs.Skipped, hs.Queued
	hv.Label, hv.Note = hs.Label, hs.Note
	if hs.PaceRule != "" || hs.PaceSeconds > 0 {
		hv.Pace, hv.PaceRule = fmtSeconds(hs.PaceSeconds), hs.PaceRule
	}
	if hs.DeferredUntil != nil {
		hv.DeferredUntil = fmtTime(*hs.DeferredUntil)
		hv.deferredAt = hs.DeferredUntil
	}
	hv.DeferReason, hv.DropReason, hv.Warning = hs.DeferReason, hs.DropReason, hs.Warning
}

// statusMix returns the host's pages by status: from the summary, else
// counted from the log.
func statusMix(hs hostSummary, reqs []request) map[string]int {
	if len(hs.PagesByStatus) > 0 {
		return hs.PagesByStatus
	}
	byStatus := make(map[string]int)
	for _, r := range reqs {
		if r.Kind == "page" {
			byStatus[statusKey(r.Status)]++
		}
	}
	return byStatus
}

// statusMixOf is statusMix given the pages counted by status.
func statusMixOf(hs hostSummary, pages map[string]int) map[string]int {
	if len(hs.PagesByStatus) > 0 {
		return hs.PagesByStatus
	}
	return pages
}

// fillRobots lists the Visit-time windows and comments of the host's
// robots.txt (rb, nil if none) and returns the windows that could be
// read; an unreadable one is listed as such.
func (hv *hostView) fillRobots(rb *robotsSummary) []robots.Window {
	if rb == nil {
		return nil
	}
	var windows []robots.Window
	for _, vt := range rb.VisitTimes {
		from, ok1 := parseClock(vt.From)
		to, ok2 := parseClock(vt.To)
		if !ok1 || !ok2 {
			hv.Visits = append(hv.Visits, vt.From+"-"+vt.To+" (unreadable)")
			continue
		}
		w := robots.Window{From: from, To: to}
		windows = append(windows, w)
		hv.Visits = append(hv.Visits, w.String())
	}
	hv.Comments, hv.CommentsOmitted = rb.Comments, rb.CommentsOmitted
	return windows
}

// nextOpen returns the first instant after t at which one of windows
// (at least one) opens.
func nextOpen(windows []robots.Window, t time.Time) time.Time {
	next := windows[0].NextOpen(t)
	for _, w := range windows[1:] {
		if n := w.NextOpen(t); n.Before(next) {
			next = n
		}
	}
	return next
}

// eventRows formats the host's pace events as table rows.
func eventRows(events []event) []eventRow {
	var rows []eventRow
	for _, e := range events {
		row := eventRow{Time: fmtTime(e.Time), Kind: e.Kind, Detail: e.Detail}
		if e.Until != nil {
			row.Until = fmtTime(*e.Until)
		}
		rows = append(rows, row)
	}
	return rows
}

// fillSkips counts the host's skips by reason, most first, and lists its
// visit-time-deferred URLs (up to maxDeferred). A host whose summary
// counts no skip takes the count of skip lines.
func (hv *hostView) fillSkips(skips []skip) {
	counts := make(map[string]int)
	lines := 0
	for _, k := range skips {
		w := weight(k)
		counts[k.Reason] += w
		lines += w
		if k.Reason == "visit-time-deferred" {
			if listed(len(hv.DeferredURLs), maxDeferred, w, &hv.DeferredMore) {
				hv.DeferredURLs = append(hv.DeferredURLs, k.URL)
			}
		}
	}
	for reason, n := range counts {
		hv.SkipReasons = append(hv.SkipReasons, reasonCount{Reason: reason, ID: reasonID(reason), Count: n})
	}
	sort.Slice(hv.SkipReasons, func(i, j int) bool {
		a, b := hv.SkipReasons[i], hv.SkipReasons[j]
		return a.Count > b.Count || a.Count == b.Count && a.Reason < b.Reason
	})
	if hv.Skipped == 0 {
		hv.Skipped = lines
	}
}

// statusKey writes a status for the status mix ("0" means no response).
func statusKey(code int) string { return strconv.Itoa(code) }

// statusParts lays the status counts out as a 0..100 bar, lowest code first.
func statusParts(byStatus map[string]int) []statusPart {
	total := 0
	parts := make([]statusPart, 0, len(byStatus))
	for code, n := range byStatus {
		if n <= 0 {
			continue
		}
		c, _ := strconv.Atoi(code)
		parts = append(parts, statusPart{Code: code, Class: statusClass(c), Count: n})
		total += n
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].Code < parts[j].Code })
	x := 0.0
	for i := range parts {
		parts[i].X = round2(x)
		parts[i].W = round2(100 * float64(parts[i].Count) / float64(total))
		x += 100 * float64(parts[i].Count) / float64(total)
	}
	return parts
}

// requestRows fills the host's request table from sorted (the host's
// requests, oldest first), capped.
func (hv *hostView) requestRows(sorted []request, started time.Time) {
	for i, r := range sorted {
		if i >= maxRequestRows {
			hv.RequestsMore = len(sorted) - maxRequestRows
			break
		}
		row := requestRow{
			Offset: "+" + fmtDuration(r.Time.Sub(started)), Clock: fmtClock(r.Time, true), Kind: r.Kind,
			URL: r.URL, Status: statusText(r), StatusClass: statusClass(r.Status),
			Pace: fmtSeconds(r.PaceSeconds), Rule: r.PaceRule,
		}
		if started.IsZero() {
			row.Offset = ""
		}
		if r.RobotsLine > 0 {
			row.LineN = r.RobotsLine
			row.Line = hv.Robots.anchor(hv.ID, r.RobotsLine)
		}
		if i > 0 {
			g := r.Time.Sub(sorted[i-1].Time).Seconds()
			row.Short = g < r.PaceSeconds-gapTolerance(r.PaceSeconds)
		}
		hv.Requests = append(hv.Requests, row)
	}
}
