package scheduler

import "time"

// refusal returns the robots-disallowed skip of url if h's current rules
// refuse it at now (see Rules.Refuse): the rules are known, carry a
// Refuse, and have not expired.
func (h *host) refusal(url string, now time.Time) (Skip, bool) {
	r := &h.rules
	if !h.rulesKnown || r.Refuse == nil || !r.RefuseUntil.IsZero() && !now.Before(r.RefuseUntil) {
		return Skip{}, false
	}
	rule, line, detail, refused := r.Refuse(url)
	if !refused {
		return Skip{}, false
	}
	return Skip{URL: url, Authority: h.auth, Reason: ReasonRobotsDisallowed, Detail: detail, Rule: rule, Line: line, Time: now}, true
}

// headRefusal returns the skip of the entry at the head of h's queue if
// h's rules refuse it at now. A head found allowed is remembered by its
// Seq until SetRules: the rules only stop refusing as they expire, so the
// verdict holds until new rules arrive.
func (h *host) headRefusal(now time.Time) (Skip, bool) {
	if len(h.cache) == 0 || h.cache[0].Seq == h.allowedSeq {
		return Skip{}, false
	}
	e := h.cache[0]
	sk, ok := h.refusal(e.URL, now)
	if !ok {
		if h.rulesKnown {
			h.allowedSeq = e.Seq
		}
		return Skip{}, false
	}
	sk.Parent = e.Parent
	return sk, true
}

// refusedHeadLocked reports whether the entry at the head of h's queue is
// refused by h's rules at now: it is skipped without a request, so
// neither the pace nor the leases in flight hold it back.
func (s *Scheduler) refusedHeadLocked(h *host, now time.Time) bool {
	_, ok := h.headRefusal(now)
	return ok
}

// refuseSkipLocked skips the entries at the head of h's queue that h's
// rules refuse at now, as skips for OnSkip (the URLs leave the frontier,
// as a lease finished with a Skip would), and has the flusher refill the
// head at once if that emptied it. It reports whether it skipped any.
func (s *Scheduler) refuseSkipLocked(h *host, now time.Time) bool {
	n := 0
	for {
		sk, ok := h.headRefusal(now)
		if !ok {
			break
		}
		s.skipHead(h, sk)
		n++
	}
	if n == 0 {
		return false
	}
	s.touch(h)
	if len(h.cache) == 0 && h.spill > 0 && !h.refilling {
		// The next entries may be refused too: read them now, not when
		// the pace would let the host fetch.
		s.refillLocked(h)
		return true
	}
	s.fixAt(h, now)
	return true
}
