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
		st := s.statusLocked(h, now)
		reason := s.deferReason(h, now)
		rule, line := s.deferRule(h, reason, now)
		by := rule
		if line > 0 {
			by += fmt.Sprintf(" (line %d)", line)
		}
		out = append(out, deferral{auth: h.auth, tmpl: Skip{
			Authority: h.auth, Reason: reason, Rule: rule, Line: line, Time: now,
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

// deferReason names what holds a deferred host back: its Visit-time, its
// robots.txt being unreachable, a back-off or Retry-After, or else the pace
// its robots.txt asks for.
func (s *Scheduler) deferReason(h *host, now time.Time) Reason {
	p := h.pace()
	sc := earliest(&s.cfg, &p, now)
	switch {
	case sc.parked:
		return ReasonVisitTimeDeferred
	case !h.rulesKnown:
		return ReasonRobotsUnreachable
	case !p.until.IsZero() && !sc.start.After(p.until):
		return ReasonBackoffDeferred
	}
	return ReasonCrawlDelayTooLong
}

// deferRule returns the rule (and its robots.txt line, when it has one)
// that makes reason hold h back: the Visit-time windows, the robots.txt
// URL, the back-off or Retry-After, or the Crawl-delay or Request-rate line
// that sets the interval.
func (s *Scheduler) deferRule(h *host, reason Reason, now time.Time) (string, int) {
	switch reason {
	case ReasonVisitTimeDeferred:
		// The windows may come from several Visit-time lines: the first
		// one's line is given, the rule text lists them all.
		line := 0
		if len(h.rules.VisitTimes) > 0 {
			line = h.rules.VisitTimes[0].Line
		}
		return visitString(h), line
	case ReasonRobotsUnreachable:
		return h.auth + "/robots.txt", 0
	case ReasonBackoffDeferred:
		if h.untilSrc != "" {
			return h.untilSrc, 0
		}
		return "restart floor: the pace recorded by the previous run", 0
	}
	p := h.pace()
	sc := earliest(&s.cfg, &p, now)
	iv := sc.iv - s.cfg.Margin
	if h.rules.HasCrawlDelay && h.crawlDelay > 0 && h.crawlDelay >= iv {
		return "Crawl-delay: " + crawlDelayValue(h.rules.CrawlDelay), h.rules.CrawlDelayLine
	}
	for _, r := range h.rules.RequestRates {
		if r.ActiveAt(sc.start) && r.Interval() >= iv {
			text := r.Text
			if text == "" {
				text = "Request-rate: " + rateString(r)
			}
			return text, r.Line
		}
	}
	return sc.src, 0
}
