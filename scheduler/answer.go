package scheduler

import "time"

// Observe is called by the transport after every response or failed
// request to authority. It sets the adaptive pace (FetchTimeFactor x dur),
// honours Retry-After on 429 and 503 in full (seconds or HTTP-date; one
// beyond MaxWait defers the host to a later run, one beyond RetryAfterMax
// also sets the host's warning) and backs off exponentially on 429, 5xx and errors,
// resetting on success. A failure never lowers the adaptive delay, so
// errors never make a host faster.
func (s *Scheduler) Observe(authority string, status int, dur time.Duration, retryAfter string, err error) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	h := s.host(authority)
	h.ended()
	failed := isFailure(status, err)
	if f := s.cfg.FetchTimeFactor; f > 0 && dur > 0 {
		a := time.Duration(f * float64(dur))
		if !failed || a > h.rec.Adaptive {
			h.rec.Adaptive = a
		}
	}
	if failed {
		s.backOff(h, status, retryAfter, now)
	} else {
		h.rec.Streak = 0
		h.rec.Backoff = 0
	}
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
	if !t.After(h.rec.LastStart) {
		return
	}
	h.rec.LastStart = t
	h.rec.NextAllowed = t.Add(h.rec.Interval)
	s.touch(h)
	s.fixAt(h, time.Now())
}
