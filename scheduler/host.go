package scheduler

import (
	"time"

	"golang.org/x/time/rate"
)

// host is the scheduler's in-memory state of one authority. All fields are
// guarded by Scheduler.mu.
type host struct {
	auth string
	rec  HostRecord // persisted part

	rules      Rules
	rulesKnown bool // robots known and current: page leases may be issued
	rulesSet   bool // SetRules was called once: rules hold the latest known
	crawlDelay time.Duration
	clamped    bool
	warning    string

	robotsOut      bool      // a robots lease is outstanding
	robotsRetryAt  time.Time // robots lease not before this (RulesFailed)
	robotsFailures int

	floor      time.Time     // restart floor: persisted NextAllowed until SetRules
	restored   time.Duration // previous process's rules-based interval (HostRecord.RulesPace); 0 if none
	inflight   int
	pageLeases int       // outstanding leases of counted kinds (page limits)
	reserved   time.Time // start reserved by the latest lease not yet Waited
	cache      []Entry   // head of the queue, in Seq order
	spill      int       // queued entries only in the store, all with Seq > spillFrom
	spillFrom  uint64
	nextSeq    uint64
	refilling  bool
	notified   bool // deferral reported at drain

	lim     *rate.Limiter // token bucket, burst 1, re-armed from rec.LastStart
	limIv   time.Duration
	limFrom time.Time

	idx int       // index in the ready heap; -1 if not in it
	key time.Time // heap key: earliest start
}

func (h *host) queued() int { return len(h.cache) + h.spill }

// robotsTurn reports whether h's next request can only be its robots.txt
// fetch: its rules are not current and no lease but a robots lease is out
// (page leases are issued only under current rules). Visit-time does not
// hold such a request back: it limits when the robot visits pages, and
// robots.txt is not a page.
func (h *host) robotsTurn() bool {
	out := h.inflight
	if h.robotsOut {
		out--
	}
	return !h.rulesKnown && out == 0
}

// pace returns the state that decides h's next request start. While it is
// h's robots turn, the Visit-time windows are left out.
func (h *host) pace() paceState {
	p := paceState{
		rules:      h.rules,
		crawlDelay: h.crawlDelay,
		clamped:    h.clamped,
		adaptive:   h.rec.Adaptive,
		backoff:    h.rec.Backoff,
		lastStart:  h.rec.LastStart,
		base:       h.rec.LastStart,
		until:      h.rec.BackoffUntil,
	}
	if !h.rulesSet {
		p.restored = h.restored
	}
	if h.robotsTurn() {
		p.rules.VisitTimes = nil
	}
	if h.reserved.After(p.base) {
		p.base = h.reserved
	}
	if h.floor.After(p.until) {
		p.until = h.floor
	}
	if !h.rulesKnown && !h.robotsRetryAt.IsZero() && h.robotsRetryAt.After(p.until) {
		p.until = h.robotsRetryAt
	}
	return p
}

// hostHeap orders hosts by their earliest start.
type hostHeap []*host

func (q hostHeap) Len() int           { return len(q) }
func (q hostHeap) Less(i, j int) bool { return q[i].key.Before(q[j].key) }
func (q hostHeap) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].idx = i
	q[j].idx = j
}
func (q *hostHeap) Push(x any) {
	h := x.(*host)
	h.idx = len(*q)
	*q = append(*q, h)
}
func (q *hostHeap) Pop() any {
	old := *q
	n := len(old)
	h := old[n-1]
	old[n-1] = nil
	h.idx = -1
	*q = old[:n-1]
	return h
}
