package scheduler

import (
	"fmt"
	"strconv"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// paceState is everything that decides one host's pace, as plain values so
// that the pace functions are pure.
type paceState struct {
	rules      Rules         // robots pacing; zero when unknown
	crawlDelay time.Duration // Crawl-delay after the policy (clamp); 0 if none
	clamped    bool          // crawlDelay was clamped
	adaptive   time.Duration // FetchTimeFactor x last response time
	backoff    time.Duration // current back-off interval
	lastStart  time.Time     // start of the latest request; zero if none
	base       time.Time     // latest of lastStart and a reserved lease start
	until      time.Time     // no start before this (back-off, Retry-After, restart floor)
	// restored is the interval the previous process recorded with
	// lastStart (margin included) when it came from the host's rules, in
	// force until fresh rules arrive; 0 if none.
	restored time.Duration
}

// interval returns the interval in force at t and the term that set it:
// the slowest of MinDelay, Crawl-delay, the Request-rate active at t, the
// previous run's interval (after a restart, until fresh rules arrive), the
// 1996 default (only when none of those asks for a pace), the adaptive
// delay and the back-off, plus cfg.Margin.
func interval(cfg *Config, p *paceState, t time.Time) (time.Duration, string) {
	iv, src := time.Duration(0), "none"
	take := func(d time.Duration, s func() string) {
		if d > iv {
			iv, src = d, s()
		}
	}
	take(cfg.MinDelay, func() string { return "min-delay " + robots.ShortDuration(cfg.MinDelay) })
	robotsPace := p.robotsPaced(t)
	if p.rules.HasCrawlDelay && p.crawlDelay > 0 {
		// "Crawl-delay: 0" asks for no pace: the 1996 default stays.
		take(p.crawlDelay, func() string {
			if p.clamped {
				return fmt.Sprintf("crawl-delay %s clamped from %s (line %d)", robots.ShortDuration(p.crawlDelay), robots.ShortDuration(p.rules.CrawlDelay), p.rules.CrawlDelayLine)
			}
			return fmt.Sprintf("crawl-delay %s (line %d)", robots.ShortDuration(p.crawlDelay), p.rules.CrawlDelayLine)
		})
	}
	for _, r := range p.rules.RequestRates {
		if !r.ActiveAt(t) {
			continue
		}
		take(r.Interval(), func() string { return "request-rate " + rateString(r) })
	}
	if p.restored > 0 {
		// After a restart, until robots.txt is read again, the host's last
		// interval stands in for its rules: as polite as the host asked
		// last time, and no slower than it asked (the 1996 default would
		// be a guess). Taken after the rules' own terms, so that on a
		// tie the label names the robots rule.
		prev := max(p.restored-cfg.Margin, 0)
		take(prev, func() string {
			return "previous run's interval " + robots.ShortDuration(prev) + " (until robots.txt is read)"
		})
	}
	if !robotsPace {
		take(cfg.DefaultDelay, func() string { return defaultLabel(cfg.DefaultDelay) })
	}
	take(p.adaptive, func() string {
		// The measured fetch time is rounded in the label only: one
		// request's 41.761261ms and the next one's 41.8ms are one rule.
		return "adaptive " + strconv.FormatFloat(cfg.FetchTimeFactor, 'f', -1, 64) + "x" + robots.ShortDuration(roundSignificant(time.Duration(float64(p.adaptive)/cfg.FetchTimeFactor), 3))
	})
	take(p.backoff, func() string { return "back-off " + robots.ShortDuration(p.backoff) })
	if iv > 0 {
		iv += cfg.Margin
	}
	return iv, src
}

// defaultLabel names the default pace d: "default 10s (1996 rule of
// thumb)" when d is RuleOfThumbDelay, else "default 200ms (configured)",
// so that a shortened or lengthened default is never passed off as the
// rule of thumb.
func defaultLabel(d time.Duration) string {
	why := " (configured)"
	if d == RuleOfThumbDelay {
		why = " (1996 rule of thumb)"
	}
	return "default " + robots.ShortDuration(d) + why
}

// roundSignificant rounds d to n significant decimal digits of
// nanoseconds (41.761261ms to 41.8ms for n = 3); n < 1 leaves d as it is.
func roundSignificant(d time.Duration, n int) time.Duration {
	if n < 1 {
		return d
	}
	limit := time.Duration(1)
	for range n {
		limit *= 10
	}
	unit := time.Duration(1)
	for a := d.Abs(); a >= limit && unit < time.Duration(1)<<62/10; a /= 10 {
		unit *= 10
	}
	return d.Round(unit)
}

// robotsPaced reports whether the host's rules (or the previous process's
// rules-based interval) ask for a pace at t, so that the 1996 default does
// not apply.
func (p *paceState) robotsPaced(t time.Time) bool {
	if p.restored > 0 || (p.rules.HasCrawlDelay && p.crawlDelay > 0) {
		return true
	}
	for _, r := range p.rules.RequestRates {
		if r.ActiveAt(t) {
			return true
		}
	}
	return false
}

// rateString formats a Request-rate as "1/10m 13:00-16:59 (line 5)".
func rateString(r robots.RequestRate) string {
	s := strconv.Itoa(r.Requests) + "/" + robots.ShortDuration(r.Per)
	if r.Windowed {
		s += " " + r.Window.String()
	}
	if r.Line > 0 {
		s += fmt.Sprintf(" (line %d)", r.Line)
	}
	return s
}

// openAt reports whether the Visit-time windows allow a request at t, and
// if not, when they next open.
func openAt(windows []robots.Window, t time.Time) (bool, time.Time) {
	if len(windows) == 0 {
		return true, t
	}
	var next time.Time
	for _, w := range windows {
		if w.Contains(t) {
			return true, t
		}
		o := w.NextOpen(t)
		if next.IsZero() || o.Before(next) {
			next = o
		}
	}
	return false, next
}

// minutesPerDay is the length of a UTC day in minutes.
const minutesPerDay = 24 * 60

// windowEdges returns the minutes after midnight UTC at which w starts and
// stops applying: its From, and the minute after its To (w includes its
// To minute).
func windowEdges(w robots.Window) [2]int {
	return [2]int{w.From, (w.To + 1) % minutesPerDay}
}

// nextBoundary returns the first instant after t at which a windowed
// Request-rate starts or stops applying, or zero if none does.
func nextBoundary(rates []robots.RequestRate, t time.Time) time.Time {
	var next time.Time
	u := t.UTC()
	day := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	for _, r := range rates {
		if !r.Windowed {
			continue
		}
		for _, m := range windowEdges(r.Window) {
			b := day.Add(time.Duration(m) * time.Minute)
			if !b.After(u) {
				b = b.Add(24 * time.Hour)
			}
			if next.IsZero() || b.Before(next) {
				next = b
			}
		}
	}
	return next
}

// schedule is the result of earliest.
type schedule struct {
	start  time.Time     // earliest allowed request start
	iv     time.Duration // interval in force at start
	src    string        // the term that set iv
	parked bool          // start was pushed past a closed Visit-time period
}

// earliest returns the earliest instant at or after now at which the host
// may start a request: inside a Visit-time window, not before p.until, and
// at least the interval in force at that instant after p.base. Windowed
// rates are followed across their boundaries, so a switch to a slower rate
// at 13:00 applies to a start at 13:00 exactly.
func earliest(cfg *Config, p *paceState, now time.Time) schedule {
	t := now
	if p.until.After(t) {
		t = p.until
	}
	parked := false
	for range 1000 {
		if ok, next := openAt(p.rules.VisitTimes, t); !ok {
			t, parked = next, true
			continue
		}
		iv, src := interval(cfg, p, t)
		if p.base.IsZero() {
			return schedule{t, iv, src, parked}
		}
		need := p.base.Add(iv)
		if !t.Before(need) {
			return schedule{t, iv, src, parked}
		}
		b := nextBoundary(p.rules.RequestRates, t)
		if b.IsZero() || need.Before(b) {
			t = need
		} else {
			t = b
		}
	}
	// Unreachable with well-formed windows; fail safe: a day later.
	return schedule{now.Add(24 * time.Hour), 24 * time.Hour, "unschedulable windows", true}
}
