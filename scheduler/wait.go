package scheduler

import (
	"context"
	"fmt"
	"strings"
	"time"

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

// Wait is the one place where request starts are taken. The HTTP transport
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

// wait is Wait, or WaitHop if hop: it takes a place among the host's
// requests in flight, reserves the request's start and sleeps until it.
func (s *Scheduler) wait(ctx context.Context, authority string, hop bool) error {
	s.mu.Lock()
	h, err := s.takePlace(ctx, authority, hop)
	if err != nil {
		s.mu.Unlock()
		return err
	}
	start, err := s.reserveStart(h, hop, time.Now())
	s.mu.Unlock()
	if err != nil {
		return err
	}
	return s.sleepUntil(ctx, authority, hop, start)
}

// takePlace waits for a place among the host's requests in flight and
// takes it: a hop waits while PerHost requests are in flight, a lease's
// request while hops fill them (its lease already counts it among the
// host's leases). The place is taken at once, under the lock that checked
// it (awaitFlush lets the lock go, and every request woken by a Release
// would otherwise see the same free place), and held until Release:
// through the request's pace sleep and its sending, never by a lease
// alone, so two hosts whose robots.txt redirect to each other both get
// their hop. s.mu is held on entry and on return; it is let go while
// waiting.
func (s *Scheduler) takePlace(ctx context.Context, authority string, hop bool) (*host, error) {
	for {
		if s.closed {
			return nil, ErrClosed
		}
		h := s.host(authority)
		if h.sending < s.cfg.PerHost || !hop && h.hops == 0 {
			s.place(h, hop, +1)
			return h, nil
		}
		wake := s.wake
		s.mu.Unlock()
		select {
		case <-ctx.Done():
			s.mu.Lock()
			return nil, ctx.Err()
		case <-wake:
		}
		s.mu.Lock()
	}
}

// reserveStart decides the start of h's request asked at now and records
// it: the earliest instant the host's pace allows, counted from the host's
// last start (which Answered moves to the end of the previous answer). A
// host that is dropped, parked or held longer than MaxWait gets a
// *WaitError, and its place back; so does a request whose start the store
// could not keep. s.mu is held (awaitFlush lets it go while the store
// commits).
func (s *Scheduler) reserveStart(h *host, hop bool, now time.Time) (time.Time, error) {
	p, sc, err := s.startFor(h, now)
	if err == nil {
		h.noteStart(&p, sc, now, s.cfg.Margin)
		err = s.recordStart(h, &p, sc, now)
	}
	if err != nil {
		s.place(h, hop, -1)
		return time.Time{}, err
	}
	return sc.start, nil
}

// startFor returns h's pace and the schedule of its next request start
// asked at now, or the *WaitError that refuses it. The caller's own lease
// reservation is this request, so the pace counts from the host's last
// start alone. The schedule's start is the one computation of when the
// request may go: earliest, in whole nanoseconds.
func (s *Scheduler) startFor(h *host, now time.Time) (paceState, schedule, error) {
	if h.rec.Dropped {
		return paceState{}, schedule{}, &WaitError{Authority: h.auth, Reason: h.rec.DropReason, Err: ErrHostDropped}
	}
	p := h.pace(&s.cfg)
	p.base = h.rec.LastStart
	if open, next := openAt(p.rules.VisitTimes, now); !open {
		return p, schedule{}, &WaitError{Authority: h.auth, Until: next, Reason: VisitString(h.rules.VisitTimes), Err: ErrParked}
	}
	sc := earliest(&s.cfg, &p, now)
	if sc.parked {
		return p, sc, &WaitError{Authority: h.auth, Until: sc.start, Reason: VisitString(h.rules.VisitTimes), Err: ErrParked}
	}
	if sc.start.Sub(now) > s.cfg.MaxWait {
		return p, sc, &WaitError{Authority: h.auth, Until: sc.start, Reason: sc.src, Err: ErrWaitTooLong}
	}
	return p, sc, nil
}

// recordStart records the start sc gives h's request as the host's last
// start, counts the request as unanswered and, when the host has a pace
// (an interval or a back-off) to keep, waits until the store has it: a
// restart must not repeat the start too soon. Without any pace there is
// nothing to keep, and the record is written behind. If the store fails,
// the request does not go out. s.mu is held.
func (s *Scheduler) recordStart(h *host, p *paceState, sc schedule, now time.Time) error {
	h.rec.LastStart = sc.start
	h.unanswered++
	h.rec.Unanswered = true
	h.rec.Interval = sc.iv
	h.rec.RulesPace = p.robotsPaced(sc.start)
	h.rec.NextAllowed = sc.start.Add(sc.iv)
	if h.reserved.Before(sc.start) {
		h.reserved = sc.start
	}
	g := s.touch(h)
	s.fixAt(h, now)
	if sc.iv <= 0 && !h.rec.BackoffUntil.After(now) {
		return nil
	}
	if err := s.awaitFlush(g); err != nil {
		h.ended()
		return err
	}
	return nil
}

// sleepUntil sleeps until start, the request's reserved start. If ctx
// ends first, the request never goes out: its start is taken back from
// the unanswered count and its place given back.
func (s *Scheduler) sleepUntil(ctx context.Context, authority string, hop bool, start time.Time) error {
	d := time.Until(start)
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		s.unsent(authority)
		s.release(authority, hop)
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

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

// VisitString names Visit-time windows as a wait's reason words them:
// "visit-time 06:00-08:45 20:00-21:59".
func VisitString(windows []robots.Window) string {
	var b strings.Builder
	b.WriteString("visit-time")
	for _, w := range windows {
		b.WriteString(" " + w.String())
	}
	return b.String()
}
