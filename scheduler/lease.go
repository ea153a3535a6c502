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
	for len(s.ready) > 0 && !s.ready[0].key.After(now) && len(s.ready[0].cache) == 0 && (s.ready[0].rulesKnown || s.limitHeadLocked(s.ready[0])) {
		s.refillLocked(s.ready[0])
	}
	if len(s.ready) == 0 {
		if s.idleLocked() {
			return s.drainStepLocked(now)
		}
		return nextStep{wake: s.wake}
	}
	h := s.ready[0]
	if !h.key.After(now) {
		return s.dueLocked(h, now)
	}
	if h.key.Sub(now) > s.cfg.MaxWait && s.idleLocked() {
		return s.drainStepLocked(now)
	}
	return nextStep{until: h.key, wake: s.wake}
}

// drainStepLocked is the step of a drained frontier at now: the hosts it
// defers and the hosts given up for the run, whose queued URLs are to be
// reported. s.mu is held.
func (s *Scheduler) drainStepLocked(now time.Time) nextStep {
	deferred := append(s.drainLocked(now), s.keptLocked()...)
	var err error
	if len(deferred) > 0 {
		// The hosts' URLs are listed from the store: make every queued
		// entry durable first.
		err = s.awaitFlush(s.signal())
	}
	return nextStep{drained: true, deferred: deferred, err: err}
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
	case s.heldForPageLeases(h):
		// A page lease issued since h was placed may reach a page
		// limit: h waits for the leases in flight, its robots.txt too,
		// which would only serve a page that may not be fetched.
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
// lease out, no refill or drop in progress, no feed open.
func (s *Scheduler) idleLocked() bool {
	return s.leases == 0 && s.hops == 0 && len(s.refills) == 0 && len(s.drops) == 0 && !s.busy && s.feeds == 0
}

// popHead removes and returns the entry at the head of h's queue in RAM,
// which must not be empty.
func (s *Scheduler) popHead(h *host) Entry {
	e := h.cache[0]
	s.progress.changed(h)
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
	if h.turnKey.IsZero() {
		h.turnKey, h.turns = h.key, 0
	}
	h.turns++
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

// Finish ends a lease. A Result with Skip set means the URL was not
// fetched; Requeue puts it back; Retry puts it back as one more attempt.
// Any other result is judged by the failure policy (Classify): a final
// answer counts as fetched; a failed attempt is queued again behind the
// host's other URLs while attempts are left (1+Retries, a cut body at
// most twice), then skipped with fetch-failed, its attempts and last error
// in the detail. A failure at the connection level on MaxFailures
// different URLs in a row, with no answer between (or, for a host that
// never answered, refusals past RefusedGiveUp), gives the host up for the
// run: its URLs stay queued, each reported once through OnSkip with
// host-failing and Queued set when the frontier drains, and the next Open
// tries it again. Finish on a robots lease only releases it: report the
// outcome with SetRules or RulesFailed first. A lease may be finished
// without any request (a robots lease answered from the crawler's cache, a
// URL disallowed by robots.txt): only Wait takes a request start.
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

// A fate is what Finish does with the URL of a lease.
type fate uint8

const (
	fateFetched fate = iota // counted as fetched
	fateSkipped             // not fetched (Result.Skip)
	fateRequeue             // queued again as it was (Result.Requeue)
	fateRetry               // queued again as one more attempt
	fateKept                // its host is given up for the run: stays queued for the next
	fateGiveUp              // this failure gives its host up for the run; stays queued
	fateFailed              // no attempt left: skipped with fetch-failed
	fateDropped             // its host was dropped for good: skipped with the host's reason
)

// queued reports whether the URL stays in the frontier to be fetched
// again, in this run or the next.
func (f fate) queued() bool {
	return f == fateRequeue || f == fateRetry || f == fateKept || f == fateGiveUp
}

// fateLocked decides, without changing anything, what Finish(l, r) does
// with l's URL, a lease of h, and the outcome r is judged as. s.mu is
// held.
func (s *Scheduler) fateLocked(h *host, l *Lease, r Result, now time.Time) (fate, Outcome) {
	o := Classify(r.Status, r.Err)
	lost := h.rec.Dropped && h.kept.Reason == ""
	switch {
	case r.Skip != nil:
		return fateSkipped, o
	case r.Requeue && lost:
		return fateDropped, o
	case r.Requeue && h.rec.Dropped:
		return fateKept, o
	case r.Requeue:
		return fateRequeue, o
	case r.Retry && !h.rec.Dropped && l.Attempt+1 < s.cfg.MaxFailures:
		return fateRetry, o
	case r.Retry || o == OutcomeAnswer:
		// An answer cut by a passing fault with no attempt left is taken
		// as it is.
		return fateFetched, o
	case lost:
		return fateDropped, o
	case h.rec.Dropped:
		return fateKept, o
	case s.giveUpReason(h, l.URL, o, now) != "":
		return fateGiveUp, o
	case l.Attempt+1 >= s.cfg.MaxAttempts(o):
		return fateFailed, o
	}
	return fateRetry, o
}

// Retried reports whether Finish(l, r) would keep l's URL in the frontier
// to be fetched again, in this run or the next: the crawler archives only
// the last of the cut copies of a page. The answer holds if no other
// lease of l's host is finished in between.
func (s *Scheduler) Retried(l *Lease, r Result) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.hosts[l.Authority]
	if h == nil {
		return false
	}
	f, _ := s.fateLocked(h, l, r, time.Now())
	return f.queued()
}

// settleLocked decides the fate of the URL of l, a lease of h, by its
// result r (fateLocked) and carries it out: the URL leaves the queue, and
// is skipped, queued again or counted as fetched. It returns the skips to
// report now. s.mu is held.
func (s *Scheduler) settleLocked(h *host, l *Lease, r Result, now time.Time) []Skip {
	e := Entry{Authority: h.auth, Seq: l.seq, URL: l.URL, Parent: l.Parent, Depth: l.Depth, Kind: l.Kind, Seed: l.Seed, Attempts: l.Attempt, Redirects: l.Redirects}
	s.push(Op{Code: OpDequeue, Entry: e})
	f, o := s.fateLocked(h, l, r, now)
	if r.Skip == nil && !r.Requeue {
		s.chargeLocked(h, e.URL, o)
	}
	switch f {
	case fateSkipped:
		s.stats.Skipped++
	case fateRequeue:
		s.requeueLocked(h, e, now)
	case fateDropped:
		return []Skip{s.dropSkip(h, e, now)}
	case fateKept, fateGiveUp:
		if f == fateGiveUp {
			s.giveUpLocked(h, ReasonHostFailing, s.giveUpReason(h, e.URL, o, now), "", now)
		}
		if !r.Requeue {
			// The failure was the host's: the URL starts afresh next run.
			e.Attempts = 0
		}
		s.requeueLocked(h, e, now)
	case fateRetry:
		e.Attempts++
		s.stats.Retries++
		s.requeueLocked(h, e, now)
	case fateFailed:
		e.Attempts++
		return []Skip{{URL: e.URL, Parent: e.Parent, Authority: h.auth, Reason: ReasonFetchFailed,
			Detail: fmt.Sprintf("%d attempts, last: %s", e.Attempts, FailureDetail(r)), Attempts: e.Attempts, LastError: FailureDetail(r), Time: now}}
	default:
		h.rec.Fetched++
		s.stats.Fetched++
	}
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
