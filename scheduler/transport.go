package scheduler

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/crawlproject/crawl/robots"
)

// A WaitError is returned by Wait when a request may not be sent now and
// waiting is not the answer. It wraps ErrParked, ErrWaitTooLong or
// ErrHostDropped.
type WaitError struct {
	Authority string
	Until     time.Time // earliest start; zero for a dropped host
	Reason    string    // the rule in force, e.g. "visit-time 06:00-08:45"
	Err       error
}

// Error describes the refusal.
func (e *WaitError) Error() string {
	if e.Until.IsZero() {
		return fmt.Sprintf("%v: %s", e.Err, e.Authority)
	}
	return fmt.Sprintf("%v: %s until %s (%s)", e.Err, e.Authority, e.Until.UTC().Format(time.RFC3339), e.Reason)
}

// Unwrap returns the sentinel error.
func (e *WaitError) Unwrap() error { return e.Err }

// Wait is the one place where request tokens are spent. The HTTP transport
// calls it before every request (pages, robots.txt, sitemaps, redirect
// hops). It blocks until the host's pace allows a request start, records
// that start in the store (durably, before returning) and returns nil. It
// returns a *WaitError instead of waiting when the host is outside its
// Visit-time windows (ErrParked), when the wait would exceed MaxWait
// (ErrWaitTooLong) or when the host was dropped (ErrHostDropped). If ctx
// ends during the wait, the reserved start stays spent: a cancelled request
// never makes a host faster.
func (s *Scheduler) Wait(ctx context.Context, authority string) error {
	return s.wait(ctx, authority, false)
}

// wait is Wait, or WaitHop if hop. A request first waits for a place among
// the host's requests in flight: a hop while PerHost requests are in
// flight, a lease's request while hops fill them (its lease already counts
// it among the host's leases). The place is taken at once, under the lock
// that checked it (awaitFlush below lets the lock go, and every request
// woken by a Release would otherwise see the same free place), and held
// until Release: through the request's pace sleep and its sending, never
// by a lease alone, so two hosts whose robots.txt redirect to each other
// both get their hop.
func (s *Scheduler) wait(ctx context.Context, authority string, hop bool) error {
	s.mu.Lock()
	var h *host
	for {
		if s.closed {
			s.mu.Unlock()
			return ErrClosed
		}
		h = s.host(authority)
		full := h.sending >= s.cfg.PerHost
		if !full || !hop && h.hops == 0 {
			s.place(h, hop, +1)
			break
		}
		wake := s.wake
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wake:
		}
		s.mu.Lock()
	}
	now := time.Now()
	refuse := func(err error) error { // s.mu is held
		s.place(h, hop, -1)
		s.mu.Unlock()
		return err
	}
	if h.rec.Dropped {
		return refuse(&WaitError{Authority: authority, Reason: h.rec.DropReason, Err: ErrHostDropped})
	}
	p := h.pace()
	p.base = h.rec.LastStart // the caller's own lease reservation is this request
	if open, next := openAt(p.rules.VisitTimes, now); !open {
		return refuse(&WaitError{Authority: authority, Until: next, Reason: visitString(h), Err: ErrParked})
	}
	sc := earliest(&s.cfg, &p, now)
	if sc.parked {
		return refuse(&WaitError{Authority: authority, Until: sc.start, Reason: visitString(h), Err: ErrParked})
	}
	if sc.start.Sub(now) > s.cfg.MaxWait {
		return refuse(&WaitError{Authority: authority, Until: sc.start, Reason: sc.src, Err: ErrWaitTooLong})
	}
	start := s.tokenLocked(h, sc, now)
	h.noteStart(&p, sc, start, now, s.cfg.Margin)
	h.rec.LastStart = start
	h.unanswered++
	h.rec.Unanswered = true
	h.rec.Interval = sc.iv
	h.rec.RulesPace = p.robotsPaced(start)
	h.rec.NextAllowed = start.Add(sc.iv)
	if h.reserved.Before(start) {
		h.reserved = start
	}
	g := s.touch(h)
	s.fixAt(h, now)
	var err error
	if sc.iv > 0 || h.rec.BackoffUntil.After(now) {
		// The start must be durable before the request goes out, or a
		// restart could repeat it too soon. Without any pace there is
		// nothing to keep, and the record is written behind.
		err = s.awaitFlush(g)
	}
	if err != nil {
		h.ended() // the request does not go out
		return refuse(err)
	}
	s.mu.Unlock()
	if d := start.Sub(now); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			s.unsent(authority)
			s.release(authority, hop)
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}

// WaitHop is Wait for a request that no lease of the host stands for: a
// robots.txt redirect hop from another host. It waits while
// Config.PerHost requests are in flight to the host (N hosts whose
// robots.txt redirects to one sent it N requests at once), and the host's
// own requests wait while hops fill its places. After a nil WaitHop, call
// ReleaseHop once the request is done.
func (s *Scheduler) WaitHop(ctx context.Context, authority string) error {
	return s.wait(ctx, authority, true)
}

// Release ends a request that a nil Wait let start.
func (s *Scheduler) Release(authority string) { s.release(authority, false) }

// ReleaseHop ends a request that a nil WaitHop let start.
func (s *Scheduler) ReleaseHop(authority string) { s.release(authority, true) }

func (s *Scheduler) release(authority string, hop bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.hosts[authority]; h != nil && h.sending > 0 {
		s.place(h, hop, -1)
	}
}

// place takes (d = +1) or gives back (d = -1) a place among h's requests
// in flight, a hop's if hop; giving one back wakes the requests waiting
// for it. s.mu is held.
func (s *Scheduler) place(h *host, hop bool, d int) {
	h.sending += d
	if hop {
		h.hops += d
		s.hops += d
	}
	if d < 0 {
		s.notify()
	}
}

// tokenLocked takes the token for a start at or after sc.start from h's
// rate.Limiter (burst 1). The limiter is re-armed from the recorded last
// start whenever the interval changes, so fractional tokens never carry
// over a window switch; the exact start is then clamped to
// lastStart+interval against float rounding.
func (s *Scheduler) tokenLocked(h *host, sc schedule, now time.Time) time.Time {
	last := h.rec.LastStart
	if h.lim == nil || h.limIv != sc.iv || !h.limFrom.Equal(last) {
		h.lim = rate.NewLimiter(rate.Every(sc.iv), 1)
		if !last.IsZero() {
			h.lim.AllowN(last, 1)
		}
		h.limIv = sc.iv
	}
	at := sc.start
	if at.Before(now) {
		at = now
	}
	r := h.lim.ReserveN(at, 1)
	start := at
	if r.OK() {
		start = at.Add(r.DelayFrom(at))
	}
	if !last.IsZero() && start.Before(last.Add(sc.iv)) {
		start = last.Add(sc.iv)
	}
	h.limFrom = start
	return start
}

func visitString(h *host) string {
	var b strings.Builder
	b.WriteString("visit-time")
	for _, w := range h.rules.VisitTimes {
		b.WriteString(" " + w.String())
	}
	return b.String()
}

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
		h.rec.Streak++
		b := backoff(s.cfg.BackoffBase, s.cfg.BackoffMax, h.rec.Streak)
		h.rec.Backoff = max(h.rec.Backoff, b)
		if until := now.Add(b); until.After(h.rec.BackoffUntil) {
			h.rec.BackoffUntil = until
			h.rec.BackoffSource = "back-off " + robots.ShortDuration(b)
		}
		if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
			if d, ok := parseRetryAfter(retryAfter, now); ok {
				// Honoured in full: never back earlier than the server
				// asked. Beyond MaxWait the host is deferred to a later
				// run (BackoffUntil is persisted).
				// On a tie with the back-off the server's own word
				// names the wait.
				if until := now.Add(d); !until.Before(h.rec.BackoffUntil) {
					h.rec.BackoffUntil = until
					h.rec.BackoffSource = fmt.Sprintf("retry-after %s (Retry-After: %s)", robots.ShortDuration(d), strings.TrimSpace(retryAfter))
				}
				if m := s.cfg.RetryAfterMax; m > 0 && d > m {
					h.warning = fmt.Sprintf("Retry-After %s exceeds retry_after_max %s: honoured in full, no request before %s",
						robots.ShortDuration(d), robots.ShortDuration(m), now.Add(d).UTC().Format(time.RFC3339))
				}
			}
		}
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

// backoff returns base x 2^(streak-1), at most limit.
func backoff(base, limit time.Duration, streak int) time.Duration {
	if streak <= 0 || base <= 0 {
		return 0
	}
	d := base
	for i := 1; i < streak; i++ {
		if d >= limit/2 {
			return limit
		}
		d *= 2
	}
	return min(d, limit)
}

// maxRetryAfter is the longest wait the scheduler handles (about 146
// years): a longer Retry-After is read as this, which defers the host to a
// later run and still fits a persisted deadline.
const maxRetryAfter = time.Duration(1<<62) / time.Second * time.Second

// parseRetryAfter reads a Retry-After value (RFC 9110 10.2.3): a number of
// seconds or an HTTP-date, relative to now. A date in the past is 0. A
// delay-seconds value too large for the scheduler (even too large to parse)
// is maxRetryAfter, never ignored: the server asked for at least that long.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		if n > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		return time.Duration(n) * time.Second, true
	}
	if allDigits(v) {
		// Digits that ParseInt rejects are out of range: longer than
		// anything the scheduler can wait.
		return maxRetryAfter, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// allDigits reports whether v is 1*DIGIT (RFC 9110 delay-seconds).
func allDigits(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// unsent takes back the start Wait granted a request that the context
// ended before it went out: it will have no end to see.
func (s *Scheduler) unsent(authority string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.hosts[authority]; h != nil {
		h.ended()
		s.touch(h)
	}
}
