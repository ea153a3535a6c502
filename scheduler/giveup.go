package scheduler

import (
	"container/heap"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// noteReach takes in what an outcome at t says of h being there: any
// answer (whatever its status) ends its run of connection failures and
// shows it is not refusing; a refused connection (or an unresolved name)
// of a host that never answered starts the clock of RefusedGiveUp. s.mu is
// held.
func (h *host) noteReach(o Outcome, t time.Time) {
	switch {
	case o.answered():
		h.answered = true
		h.refusedSince = time.Time{}
		h.failing = nil
		h.rec.Failures = 0
	case o == OutcomeUnreachable && !h.answered && h.refusedSince.IsZero():
		h.refusedSince = t
	}
}

// chargeLocked charges one finished attempt of url, ending with o, to h: a
// failure is counted in Stats.Errors, and a failure at the connection level
// adds url to h's run of failing URLs (each URL once: a URL retried does
// not make a host fail). s.mu is held.
func (s *Scheduler) chargeLocked(h *host, url string, o Outcome) {
	if o == OutcomeAnswer {
		return
	}
	s.stats.Errors++
	if !o.connection() {
		return
	}
	if !slices.Contains(h.failing, url) && len(h.failing) < s.cfg.MaxFailures {
		h.failing = append(h.failing, url)
	}
	h.rec.Failures = len(h.failing)
}

// giveUpReason says why an attempt of url on h ending with o (charged or
// not yet) gives h up for the run, or "" if it does not: a failure at the
// connection level on MaxFailures different URLs in a row with no answer
// between, or, for a host that never answered, refusals whose next try
// would come later than RefusedGiveUp after the first. An HTTP status never
// gives a host up. s.mu is held.
func (s *Scheduler) giveUpReason(h *host, url string, o Outcome, now time.Time) string {
	if !o.connection() {
		return ""
	}
	n := len(h.failing)
	if !slices.Contains(h.failing, url) {
		n++
	}
	if why := s.refusedReason(h, n, h.rec.BackoffUntil, now); why != "" {
		return why
	}
	if n < s.cfg.MaxFailures {
		return ""
	}
	return fmt.Sprintf("connection failures on %d different URLs in a row with no answer between", n)
}

// refusedReason says why h, tried tries times, is given up when its next
// try would come at next, or "": only a host that never answered and
// refuses connections (or whose name does not resolve) is, once tries
// reaches MaxFailures or next is more than RefusedGiveUp after its first
// refusal. s.mu is held.
func (s *Scheduler) refusedReason(h *host, tries int, next, now time.Time) string {
	if h.answered || h.refusedSince.IsZero() {
		return ""
	}
	if tries < s.cfg.MaxFailures && next.Sub(h.refusedSince) <= RefusedGiveUp {
		return ""
	}
	what := "1 try"
	if tries != 1 {
		what = fmt.Sprintf("%d tries over %s", tries, robots.ShortDuration(now.Sub(h.refusedSince).Round(time.Millisecond)))
	}
	return fmt.Sprintf("the host never answered: connection refused or no such host, %s (a host that never answered is given up within %s)",
		what, robots.ShortDuration(RefusedGiveUp))
}

// robotsGiveUpReason says why h, whose robots.txt just failed for the
// robotsFailures-th time in a row and would be asked for again at
// retryAt, is given up for the run, or "". s.mu is held.
func (s *Scheduler) robotsGiveUpReason(h *host, retryAt, now time.Time) string {
	next := retryAt
	if h.rec.BackoffUntil.After(next) {
		next = h.rec.BackoffUntil
	}
	if why := s.refusedReason(h, h.robotsFailures, next, now); why != "" {
		return why
	}
	if h.robotsFailures < s.cfg.MaxFailures {
		return ""
	}
	return fmt.Sprintf("robots.txt unreachable %d times", h.robotsFailures)
}

// giveUpLocked gives h up for the run, for reason (detail says why; rule
// names a robots.txt, if one decided): no more leases or requests, but its
// URLs stay queued. They are reported once the frontier drains, each with
// reason and Queued set (see drainLocked), and the next Open tries the
// host again. s.mu is held.
func (s *Scheduler) giveUpLocked(h *host, reason Reason, detail, rule string, now time.Time) {
	h.rec.Dropped = true
	h.rec.DropReason = string(reason) + ": " + detail
	h.kept = Skip{Authority: h.auth, Reason: reason, Rule: rule, Time: now, Queued: true,
		Detail: "host given up for this run (" + detail + "): the URL stays queued for the next run"}
	h.notified = false
	s.touch(h)
	if h.idx >= 0 {
		heap.Remove(&s.ready, h.idx)
	}
}

// keptLocked lists the hosts given up for the run that have URLs queued
// and were not reported since, each with the skip its queued URLs are
// reported with (as deferred hosts' are). s.mu is held.
func (s *Scheduler) keptLocked() []deferral {
	var out []deferral
	for _, h := range s.hosts {
		if h.kept.Reason == "" || h.notified || h.queued() == 0 {
			continue
		}
		h.notified = true
		out = append(out, deferral{auth: h.auth, tmpl: h.kept})
	}
	slices.SortFunc(out, func(a, b deferral) int { return strings.Compare(a.auth, b.auth) })
	return out
}

// forgetDrop clears the drop a previous run recorded for h: a host given up
// is tried again by the next run, and its failures counted afresh.
func (h *host) forgetDrop() {
	h.rec.Dropped, h.rec.DropReason, h.rec.Failures = false, "", 0
	h.answered = h.rec.Pages > 0 || h.rec.Fetched > 0
}
