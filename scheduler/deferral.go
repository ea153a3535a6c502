package scheduler

import (
	"fmt"
	"time"
)

// deferral is one host deferred at a drain: the skip every queued URL of
// the host is reported with.
type deferral struct {
	auth string
	tmpl Skip
}

// drainLocked lists the deferred hosts not yet reported since their last
// lease, each with the skip its queued URLs are reported with.
func (s *Scheduler) drainLocked(now time.Time) []deferral {
	var out []deferral
	for _, h := range s.ready {
		if h.notified {
			continue
		}
		h.notified = true
		// The schedule is worked out once for the status and the cause.
		p := h.pace(&s.cfg)
		sc := earliest(&s.cfg, &p, now)
		st := s.statusAt(h, sc, now)
		reason, rule, line := s.deferCause(h, &p, sc)
		by := rule
		if line > 0 {
			by += fmt.Sprintf(" (line %d)", line)
		}
		out = append(out, deferral{auth: h.auth, tmpl: Skip{
			Authority: h.auth, Reason: reason, Rule: rule, Line: line, Time: now, Queued: true,
			Detail: fmt.Sprintf("host deferred until %s by %s: the URL stays queued for the next run",
				st.DeferredUntil.UTC().Format(time.RFC3339), by),
		}})
	}
	return out
}

// emitDeferred reports every queued URL of the deferred hosts through
// OnSkip (not counted in Stats.Skipped: they stay queued), reading them from the store in batches so that memory stays
// bounded however long the queues are. s.mu must not be held; the caller
// made the queues durable.
func (s *Scheduler) emitDeferred(ds []deferral) error {
	if s.cfg.OnSkip == nil {
		return nil
	}
	const batch = 1024
	for _, d := range ds {
		var after uint64
		for {
			es, err := s.store.Queue(d.auth, after, batch)
			if err != nil {
				return fmt.Errorf("scheduler: list deferred %s: %w", d.auth, err)
			}
			for _, e := range es {
				sk := d.tmpl
				sk.URL, sk.Parent = e.URL, e.Parent
				s.cfg.OnSkip(sk)
				after = e.Seq
			}
			if len(es) < batch {
				break
			}
		}
	}
	return nil
}

// deferCause names what holds a deferred host back, given its pace p and
// its earliest start sc, as the skip reason, the rule and its robots.txt
// line (0 when it has none): its Visit-time windows; else whichever
// deadline the earliest start waits for (a robots.txt that failed to
// load, a back-off or Retry-After, the restart floor unless the pace in
// force reaches the same start); else the pace the site asks for
// (Crawl-delay or Request-rate line, or the previous run's interval
// standing in for them), as crawl-delay-too-long; else the back-off
// interval, as backoff-deferred; else the crawl's own pace term that sets
// the interval (min-delay, default, adaptive), as pace-too-long. A host
// whose rules are merely not loaded yet is deferred by what its first
// request waits for, never reported as robots-unreachable.
func (s *Scheduler) deferCause(h *host, p *paceState, sc schedule) (Reason, string, int) {
	if sc.parked {
		// The rule is the Visit-time line as written when one line holds
		// every window; from several lines, the first one's line is given
		// and the rule text lists the windows.
		line, rule := 0, VisitString(h.rules.VisitTimes)
		if vt := h.rules.VisitTimes; len(vt) > 0 {
			line = vt[0].Line
			if vt[0].Text != "" && vt[len(vt)-1].Line == line {
				rule = vt[0].Text
			}
		}
		return ReasonVisitTimeDeferred, rule, line
	}
	if !p.until.IsZero() && !sc.start.After(p.until) {
		switch {
		case h.robotsRetryHolds(sc.start):
			return ReasonRobotsUnreachable, RobotsURL(h.auth), 0
		case p.until.Equal(h.rec.BackoffUntil):
			return ReasonBackoffDeferred, h.untilSource(p.until), 0
		case p.base.IsZero() || p.base.Add(sc.iv).Before(sc.start):
			return ReasonBackoffDeferred, h.untilSource(p.until), 0 // the restart floor
		}
		// The restart floor is the previous run's start plus its
		// interval: when the pace in force reaches the same start, the
		// pace names the cause.
	}
	iv := sc.iv - s.cfg.Margin
	if p.rules.HasCrawlDelay && p.crawlDelay > 0 && p.crawlDelay >= iv {
		return ReasonCrawlDelayTooLong, "Crawl-delay: " + crawlDelayValue(h.rules.CrawlDelay), h.rules.CrawlDelayLine
	}
	for _, r := range h.rules.RequestRates {
		if r.ActiveAt(sc.start) && r.Interval() >= iv {
			text := r.Text
			if text == "" {
				text = "Request-rate: " + rateString(r)
			}
			return ReasonCrawlDelayTooLong, text, r.Line
		}
	}
	// The previous run's interval stands in for the host's rules until
	// robots.txt is read: the site's pace when it names the interval (as
	// interval labels it: above MinDelay, nothing later above it).
	if prev := max(p.restored-s.cfg.Margin, 0); p.restored > 0 && prev >= iv && prev > s.cfg.MinDelay {
		return ReasonCrawlDelayTooLong, sc.src, 0
	}
	if p.backoff > 0 && p.backoff >= iv {
		return ReasonBackoffDeferred, sc.src, 0
	}
	// Our own pace: min-delay, the default or the adaptive pace.
	return ReasonPaceTooLong, sc.src, 0
}
