package scheduler

import (
	"slices"
	"time"
)

// A PaceSegment is one stretch [From, To) of the UTC day, in minutes after
// midnight, over which a host's rules ask for one interval and one
// Visit-time verdict.
type PaceSegment struct {
	From, To int // minutes after midnight UTC; To is at most 24*60
	// Interval is the slowest of MinDelay, the Crawl-delay after
	// CrawlDelayPolicy, the Request-rates active in the stretch, and the
	// default delay when none of the rules asks for a pace: the terms
	// interval takes from the rules, without the adaptive delay, the
	// back-off and Config.Margin, which change per answer.
	Interval time.Duration
	// Open: the Visit-time windows allow a request start in the stretch.
	Open bool
	// RateBoundary: a windowed Request-rate starts or stops applying at
	// To, which earliest treats as a point to look at the interval again.
	RateBoundary bool
}

// A PaceTable cuts the UTC day into PaceSegments at every boundary of a
// windowed Request-rate and of a Visit-time window, in order, covering
// minutes 0 to 24*60. Applied with EarliestStart's other terms, it gives
// the same start as the scheduler's own pace computation, for frontiers
// that keep a host's pace outside the process (a shared store).
type PaceTable []PaceSegment

// NewPaceTable returns the pace table of a host whose robots.txt group
// gave r under cfg; the zero Rules gives the table of a host whose
// robots.txt is not read yet (one open segment, the default delay).
func NewPaceTable(cfg *Config, r Rules) PaceTable {
	noMargin := *cfg
	noMargin.Margin = 0
	p := rulesPace(cfg, r)
	rateCuts, cuts := paceCuts(r)
	day := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	var t PaceTable
	for i := 0; i+1 < len(cuts); i++ {
		at := day.Add(time.Duration(cuts[i]) * time.Minute)
		iv, _ := interval(&noMargin, &p, at)
		open, _ := openAt(r.VisitTimes, at)
		t = append(t, PaceSegment{From: cuts[i], To: cuts[i+1], Interval: iv, Open: open,
			RateBoundary: rateCuts[cuts[i+1]%minutesPerDay]})
	}
	return t
}

// paceCuts returns the minutes at which a windowed Request-rate starts or
// stops applying, and all the cuts of the day in order (0 and 24*60
// included).
func paceCuts(r Rules) (map[int]bool, []int) {
	rateCuts := map[int]bool{}
	cuts := []int{0, minutesPerDay}
	for _, rr := range r.RequestRates {
		if rr.Windowed {
			for _, m := range windowEdges(rr.Window) {
				rateCuts[m] = true
				cuts = append(cuts, m)
			}
		}
	}
	for _, w := range r.VisitTimes {
		e := windowEdges(w)
		cuts = append(cuts, e[:]...)
	}
	slices.Sort(cuts)
	return rateCuts, slices.Compact(cuts)
}

// rulesPace returns the pace state of r under cfg, its Crawl-delay after
// CrawlDelayPolicy (clamp uses MaxCrawlDelay; wait and skip keep it).
func rulesPace(cfg *Config, r Rules) paceState {
	p := paceState{rules: r}
	if r.HasCrawlDelay {
		p.crawlDelay = r.CrawlDelay
		if cfg.CrawlDelayPolicy == PolicyClamp && crawlDelayTooLong(cfg, r) {
			p.crawlDelay, p.clamped = cfg.MaxCrawlDelay, true
		}
	}
	return p
}

// A PaceInput is a host's pacing state at one instant, as EarliestStart
// reads it.
type PaceInput struct {
	Rules    Rules
	Last     time.Time     // the host's last request start (or end of its last answer); zero if none
	Until    time.Time     // no start before this (back-off, Retry-After)
	Adaptive time.Duration // FetchTimeFactor x the last response time
	Backoff  time.Duration // the current back-off interval
}

// EarliestStart returns the earliest instant at or after now at which a
// host in state in may start a request, and whether that start was pushed
// past a closed Visit-time period: the one computation Wait applies
// (inside a Visit-time window, not before Until, at least the interval in
// force at that instant, margin included, after Last).
func EarliestStart(cfg *Config, in PaceInput, now time.Time) (time.Time, bool) {
	p := rulesPace(cfg, in.Rules)
	p.adaptive, p.backoff = in.Adaptive, in.Backoff
	p.lastStart, p.base, p.until = in.Last, in.Last, in.Until
	sc := earliest(cfg, &p, now)
	return sc.start, sc.parked
}
