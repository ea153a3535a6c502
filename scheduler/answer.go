package scheduler

import "time"

// Observe is called by the transport after every response or failed
// request to authority. It sets the adaptive pace (FetchTimeFactor x dur)
// and applies the host's side of the failure policy (see Classify): a
// final answer resets the back-off; a 5xx other than 503 leaves the host's
// pace and back-off as they are (it concerns that URL); 429, 503, a cut
// body, a timeout, a reset or a refused connection back the host off
// exponentially, and a 429's or 503's Retry-After is honoured in full
// (seconds or HTTP-date; one beyond MaxWait defers the host to a later
// run, one beyond RetryAfterMax also sets the host's warning). A failure
// never lowers the adaptive delay, so errors never make a host faster.
func (s *Scheduler) Observe(authority string, status int, dur time.Duration, retryAfter string, err error) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	h := s.host(authority)
	h.ended()
	o := Classify(status, err)
	if f := s.cfg.FetchTimeFactor; f > 0 && dur > 0 {
		a := time.Duration(f * float64(dur))
		if o == OutcomeAnswer || a > h.rec.Adaptive {
			h.rec.Adaptive = a
		}
	}
	switch {
	case o == OutcomeAnswer:
		h.rec.Streak = 0
		h.rec.Backoff = 0
	case o.slows():
		s.backOff(h, status, retryAfter, now)
	}
	h.noteReach(o, now)
	s.touch(h)
	s.fixAt(h, now)
	s.notify()
}

// Answered tells the pace that the server answered a request to authority
// at t (its response headers arrived): it had the request by then, so the
// host's last request start is taken as no earlier than t. Counting the
// next interval from there keeps the gaps the server sees at least the
// interval, whatever delayed the previous request on its way (connection
// set-up, scheduling on either side). The transport calls it once per
// response, before Observe.
func (s *Scheduler) Answered(authority string, t time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	h := s.host(authority)
	h.noteReach(OutcomeAnswer, t)
	if !t.After(h.rec.LastStart) {
		return
	}
	h.rec.LastStart = t
	h.rec.NextAllowed = t.Add(h.rec.Interval)
	s.touch(h)
	s.fixAt(h, time.Now())
}
