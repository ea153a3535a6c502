package scheduler

import (
	"container/heap"
	"context"
	"fmt"
	"time"
)

// Next blocks until some host may be fetched (its pace elapsed, its
// Visit-time open, fewer than PerHost leases out) and returns that host's
// next URL. A host whose robots rules are unknown first yields one lease of
// Kind KindRobots for RobotsURL(authority); its other URLs wait for
// SetRules or RulesFailed. Next never waits for one host while another is
// ready. Once Scope.MaxPages or Scope.MaxPagesPerHost pages were fetched,
// the pages and requisites that come up are skipped with max-pages
// (through OnSkip); while the page leases in flight could reach a limit,
// the next page waits for them. It returns ErrDrained when nothing queued can run within MaxWait
// and no lease is outstanding (deferred hosts keep their URLs in the store;
// each of their queued URLs is reported through OnSkip once, with the rule
// that holds the host back), ErrClosed after Close, or the
// context's error.
func (s *Scheduler) Next(ctx context.Context) (*Lease, error) {
	for {
		s.mu.Lock()
		st := s.stepLocked(time.Now())
		s.mu.Unlock()
		switch {
		case st.again:
			s.emit(st.skips)
			continue
		case st.drained:
			return nil, s.reportDrained(st)
		case st.lease != nil || st.err != nil:
			return st.lease, st.err
		}
		if err := awaitChange(ctx, st); err != nil {
			return nil, err
		}
	}
}

// nextStep is what one look at the frontier tells Next to do: return a
// lease or an error, report skips and look again, report the deferred
// hosts of a drained frontier, or wait for a change (wake), until a host
// comes due if until is set.
type nextStep struct {
	lease    *Lease
	err      error
	again    bool
	skips    []Skip // to pass to OnSkip before looking again
	drained  bool
	deferred []deferral // the hosts a drained frontier defers
	until    time.Time
	wake     chan struct{}
}

// stepLocked looks at the frontier at now: the skips found since the last
// look, then the host first due. Due hosts whose queue head in RAM is
// empty are handed to the flusher for a refill first, if their rules are
// known or a page limit makes their pages skips. The frontier is drained
// when nothing is due and nothing can change by itself: no host is queued,
// or the first one due is more than MaxWait away. s.mu is held.
func (s *Scheduler) stepLocked(now time.Time) nextStep {
	if s.closed {
		return nextStep{err: ErrClosed}
	}
	if s.err != nil {
		return nextStep{err: s.err}
	}
	if len(s.outSkips) > 0 {
		skips := s.outSkips
		s.outSkips = nil
		return nextStep{again: true, skips: skips}
	}
	for len(s.ready) > 0 && !s.ready[0].key.After(now) && (s.ready[0].rulesKnown || s.limitHeadLocked(s.ready[0])) && len(s.ready[0].cache) == 0 {
		s.refillLocked(s.ready[0])
	}
	if len(s.ready) == 0 {
		if s.idleLocked() {
			return nextStep{err: ErrDrained}
		}
		return nextStep{wake: s.wake}
	}
	h := s.ready[0]
	if !h.key.After(now) {
		return s.dueLocked(h, now)
	}
	if h.key.Sub(now) > s.cfg.MaxWait && s.idleLocked() {
		deferred := s.drainLocked(now)
		var err error
		if len(deferred) > 0 {
			// The deferred hosts' URLs are listed from the store: make
			// every queued entry durable first.
			err = s.awaitFlush(s.signal())
		}
		return nextStep{drained: true, deferred: deferred, err: err}
	}
	return nextStep{until: h.key, wake: s.wake}
}

// dueLocked hands out the next lease of h, the first host due at now,
// unless its queue head is to be skipped without a request (disallowed by
// its robots.txt, or over a page limit, its rules known or not: reported
// when Next looks again)
// or it must wait (its lease places are taken, or the page leases in
// flight may reach a page limit): then h is placed anew and Next looks
// again. s.mu is held.
func (s *Scheduler) dueLocked(h *host, now time.Time) nextStep {
	switch {
	case s.refuseSkipLocked(h, now):
		// Its head URLs are disallowed by its robots.txt.
	case h.inflight >= s.cfg.PerHost:
		// Placed for a refused head whose rules expired since: it has
		// no lease to give.
		s.fixAt(h, now)
	case s.limitSkipLocked(h, now):
		// Its head pages are over a page limit: with no page to fetch,
		// its robots.txt is not asked for.
	case h.rulesKnown && s.heldForPageLeases(h):
		// A page lease issued since h was placed may reach a page
		// limit: h waits for the leases in flight.
		s.fixAt(h, now)
	default:
		return nextStep{lease: s.issueLocked(h, now)}
	}
	return nextStep{again: true}
}

// reportDrained reports each host a drained frontier defers, with the
// rule that holds it back, and returns ErrDrained, or the error that
// kept the hosts from being reported.
func (s *Scheduler) reportDrained(st nextStep) error {
	err := st.err
	if err == nil {
		err = s.emitDeferred(st.deferred)
	}
	if err != nil {
		return err
	}
	return ErrDrained
}

// awaitChange waits for a change of the frontier (st.wake), until
// st.until if it is set, or for the end of ctx.
func awaitChange(ctx context.Context, st nextStep) error {
	var tc <-chan time.Time
	if !st.until.IsZero() {
		t := time.NewTimer(time.Until(st.until))
		defer t.Stop()
		tc = t.C
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-st.wake:
	case <-tc:
	}
	return nil
}

// idleLocked reports whether nothing can change the frontier by itself: no
// lease out, no refill or drop in progress.
func (s *Scheduler) idleLocked() bool {
	return s.leases == 0 && s.hops == 0 && len(s.refills) == 0 && len(s.drops) == 0 && !s.busy
}

// popHead removes and returns the entry at the head of h's queue in RAM,
// which must not be empty.
func (s *Scheduler) popHead(h *host) Entry {
	e := h.cache[0]
	h.cache[0] = Entry{}
	h.cache = h.cache[1:]
	if len(h.cache) == 0 {
		h.cache = nil
	}
	s.cacheTotal--
	return e
}

// skipHead takes the entry at the head of h's queue out of the frontier
// without a lease, skipped with sk (passed to OnSkip by Next).
func (s *Scheduler) skipHead(h *host, sk Skip) {
	s.push(Op{Code: OpDequeue, Entry: s.popHead(h)})
	s.outSkips = append(s.outSkips, sk)
	s.stats.Skipped++
}

// issueLocked hands out h's next lease.
func (s *Scheduler) issueLocked(h *host, now time.Time) *Lease {
	var l *Lease
	if !h.rulesKnown {
		h.robotsOut = true
		l = &Lease{URL: RobotsURL(h.auth), Authority: h.auth, Kind: KindRobots, Issued: now}
	} else {
		e := s.popHead(h)
		if counted(e.Kind) {
			h.pageLeases++
			s.pageLeases++
		}
		l = &Lease{URL: e.URL, Parent: e.Parent, Authority: h.auth, Depth: e.Depth, Kind: e.Kind, Seed: e.Seed, Attempt: e.Attempts, Redirects: e.Redirects, Issued: now, seq: e.Seq}
	}
	h.inflight++
	h.notified = false
	s.leases++
	h.reserved = now
	s.fixAt(h, now)
	return l
}

// emit passes skips to OnSkip. s.mu must not be held.
func (s *Scheduler) emit(skips []Skip) {
	if s.cfg.OnSkip == nil {
		return
	}
	for _, sk := range skips {
		s.cfg.OnSkip(sk)
	}
}

// isFailure reports whether a response counts against the host: a network
// error or timeout, 429 or any 5xx.
func isFailure(status int, err error) bool {
	return err != nil || status == 429 || status >= 500
}

// Finish ends a lease. A Result with Skip set means the URL was not
// fetched; Requeue puts it back; a network error, 429 or 5xx retries it
// (paced by the back-off Observe set) until MaxFailures attempts, then it
// is skipped with fetch-failed; MaxFailures consecutive failures drop the
// host and skip its queued URLs with host-failing (through OnSkip). Finish
// on a robots lease only releases it: report the outcome with SetRules or
// RulesFailed first. A lease may be finished without any request (a robots
// lease answered from the crawler's cache, a URL disallowed by robots.txt):
// only Wait takes a request start.
func (s *Scheduler) Finish(l *Lease, r Result) error {
	now := time.Now()
	s.mu.Lock()
	h, err := s.endLeaseLocked(l)
	if err != nil {
		s.mu.Unlock()
		return err
	}
	var skips []Skip
	if l.Kind == KindRobots && l.seq == 0 {
		h.robotsOut = false
	} else {
		skips = s.settleLocked(h, l, r, now)
		s.pageLeaseEnded(h, l, r, now)
		s.touch(h)
	}
	s.stats.Skipped += len(skips)
	s.fixAt(h, now)
	s.notify()
	s.mu.Unlock()
	s.emit(skips)
	return nil
}

// endLeaseLocked counts l as no longer out and returns its host, or an
// error for a lease that is not out. When the host's last lease ends, the
// reservation of a lease that never reached Wait (a robots lease answered
// from cache, a skip) is dropped: no start was taken. s.mu is held.
func (s *Scheduler) endLeaseLocked(l *Lease) (*host, error) {
	if s.closed {
		return nil, ErrClosed
	}
	h := s.hosts[l.Authority]
	if h == nil || h.inflight == 0 {
		return nil, fmt.Errorf("scheduler: finish %s: no such lease", l.URL)
	}
	h.inflight--
	s.leases--
	if h.inflight == 0 {
		h.reserved = h.rec.LastStart
	}
	return h, nil
}

// settleLocked decides the fate of the URL of l, a lease of h, by its
// result r: it leaves the queue, and is skipped, queued again, retried or
// counted as fetched. It returns the skips to report: of the URL, and of
// h's queued URLs if the failure drops h. s.mu is held.
func (s *Scheduler) settleLocked(h *host, l *Lease, r Result, now time.Time) []Skip {
	e := Entry{Authority: h.auth, Seq: l.seq, URL: l.URL, Parent: l.Parent, Depth: l.Depth, Kind: l.Kind, Seed: l.Seed, Attempts: l.Attempt, Redirects: l.Redirects}
	s.push(Op{Code: OpDequeue, Entry: e})
	if r.Retry && (h.rec.Dropped || e.Attempts+1 >= s.cfg.MaxFailures) {
		r.Retry = false // no attempt left: the answer is taken as it is
	}
	switch {
	case r.Skip != nil:
		s.stats.Skipped++
	case r.Requeue:
		if h.rec.Dropped {
			return []Skip{s.dropSkip(h, e, now)}
		}
		s.requeueLocked(h, e, now)
	case r.Retry:
		h.rec.Failures = 0 // an answer came
		e.Attempts++
		s.stats.Retries++
		s.requeueLocked(h, e, now)
	case isFailure(r.Status, r.Err):
		return s.failedLocked(h, e, r, now)
	default:
		h.rec.Failures = 0
		h.rec.Fetched++
		s.stats.Fetched++
	}
	return nil
}

// failedLocked charges a failed fetch of e (a network error, 429 or 5xx)
// to its host h: after MaxFailures consecutive failures h is dropped
// (host-failing, its queued URLs too), after MaxFailures attempts e is
// skipped (fetch-failed), else it is queued again. It returns the skips to
// report. s.mu is held.
func (s *Scheduler) failedLocked(h *host, e Entry, r Result, now time.Time) []Skip {
	s.stats.Errors++
	h.rec.Failures++
	e.Attempts++
	detail := failureDetail(r)
	switch {
	case h.rec.Dropped:
		return []Skip{s.dropSkip(h, e, now)}
	case h.rec.Failures >= s.cfg.MaxFailures:
		sk := Skip{URL: e.URL, Parent: e.Parent, Authority: h.auth, Reason: ReasonHostFailing,
			Detail: fmt.Sprintf("%d consecutive failures, last: %s", h.rec.Failures, detail), Time: now}
		return append([]Skip{sk}, s.dropLocked(h, sk, now)...)
	case e.Attempts >= s.cfg.MaxFailures:
		return []Skip{{URL: e.URL, Parent: e.Parent, Authority: h.auth, Reason: ReasonFetchFailed,
			Detail: fmt.Sprintf("%d attempts, last: %s", e.Attempts, detail), Time: now}}
	}
	s.stats.Retries++
	s.requeueLocked(h, e, now)
	return nil
}

// requeueLocked queues e again at the tail of h's queue, under a new
// sequence number. s.mu is held.
func (s *Scheduler) requeueLocked(h *host, e Entry, now time.Time) {
	e.Seq = h.nextSeq
	h.nextSeq++
	s.push(Op{Code: OpEnqueue, Entry: e})
	s.enqueueLocked(h, e, now)
}

func failureDetail(r Result) string {
	if r.Err != nil {
		return r.Err.Error()
	}
	return fmt.Sprintf("status %d", r.Status)
}

// dropSkip is the skip of one entry of an already dropped host.
func (s *Scheduler) dropSkip(h *host, e Entry, now time.Time) Skip {
	return Skip{URL: e.URL, Parent: e.Parent, Authority: h.auth, Reason: ReasonHostFailing, Detail: "host dropped: " + h.rec.DropReason, Time: now}
}

// dropLocked gives h up: its cached entries are returned as skips modelled
// on tmpl, its spilled entries are skipped and deleted by the flusher.
func (s *Scheduler) dropLocked(h *host, tmpl Skip, now time.Time) []Skip {
	h.rec.Dropped = true
	h.rec.DropReason = string(tmpl.Reason) + ": " + tmpl.Detail
	tmpl.Detail = "host dropped: " + h.rec.DropReason
	tmpl.Time = now
	var out []Skip
	for _, e := range h.cache {
		sk := tmpl
		sk.URL, sk.Parent = e.URL, e.Parent
		out = append(out, sk)
	}
	s.cacheTotal -= len(h.cache)
	h.cache = nil
	if h.spill > 0 {
		// The flusher reads the spilled entries, skips them, then deletes
		// the whole queue.
		s.drops = append(s.drops, dropJob{h: h, after: h.spillFrom, skip: tmpl})
		h.spill = 0
	} else {
		s.push(Op{Code: OpDropQueue, Entry: Entry{Authority: h.auth}})
	}
	s.touch(h)
	if h.idx >= 0 {
		heap.Remove(&s.ready, h.idx)
	}
	return out
}
