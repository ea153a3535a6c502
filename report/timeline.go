package report

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// Geometry of a timeline in viewBox units. The SVG scales to its container
// width; the CSS keeps a minimum width so labels stay legible on phones.
const (
	tlWidth   = 1000.0
	tlPadL    = 12.0
	tlPadR    = 12.0
	tlHeight  = 118.0
	tlMaxMark = 3000 // marks drawn per host; the rest are counted

	// A drawn request takes about 450 bytes of the page (its mark, gap
	// and band, each with its title), so 3000 per host made the report of
	// 50 busy hosts 67 MB, and of 1000 hosts 1.3 GB. The hosts with
	// requests share tlMarkBudget marks, each drawing at least tlMinMark.
	tlMarkBudget = 60000
	tlMinMark    = 200

	rowEventTop = 2.0
	rowEventH   = 12.0
	rowShadeTop = 16.0
	rowShadeH   = 72.0
	rowMarkTop  = 22.0
	rowMarkBot  = 56.0
	rowBandTop  = 61.0
	rowBandH    = 8.0
	rowGapY     = 78.0
	rowAxisY    = 90.0
	rowLabelY   = 110.0
)

// timeSpan is the stretch of time a timeline shows. end is after start.
type timeSpan struct{ start, end time.Time }

// x maps t onto the drawing, clamped to the plot area.
func (s timeSpan) x(t time.Time) float64 {
	total := s.end.Sub(s.start).Seconds()
	f := t.Sub(s.start).Seconds() / total
	f = math.Max(0, math.Min(1, f))
	return round2(tlPadL + f*(tlWidth-tlPadL-tlPadR))
}

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// newSpan returns the span from first to last, widened by 2% on each side
// and to at least one second.
func newSpan(first, last time.Time) timeSpan {
	if !last.After(first) {
		last = first.Add(time.Second)
	}
	pad := last.Sub(first) / 50
	return timeSpan{start: first.Add(-pad), end: last.Add(pad)}
}

// timeline is the SVG drawing of one host's requests.
type timeline struct {
	ViewBox  string
	Windows  []box       // Visit-time windows, shaded
	Bands    []box       // after each request, the interval in force for the next one (the one its gap is checked against)
	Gaps     []gap       // the actual gaps between request starts
	Marks    []mark      // one per request
	Events   []eventMark // parked, back-off, retry-after, deferred...
	Ticks    []tick
	Omitted  int // requests beyond the marks drawn (marksPerHost), not drawn
	Short    int // gaps shorter than the interval in force
	Requests int
	Label    string // accessible summary
}

type box struct {
	X, Y, W, H float64
	Class      string
	Title      string
}

type gap struct {
	X1, X2, Y float64
	Short     bool
	Title     string
}

type mark struct {
	X      float64
	Y1, Y2 float64
	Robots bool
	Points string // diamond outline for robots.txt requests
	Class  string // status class
	Title  string
}

type eventMark struct {
	Points string
	Span   *box // from the event to its "until", when both are in view
	Kind   string
	Title  string
}

type tick struct {
	X     float64
	Label string
}

// gapTolerance is how much shorter than the interval in force a gap may be
// before it is drawn as too short: clocks and logs are not perfectly exact.
func gapTolerance(pace float64) float64 { return math.Max(0.005, pace*0.01) }

// marksPerHost is how many requests each host's timeline draws when hosts
// hosts have requests: tlMaxMark, less when they are so many that the
// report would pass about tlMarkBudget marks, never under tlMinMark.
func marksPerHost(hosts int) int {
	return min(tlMaxMark, max(tlMinMark, tlMarkBudget/max(hosts, 1)))
}

// buildTimeline draws reqs (one host's requests, any order: sorted ones,
// as buildView passes, are used as they are) against span, with the host's
// Visit-time windows and events. The first maxMarks requests are drawn and
// the rest counted; the gaps shorter than the interval in force are
// counted over all.
func buildTimeline(span timeSpan, reqs []request, windows []robots.Window, events []event, maxMarks int) timeline {
	tl := timeline{ViewBox: fmt.Sprintf("0 0 %g %g", tlWidth, tlHeight), Requests: len(reqs)}
	sorted := reqs
	if !slices.IsSortedFunc(sorted, byTime) {
		sorted = slices.Clone(reqs)
		slices.SortStableFunc(sorted, byTime)
	}
	tl.Windows = windowBoxes(span, windows)
	for i := range sorted {
		tl.addRequest(span, sorted, i, maxMarks)
	}
	for _, e := range events {
		tl.Events = append(tl.Events, eventMarkAt(span, e))
	}
	tl.Ticks = ticks(span)
	tl.Label = requestsLabel(sorted)
	if tl.Short > 0 {
		tl.Label += fmt.Sprintf(", %d gap(s) shorter than the interval in force", tl.Short)
	}
	return tl
}

// windowBoxes shades the periods of span in which one of the host's
// Visit-time windows is open.
func windowBoxes(span timeSpan, windows []robots.Window) []box {
	var out []box
	for _, w := range windows {
		for _, iv := range occurrences(w, span) {
			x1, x2 := span.x(iv[0]), span.x(iv[1])
			out = append(out, box{X: x1, Y: rowShadeTop, W: round2(x2 - x1), H: rowShadeH, Class: "window",
				Title: fmt.Sprintf("Visit-time window %s UTC open", w)})
		}
	}
	return out
}

// addRequest adds the request sorted[i] (requests by time) to tl: the gap
// from the previous request, counted if shorter than the interval in
// force, then its mark and its response band. Past maxMarks requests, it
// only counts the gap and the request.
func (tl *timeline) addRequest(span timeSpan, sorted []request, i, maxMarks int) {
	r := sorted[i]
	if i > 0 {
		prev := sorted[i-1]
		g := r.Time.Sub(prev.Time).Seconds()
		short := g < r.PaceSeconds-gapTolerance(r.PaceSeconds)
		if short {
			tl.Short++
		}
		if i < maxMarks {
			verdict := "at least"
			if short {
				verdict = "SHORTER than"
			}
			tl.Gaps = append(tl.Gaps, gap{X1: span.x(prev.Time), X2: span.x(r.Time), Y: rowGapY, Short: short,
				Title: fmt.Sprintf("gap %s, %s the %s in force (%s)", fmtSeconds(g), verdict, fmtSeconds(r.PaceSeconds), r.PaceRule)})
		}
	}
	if i >= maxMarks {
		tl.Omitted++
		return
	}
	tl.Marks = append(tl.Marks, requestMark(span, r))
	if b, ok := band(span, sorted, i); ok {
		tl.Bands = append(tl.Bands, b)
	}
}

// requestMark is the mark of request r: a line coloured by its status, a
// diamond for a robots.txt request.
func requestMark(span timeSpan, r request) mark {
	x := span.x(r.Time)
	title := fmt.Sprintf("%s %s %s → %s", fmtClock(r.Time, true), r.Kind, r.URL, statusText(r))
	m := mark{X: x, Y1: rowMarkTop, Y2: rowMarkBot, Class: statusClass(r.Status), Title: title}
	if r.Kind == "robots" {
		m.Robots = true
		cy := (rowMarkTop + rowMarkBot) / 2
		m.Points = fmt.Sprintf("%g,%g %g,%g %g,%g %g,%g", x, cy-9, round2(x+6), cy, x, cy+9, round2(x-6), cy)
	}
	return m
}

// eventMarkAt is the mark of pace event e: a triangle, and the span of
// the wait it sets, if any.
func eventMarkAt(span timeSpan, e event) eventMark {
	x := span.x(e.Time)
	em := eventMark{
		Points: fmt.Sprintf("%g,%g %g,%g %g,%g", round2(x-6), rowEventTop, round2(x+6), rowEventTop, x, rowEventTop+rowEventH),
		Kind:   e.Kind,
		Title:  eventText(e),
	}
	if e.Until != nil && e.Until.After(e.Time) {
		x2 := span.x(*e.Until)
		em.Span = &box{X: x, Y: rowEventTop + 3, W: round2(math.Max(x2-x, 0.5)), H: rowEventH - 6, Class: "evspan", Title: em.Title}
	}
	return em
}

// requestsLabel says how many requests the host made and from when to
// when: the host's own first and last request, not the shared span, which
// is padded and may hold other runs and the pauses between them.
func requestsLabel(sorted []request) string {
	var first, last time.Time
	if n := len(sorted); n > 0 {
		first, last = sorted[0].Time, sorted[n-1].Time
	}
	return countLabel(len(sorted), first, last)
}

// fix makes tl, drawn from the host's first requests, count all of them:
// their number, the requests not drawn, the short gaps and the label.
func (c *hostCount) fix(tl *timeline) {
	tl.Requests, tl.Short = c.n, c.short
	tl.Omitted = c.n - len(tl.Marks)
	tl.Label = countLabel(c.n, c.first, c.last)
	if tl.Short > 0 {
		tl.Label += fmt.Sprintf(", %d gap(s) shorter than the interval in force", tl.Short)
	}
}

// countLabel is requestsLabel of n requests from first to last.
func countLabel(n int, first, last time.Time) string {
	switch n {
	case 0:
		return "No request"
	case 1:
		return "1 request, at " + fmtClock(first, true) + " UTC"
	default:
		from, to := fmtClock(first, true), fmtClock(last, true)
		if !sameDay(first, last) {
			from, to = first.UTC().Format("2006-01-02 ")+from, last.UTC().Format("2006-01-02 ")+to
		}
		return fmt.Sprintf("%d requests from %s to %s UTC (%s)", n, from, to, fmtDuration(last.Sub(first)))
	}
}

// band draws the interval in force after sorted[i]: the one the next
// request's gap is checked against (its pace_seconds), so band and gap
// verdict agree. A request's own pace_seconds is the interval in force when
// it started; for a robots.txt request that is the pace before the file was
// read, which never applies to the next request. The last request has no
// next one, so its own interval is drawn. No band when no interval is known.
func band(span timeSpan, sorted []request, i int) (box, bool) {
	r, pace := sorted[i], sorted[i]
	if i+1 < len(sorted) {
		pace = sorted[i+1]
	}
	if pace.PaceSeconds <= 0 {
		return box{}, false
	}
	x := span.x(r.Time)
	next := r.Time.Add(time.Duration(pace.PaceSeconds * float64(time.Second)))
	return box{X: x, Y: rowBandTop, W: round2(math.Max(span.x(next)-x, 0.5)), H: rowBandH, Class: "band",
		Title: fmt.Sprintf("next request not before %s (%s: %s)", fmtClock(next, true), fmtSeconds(pace.PaceSeconds), pace.PaceRule)}, true
}

// statusText describes a request's outcome in a few words.
func statusText(r request) string {
	switch {
	case r.Error != "":
		return "error: " + r.Error
	case r.Status == 0:
		return "no response"
	case r.Redirect != "":
		return strconv.Itoa(r.Status) + " to " + r.Redirect
	default:
		return strconv.Itoa(r.Status)
	}
}

// eventText describes an event in one line.
func eventText(e event) string {
	s := fmtClock(e.Time, false) + " " + e.Kind
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Until != nil {
		s += " (until " + fmtTime(*e.Until) + ")"
	}
	return s
}

// occurrences returns the [open, close) intervals of w that overlap span,
// clipped to it.
func occurrences(w robots.Window, span timeSpan) [][2]time.Time {
	var out [][2]time.Time
	t := span.start
	for range 400 { // a year of daily windows is far beyond any timeline
		open := w.NextOpen(t)
		if !open.Before(span.end) {
			break
		}
		closeAt := w.Close(open)
		out = append(out, [2]time.Time{open, minTime(closeAt, span.end)})
		t = closeAt
	}
	return out
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// tickSteps returns the spacings an axis may use, smallest first.
func tickSteps() []time.Duration {
	return []time.Duration{
		time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
		time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
		time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour, 7 * 24 * time.Hour,
	}
}

// ticks returns at most eight labelled axis ticks at round UTC times.
func ticks(span timeSpan) []tick {
	total := span.end.Sub(span.start)
	steps := tickSteps()
	step := steps[len(steps)-1]
	for _, s := range steps {
		if total/s <= 8 {
			step = s
			break
		}
	}
	layout := "15:04:05"
	switch {
	case total > 48*time.Hour:
		layout = "Jan 2 15:04"
	case step >= time.Minute:
		layout = "15:04"
	}
	var out []tick
	for t := span.start.UTC().Truncate(step); !t.After(span.end); t = t.Add(step) {
		if t.Before(span.start) {
			continue
		}
		out = append(out, tick{X: span.x(t), Label: t.Format(layout)})
	}
	return out
}
