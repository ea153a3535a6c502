package scheduler

import (
	"slices"
	"strings"
	"time"
)

// Host returns the status of authority now; the zero HostStatus if the
// scheduler never heard of it.
func (s *Scheduler) Host(authority string) HostStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.hosts[authority]
	if h == nil {
		return HostStatus{}
	}
	return s.statusLocked(h, time.Now())
}

// Hosts returns the status of every known host, sorted by authority.
func (s *Scheduler) Hosts() []HostStatus {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	out := make([]HostStatus, 0, len(s.hosts))
	for _, h := range s.hosts {
		out = append(out, s.statusLocked(h, now))
	}
	slices.SortFunc(out, func(a, b HostStatus) int { return strings.Compare(a.Authority, b.Authority) })
	return out
}

func (s *Scheduler) statusLocked(h *host, now time.Time) HostStatus {
	p := h.pace(&s.cfg)
	return s.statusAt(h, earliest(&s.cfg, &p, now), now)
}

// statusAt is statusLocked given sc, h's earliest start at now.
func (s *Scheduler) statusAt(h *host, sc schedule, now time.Time) HostStatus {
	st := HostStatus{
		Authority:   h.auth,
		Interval:    sc.iv,
		PaceSource:  sc.src,
		Warning:     h.warning,
		NextAllowed: sc.start,
		Queued:      h.queued(),
		InFlight:    h.inflight,
		Leased:      h.leased(),
		Fetched:     h.rec.Fetched,
		Failures:    h.rec.Failures,
		DropReason:  h.rec.DropReason,
		RulesKnown:  h.rulesKnown,
	}
	// The next start waits for the back-off deadline: what set it (a
	// Retry-After, or the back-off after failures) is why the host
	// waits, while the pace stays named by the term that sets the
	// interval between requests.
	if n, ok := h.lastStart(now); ok {
		st.LastInterval, st.LastPaceSource = n.iv, n.src
	}
	// The back-off holds the next start when its deadline is that start,
	// or that start less the margin: the back-off interval, counted from
	// the previous start (the answer that set the deadline came after
	// it), ends with the margin just after the deadline, and the host
	// still waits for its back-off, not for its pace.
	backingOff := h.rec.BackoffUntil.After(now) && !h.rec.BackoffUntil.Before(sc.start.Add(-s.cfg.Margin))
	if backingOff {
		st.BackoffReason = h.untilSource(h.rec.BackoffUntil)
	}
	switch {
	case h.rec.Dropped:
		// A drop is final for the run: no next start, and no back-off
		// left over from the failures that dropped it is waited for.
		st.State = StateDropped
		st.NextAllowed, st.BackoffReason = time.Time{}, ""
	case h.queued() == 0 && h.inflight == 0 && !h.robotsOut:
		st.State = StateDone
	case h.inflight > 0 && !sc.start.After(now):
		st.State = StateActive
	case sc.start.Sub(now) > s.cfg.MaxWait:
		st.State = StateDeferred
		st.DeferredUntil = sc.start
		switch {
		case sc.parked:
			st.DeferReason = VisitString(h.rules.VisitTimes)
		case backingOff:
			st.DeferReason = st.BackoffReason
		case h.robotsRetryHolds(sc.start):
			// The retry of an unreachable robots.txt holds the start (its
			// skips say so); the pace names only the interval after it.
			st.DeferReason = h.untilSource(h.robotsRetryAt)
		default:
			st.DeferReason = sc.src
		}
	case sc.parked:
		st.State = StateParked
	case backingOff:
		st.State = StateBackingOff
	case sc.start.After(now):
		st.State = StateWaiting
	default:
		st.State = StateActive
	}
	return st
}

// Stats returns totals over the whole frontier. It visits every host, so
// it costs time in proportion to the number of hosts.
func (s *Scheduler) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	st := s.stats
	st.InFlight = s.leases
	st.Hosts = len(s.hosts)
	for _, h := range s.hosts {
		st.Queued += h.queued()
		st.Leased += h.leased()
		switch s.statusLocked(h, now).State {
		case StateActive:
			st.HostsActive++
		case StateWaiting:
			st.HostsWaiting++
		case StateParked:
			st.HostsParked++
		case StateBackingOff:
			st.HostsBackingOff++
		case StateDeferred:
			st.HostsDeferred++
		case StateDropped:
			st.HostsDropped++
		case StateDone:
			st.HostsDone++
		}
	}
	return st
}
