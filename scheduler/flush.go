package scheduler

import (
	"container/heap"
	"fmt"
	"time"
)

// The flusher's batching: a commit waits up to coalesceDelay for more
// changes unless someone waits for it or coalesceOps changes are pending.
// Much of a commit's cost is per commit, not per change (each B+tree page
// it touches is rewritten whole, each changed host record encoded once),
// so the delay lets a fast crawl gather hundreds of changes per commit;
// with no pace to keep, nothing waits for it.
const (
	coalesceDelay = 20 * time.Millisecond
	coalesceOps   = 4096
)

// dropJob asks the flusher to skip and delete a dropped host's spilled
// entries.
type dropJob struct {
	h     *host
	after uint64
	skip  Skip
}

// refillJob asks the flusher for the entries of h's store queue after
// sequence number after.
type refillJob struct {
	h     *host
	after uint64
}

// flushBatch is what one group commit takes from the scheduler: the
// operations to apply (the pending ones, then the changed host records),
// the generation they make durable, the queue heads to refill (size
// entries each) and the dropped hosts to drain.
type flushBatch struct {
	ops     []Op
	gen     uint64
	refills []refillJob
	size    int
	drops   []dropJob
	failed  error // the store's first error, if a commit failed before
}

// flushResult is what a commit brought back: the entries read for each
// refill (in the batch's order), the skips of drained hosts' URLs and the
// first store error.
type flushResult struct {
	got   [][]Entry
	skips []Skip
	err   error
}

// flushLoop is the single writer: it group-commits pending ops, refills
// host queue heads from the store and drains dropped hosts.
func (s *Scheduler) flushLoop() {
	defer close(s.flushDone)
	var spare []Op // the previous batch's array, reused
	s.mu.Lock()
	for s.awaitWork() {
		s.coalesce()
		b := s.takeBatch(spare)
		s.mu.Unlock()
		res := s.commit(b)
		clear(b.ops)
		spare = b.ops[:0]
		s.mu.Lock()
		s.settle(b, res)
	}
	s.mu.Unlock()
}

// awaitWork waits until there is something to write, a queue head to
// refill or a dropped host to drain, and reports whether the flusher is
// to go on: false once the scheduler is closed and every change written.
// s.mu is held.
func (s *Scheduler) awaitWork() bool {
	for s.flushed >= s.gen && len(s.refills) == 0 && len(s.drops) == 0 && !s.closed {
		s.cond.Wait()
	}
	return !s.closed || len(s.pending) > 0 || len(s.dirty) > 0
}

// coalesce lets a few more changes join the batch when nobody waits for it
// to be durable and no worker waits for a queue refill, so a fast crawl
// commits about fifty times a second, not per page. A kill -9 loses at
// most this batch, which holds the lease finishes together with the links
// they queued: a resumed crawl refetches those pages and finds the links
// again. A goroutine that starts waiting for the batch (Wait making a
// request start durable) ends the wait at once, so a request never goes
// out coalesceDelay after its allowed start. s.mu is held; it is let go
// during the wait.
func (s *Scheduler) coalesce() {
	if s.waiters > 0 || len(s.refills) > 0 || len(s.drops) > 0 || s.closed || len(s.pending) >= coalesceOps {
		return
	}
	select {
	case <-s.hurry: // stale: its waiter was served by an earlier batch
	default:
	}
	s.mu.Unlock()
	t := time.NewTimer(coalesceDelay)
	select {
	case <-t.C:
	case <-s.hurry:
	}
	t.Stop()
	s.mu.Lock()
}

// takeBatch takes every pending change, refill and drain for one commit,
// appending the operations to spare, and marks the flusher busy. The seen
// set's pending URLs move to flushSeen, where Add still finds them while
// they are written. s.mu is held.
func (s *Scheduler) takeBatch(spare []Op) flushBatch {
	b := flushBatch{ops: s.pending, gen: s.gen, size: perHostCache, drops: s.drops}
	s.pending = spare
	for h := range s.dirty {
		b.ops = append(b.ops, Op{Code: OpHost, Host: h.rec})
	}
	clear(s.dirty)
	s.flushSeen, s.pendingSeen = s.pendingSeen, map[string]struct{}{}
	b.refills = make([]refillJob, 0, len(s.refills))
	for _, h := range s.refills {
		b.refills = append(b.refills, refillJob{h, h.spillFrom})
	}
	s.refills = nil
	if s.cacheTotal >= cacheBudget {
		b.size = 4
	}
	s.drops = nil
	s.busy = true
	b.failed = s.err
	return b
}

// commit writes b to the store, reads its refills and drains its dropped
// hosts, stopping at the first error. After a failed commit nothing is
// written: a later change applied without an earlier one (a page's lease
// finished without the links it queued) would lose URLs. It runs without
// s.mu.
func (s *Scheduler) commit(b flushBatch) flushResult {
	var res flushResult
	if b.failed != nil {
		res.err = b.failed
		return res
	}
	if len(b.ops) > 0 {
		res.err = s.store.Apply(b.ops)
	}
	res.got = make([][]Entry, len(b.refills))
	for i, r := range b.refills {
		if res.err == nil {
			res.got[i], res.err = s.store.Queue(r.h.auth, r.after, b.size)
		}
	}
	for _, d := range b.drops {
		if res.err != nil {
			break
		}
		res.skips, res.err = s.drain(d, res.skips)
	}
	return res
}

// drain appends to skips one skip per URL of d's host still in the store
// and deletes its store queue. It runs without s.mu.
func (s *Scheduler) drain(d dropJob, skips []Skip) ([]Skip, error) {
	es, err := s.store.Queue(d.h.auth, d.after, int(^uint(0)>>1))
	for _, e := range es {
		sk := d.skip
		sk.URL, sk.Parent = e.URL, e.Parent
		skips = append(skips, sk)
	}
	if err != nil {
		return skips, err
	}
	return skips, s.store.Apply([]Op{{Code: OpDropQueue, Entry: Entry{Authority: d.h.auth}}})
}

// settle records what b's commit did: the generation it made durable (or
// the sticky store error), the refilled queue heads, and the drained
// URLs' skips, then wakes everyone waiting for a flush or a change. s.mu
// is held.
func (s *Scheduler) settle(b flushBatch, res flushResult) {
	s.busy = false
	s.flushSeen = nil
	if res.err != nil && s.err == nil {
		s.err = fmt.Errorf("%w: %w", ErrStore, res.err)
	}
	s.flushed = b.gen
	now := time.Now()
	for i, r := range b.refills {
		r.h.refilling = false
		if r.h.rec.Dropped || res.err != nil {
			continue
		}
		s.fillHead(r.h, res.got[i], now)
	}
	s.stats.Skipped += len(res.skips)
	// Delivered by the next Next or Finish, so that OnSkip never runs on
	// the flusher (it may call Add, which may wait for the flusher).
	s.outSkips = append(s.outSkips, res.skips...)
	s.cond.Broadcast()
	s.notify()
}

// fillHead appends to h's queue head the entries es read from its store
// queue that are not in the head yet, and places h in the ready heap at
// now. s.mu is held.
func (s *Scheduler) fillHead(h *host, es []Entry, now time.Time) {
	if len(es) == 0 && s.flushed >= s.gen {
		h.spill = 0 // the store holds no more; keep the count honest
	}
	for _, e := range es {
		if e.Seq <= h.spillFrom {
			continue
		}
		h.cache = append(h.cache, e)
		h.spillFrom = e.Seq
		h.spill--
		s.cacheTotal++
	}
	h.spill = max(h.spill, 0)
	s.fixAt(h, now)
}

// awaitFlush blocks until generation g is durable. s.mu must be held.
func (s *Scheduler) awaitFlush(g uint64) error {
	s.waiters++
	if s.flushed < g {
		s.hasten() // a batch may be coalescing: it is wanted now
	}
	for s.flushed < g && s.err == nil && !s.closed {
		s.cond.Wait()
	}
	s.waiters--
	return s.err
}

// refillLocked takes h out of the heap until the flusher has read its next
// entries from the store.
func (s *Scheduler) refillLocked(h *host) {
	h.refilling = true
	if h.idx >= 0 {
		heap.Remove(&s.ready, h.idx)
	}
	s.refills = append(s.refills, h)
	s.hasten() // a batch may be coalescing: a worker waits for this refill
	s.signal()
}

// hasten cuts the flusher's coalescing wait short, if it is in one.
func (s *Scheduler) hasten() {
	select {
	case s.hurry <- struct{}{}:
	default:
	}
}

// Flush blocks until every change made so far is in the store.
func (s *Scheduler) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	return s.awaitFlush(s.signal())
}
