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
	// ErrStore wraps the first error of the Store (a write that failed
	// on a full disk): Next, Wait, Add when it waits for room, Flush and
	// Close return it from then on, and nothing more is written, so the
	// store keeps the history up to the change that failed.
	ErrStore = errors.New("scheduler: frontier store failed")
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

	mu         sync.Mutex
	cond       *sync.Cond // signals the flusher and flush waiters; uses mu
	wake       chan struct{}
	hosts      map[string]*host
	ready      hostHeap
	placements uint64 // hosts placed in ready with a key of their own (host.placed)
	seedHosts  map[string]bool

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
	feeds       int                // feeds open (Feed): the crawl is not idle while any is
	waiters     int                // goroutines in awaitFlush
	hurry       chan struct{}      // cuts the flusher's coalescing wait short when a goroutine starts waiting for a flush (capacity 1)
	pages       int                // pages fetched, as counted by Scope.MaxPages
	pageLeases  int                // page and requisite leases outstanding
	held        map[*host]struct{} // hosts held back until a page lease ends (page limits)
	stats       Stats
	outSkips    []Skip // skips found by the flusher, not yet passed to OnSkip
	progress    progressTally
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
		h.forgetDrop()
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
	s.progress.changed(h)
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
	s.progress.changed(h)
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

// fixAt recomputes h's place in the ready heap at now. A host with a
// queue head its rules refuse is placed whatever is in flight: the head
// is skipped at once, without a lease.
func (s *Scheduler) fixAt(h *host, now time.Time) {
	s.progress.changed(h)
	refused := !h.rec.Dropped && s.refusedHeadLocked(h, now)
	if !refused && !s.eligible(h) {
		if h.idx >= 0 {
			heap.Remove(&s.ready, h.idx)
		}
		if h.inflight == 0 && !h.refilling {
			// Nothing of h is in flight or being read back from the
			// store: whatever comes next waits its turn behind the
			// hosts due before it.
			h.turnKey = time.Time{}
		}
		return
	}
	if refused || s.limitHeadLocked(h) {
		// Its head pages are skipped with max-pages, or its head URLs
		// with robots-disallowed, without a request: no pace to wait for.
		h.key = now
	} else {
		p := h.pace(&s.cfg)
		if start := earliest(&s.cfg, &p, now).start; keepsTurn(h, start, now) {
			h.key = h.turnKey
		} else {
			h.key, h.turnKey = start, time.Time{}
			s.placements++
			h.placed = s.placements
		}
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
	if !h.rulesKnown && (h.robotsOut || h.queued() == 0) {
		return false
	}
	if s.heldForPageLeases(h) {
		s.held[h] = struct{}{}
		return false
	}
	if !h.rulesKnown {
		return true
	}
	return len(h.cache) > 0 || (h.spill > 0 && !h.refilling)
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
