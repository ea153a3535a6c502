package scheduler

import (
	"container/heap"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// Errors returned by the scheduler; test with errors.Is.
var (
	// ErrDrained is returned by Next when nothing queued can run within
	// MaxWait and no lease is outstanding.
	ErrDrained = errors.New("scheduler: drained")
	// ErrClosed is returned after Close.
	ErrClosed = errors.New("scheduler: closed")
	// ErrParked is wrapped by Wait's *WaitError when the host is outside its
	// Visit-time windows.
	ErrParked = errors.New("scheduler: host parked outside its visit-time")
	// ErrWaitTooLong is wrapped by Wait's *WaitError when the host's pace
	// would make the request wait longer than MaxWait.
	ErrWaitTooLong = errors.New("scheduler: wait exceeds max wait")
	// ErrHostDropped is wrapped by Wait's *WaitError for a dropped host.
	ErrHostDropped = errors.New("scheduler: host dropped")
	// ErrStoreLocked is wrapped by OpenBolt's error when another process
	// holds the frontier file (another crawl of the same output dir).
	ErrStoreLocked = errors.New("scheduler: frontier in use by another process")
)

// perHostCache and cacheBudget bound the in-RAM heads of the host queues:
// at most perHostCache entries per host, and new entries stop going to RAM
// once cacheBudget entries are cached in all. The rest stays in the store
// and is read back by the flusher when a host's head runs dry.
// maxPending bounds the operations waiting for the flusher; Add waits when
// it is reached.
const (
	perHostCache = 32
	cacheBudget  = 1 << 16
	maxPending   = 8192
)

// A Scheduler decides which URL is fetched when. It is safe for concurrent
// use by any number of workers and transports. Create it with Open; the
// zero value is not usable.
type Scheduler struct {
	cfg   Config
	store Store
	scope *scope

	mu        sync.Mutex
	cond      *sync.Cond // signals the flusher and flush waiters; uses mu
	wake      chan struct{}
	hosts     map[string]*host
	ready     hostHeap
	seedHosts map[string]bool

	pending     []Op
	pendingSeen map[string]struct{}
	flushSeen   map[string]struct{}
	dirty       map[*host]struct{}
	refills     []*host
	drops       []dropJob
	gen         uint64 // generation of the latest pending change
	flushed     uint64 // generation known durable
	busy        bool   // flusher is applying a batch or reading the store
	err         error  // sticky store error
	closed      bool
	flushDone   chan struct{}
	cacheTotal  int
	leases      int
	hops        int                // hop requests in flight, over all hosts: the crawl is not idle while any is
	waiters     int                // goroutines in awaitFlush
	hurry       chan struct{}      // cuts the flusher's coalescing wait short when a goroutine starts waiting for a flush (capacity 1)
	pages       int                // pages fetched, as counted by Scope.MaxPages
	pageLeases  int                // page and requisite leases outstanding
	held        map[*host]struct{} // hosts held back until a page lease ends (page limits)
	stats       Stats
	outSkips    []Skip // skips found by the flusher, not yet passed to OnSkip
}

// dropJob asks the flusher to skip and delete a dropped host's spilled
// entries.
type dropJob struct {
	h     *host
	after uint64
	skip  Skip
}

// Open starts a scheduler on store, resuming whatever it holds: queued URLs
// stay queued, URLs leased by a previous run are queued again (they stay in
// the store until Finish), and each host keeps its pacing state. The caller keeps ownership of store and
// closes it after Close.
func Open(cfg Config, store Store) (*Scheduler, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	sc, err := newScope(cfg.Scope)
	if err != nil {
		return nil, fmt.Errorf("scheduler: %w", err)
	}
	s := &Scheduler{
		cfg: cfg, store: store, scope: sc,
		wake:        make(chan struct{}),
		hosts:       map[string]*host{},
		seedHosts:   map[string]bool{},
		pendingSeen: map[string]struct{}{},
		held:        map[*host]struct{}{},
		dirty:       map[*host]struct{}{},
		flushDone:   make(chan struct{}),
		hurry:       make(chan struct{}, 1),
	}
	s.cond = sync.NewCond(&s.mu)
	if err := s.resume(); err != nil {
		return nil, err
	}
	go s.flushLoop()
	return s, nil
}

// resume loads the store's state.
func (s *Scheduler) resume() error {
	recs, err := s.store.Hosts()
	if err != nil {
		return err
	}
	for _, r := range recs {
		h := s.newHost(r.Authority)
		h.rec = r
		h.floor = r.NextAllowed
		s.countUnanswered(h)
		if r.RulesPace {
			h.restored = r.Interval
		}
		// Until robots.txt is read again, its last Visit-time still
		// holds: no request outside the windows the host asked for.
		h.rules.VisitTimes = r.VisitTimes
		if r.Seed {
			if u, err := url.Parse(r.Authority); err == nil {
				s.seedHosts[seedKey(u)] = true
			}
		}
		s.pages += r.Pages
		s.stats.Fetched += r.Fetched
	}
	qs, err := s.store.Queues()
	if err != nil {
		return err
	}
	for a, qi := range qs {
		h := s.host(a)
		h.spill = qi.Len
		h.nextSeq = qi.LastSeq + 1
	}
	now := time.Now()
	for _, h := range s.hosts {
		s.fixAt(h, now)
	}
	return nil
}

func (s *Scheduler) newHost(a string) *host {
	h := &host{auth: a, idx: -1, nextSeq: 1}
	h.rec.Authority = a
	s.hosts[a] = h
	return h
}

// host returns authority's state, creating it.
func (s *Scheduler) host(a string) *host {
	if h := s.hosts[a]; h != nil {
		return h
	}
	return s.newHost(a)
}

// touch marks h's record for the next flush and returns the generation that
// will make it durable.
func (s *Scheduler) touch(h *host) uint64 {
	s.dirty[h] = struct{}{}
	return s.signal()
}

// push queues ops for the next flush.
func (s *Scheduler) push(ops ...Op) uint64 {
	s.pending = append(s.pending, ops...)
	return s.signal()
}

func (s *Scheduler) signal() uint64 {
	s.gen++
	s.cond.Broadcast()
	return s.gen
}

// notify wakes every Next waiting for a change.
func (s *Scheduler) notify() {
	close(s.wake)
	s.wake = make(chan struct{})
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

// The flusher's batching: a commit waits up to coalesceDelay for more
// changes unless someone waits for it or coalesceOps changes are pending.
const (
	coalesceDelay = 2 * time.Millisecond
	coalesceOps   = 4096
)

// flushLoop is the single writer: it group-commits pending ops, refills
// host queue heads from the store and drains dropped hosts.
func (s *Scheduler) flushLoop() {
	defer close(s.flushDone)
	var spare []Op // the previous batch's array, reused
	s.mu.Lock()
	for {
		for s.flushed >= s.gen && len(s.refills) == 0 && len(s.drops) == 0 && !s.closed {
			s.cond.Wait()
		}
		if s.closed && len(s.pending) == 0 && len(s.dirty) == 0 {
			s.mu.Unlock()
			return
		}
		if s.waiters == 0 && len(s.refills) == 0 && len(s.drops) == 0 && !s.closed && len(s.pending) < coalesceOps {
			// Nobody waits for this batch to be durable and no worker waits
			// for a queue refill: let a few more changes join it, so a fast
			// crawl commits a few hundred times a second, not per page. A
			// kill -9 loses at most this batch, which holds the lease
			// finishes together with the links they queued: a resumed
			// crawl refetches those pages and finds the links again. A
			// goroutine that starts waiting for the batch (Wait making a
			// request start durable) ends the wait at once, so a request
			// never goes out coalesceDelay after its allowed start.
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
		ops := s.pending
		s.pending = spare
		for h := range s.dirty {
			ops = append(ops, Op{Code: OpHost, Host: h.rec})
		}
		clear(s.dirty)
		g := s.gen
		s.flushSeen, s.pendingSeen = s.pendingSeen, map[string]struct{}{}
		refills := s.refills
		s.refills = nil
		type refill struct {
			h     *host
			after uint64
		}
		rs := make([]refill, 0, len(refills))
		for _, h := range refills {
			rs = append(rs, refill{h, h.spillFrom})
		}
		batch := perHostCache
		if s.cacheTotal >= cacheBudget {
			batch = 4
		}
		drops := s.drops
		s.drops = nil
		s.busy = true
		s.mu.Unlock()

		var err error
		if len(ops) > 0 {
			err = s.store.Apply(ops)
		}
		got := make([][]Entry, len(rs))
		for i, r := range rs {
			if err == nil {
				got[i], err = s.store.Queue(r.h.auth, r.after, batch)
			}
		}
		var skips []Skip
		for _, d := range drops {
			if err != nil {
				break
			}
			var es []Entry
			es, err = s.store.Queue(d.h.auth, d.after, int(^uint(0)>>1))
			for _, e := range es {
				sk := d.skip
				sk.URL, sk.Parent = e.URL, e.Parent
				skips = append(skips, sk)
			}
			if err == nil {
				err = s.store.Apply([]Op{{Code: OpDropQueue, Entry: Entry{Authority: d.h.auth}}})
			}
		}

		clear(ops)
		spare = ops[:0]
		s.mu.Lock()
		s.busy = false
		s.flushSeen = nil
		if err != nil && s.err == nil {
			s.err = err
		}
		s.flushed = g
		now := time.Now()
		for i, r := range rs {
			h := r.h
			h.refilling = false
			if h.rec.Dropped || err != nil {
				continue
			}
			es := got[i]
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
		s.stats.Skipped += len(skips)
		// Delivered by the next Next or Finish, so that OnSkip never runs
		// on the flusher (it may call Add, which may wait for the flusher).
		s.outSkips = append(s.outSkips, skips...)
		s.cond.Broadcast()
		s.notify()
	}
}

// fixAt recomputes h's place in the ready heap at now. A host with a
// queue head its rules refuse is placed whatever is in flight: the head
// is skipped at once, without a lease.
func (s *Scheduler) fixAt(h *host, now time.Time) {
	refused := !h.rec.Dropped && s.refusedHeadLocked(h, now)
	if !refused && !s.eligible(h) {
		if h.idx >= 0 {
			heap.Remove(&s.ready, h.idx)
		}
		return
	}
	if refused || s.limitHeadLocked(h) {
		// Its head pages are skipped with max-pages, or its head URLs
		// with robots-disallowed, without a request: no pace to wait for.
		h.key = now
	} else {
		p := h.pace()
		h.key = earliest(&s.cfg, &p, now).start
	}
	if h.idx >= 0 {
		heap.Fix(&s.ready, h.idx)
	} else {
		heap.Push(&s.ready, h)
	}
}

// eligible reports whether h has a lease to give. A host whose queue head
// is empty but whose store queue is not counts as eligible: Next asks the
// flusher to refill its head when it comes due.
func (s *Scheduler) eligible(h *host) bool {
	if h.rec.Dropped || h.inflight >= s.cfg.PerHost {
		return false
	}
	if !h.rulesKnown {
		return !h.robotsOut && h.queued() > 0
	}
	if s.heldForPageLeases(h) {
		s.held[h] = struct{}{}
		return false
	}
	return len(h.cache) > 0 || (h.spill > 0 && !h.refilling)
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

// Close writes every pending change to the store and stops the scheduler.
// Blocked Next calls return ErrClosed. Outstanding leases stay recorded in
// the store and are queued again by the next Open. Close does not close the
// store.
func (s *Scheduler) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.cond.Broadcast()
	s.notify()
	s.mu.Unlock()
	<-s.flushDone
	s.mu.Lock()
	skips, err := s.outSkips, s.err
	s.outSkips = nil
	s.mu.Unlock()
	s.emit(skips)
	return err
}

// countUnanswered makes the request h's previous process saw no end of
// (HostRecord.Unanswered) count as lasting Config.RequestTimeout: no
// request before its start plus the timeout plus its interval. It is held
// as a back-off deadline, which outlasts the fresh rules SetRules brings
// and names its reason; the server may have worked on the abandoned
// request until then, and the gap it sees must still be the pace.
func (s *Scheduler) countUnanswered(h *host) {
	r := &h.rec
	if !r.Unanswered || s.cfg.RequestTimeout <= 0 || r.LastStart.IsZero() {
		return
	}
	until := r.LastStart.Add(s.cfg.RequestTimeout + r.Interval)
	if !until.After(r.BackoffUntil) {
		return
	}
	r.BackoffUntil = until
	ms := func(d time.Duration) string { return robots.ShortDuration(d.Round(time.Millisecond)) }
	r.BackoffSource = fmt.Sprintf("unanswered request %s: in flight when the previous run stopped, counted as fetch.timeout %s, then the pace %s",
		ms(s.cfg.RequestTimeout+r.Interval), ms(s.cfg.RequestTimeout), ms(r.Interval))
}
