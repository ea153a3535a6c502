package scheduler

import (
	"fmt"
	"time"
)

// host is the scheduler's in-memory state of one authority. All fields are
// guarded by Scheduler.mu.
type host struct {
	auth  string
	rec   HostRecord // persisted part
	shown shownHost  // what Progress last counted of the host

	rules      Rules
	rulesKnown bool   // robots known and current: page leases may be issued
	rulesSet   bool   // SetRules was called once: rules hold the latest known
	allowedSeq uint64 // Seq of a queue head rules.Refuse allowed; 0 if none (reset by SetRules)
	warning    string

	robotsOut      bool      // a robots lease is outstanding
	robotsRetryAt  time.Time // robots lease not before this (RulesFailed)
	robotsFailures int

	floor    time.Time     // restart floor: persisted NextAllowed until SetRules
	restored time.Duration // previous process's rules-based interval (HostRecord.RulesPace); 0 if none
	inflight int
	// unanswered counts the requests Wait let start whose end Observe
	// has not seen; rec.Unanswered says whether there are any.
	unanswered int
	sending    int       // requests in flight: from a nil Wait or WaitHop to their Release
	hops       int       // of those, hops: requests no lease of the host stands for (WaitHop)
	pageLeases int       // outstanding leases of counted kinds (page limits)
	reserved   time.Time // start reserved by the latest lease not yet Waited
	cache      []Entry   // head of the queue, in Seq order
	spill      int       // queued entries only in the store, all with Seq > spillFrom
	spillFrom  uint64
	nextSeq    uint64
	refilling  bool
	notified   bool // deferral reported at drain

	// The failure policy's view of the host (giveup.go). answered: an
	// answer (any status) came from it, in this run or an earlier one.
	// refusedSince: its first refused connection (or unresolved name)
	// while it never answered; zero otherwise. failing: the URLs that
	// failed at the connection level in a row with no answer between
	// (at most Config.MaxFailures). kept: the skip its queued URLs are
	// reported with once the frontier drains, when it was given up for
	// the run with its URLs kept queued (Queued set); zero for a host
	// not given up, or dropped for good.
	answered     bool
	refusedSince time.Time
	failing      []string
	kept         Skip

	idx int       // index in the ready heap; -1 if not in it
	key time.Time // heap key: earliest start, or turnKey while the host keeps its turn

	// turnKey is the heap key h held when its current run of turns
	// began, zero when it is on none; turns counts the leases issued in
	// that run (keepsTurn).
	turnKey time.Time
	turns   int
	// placed orders hosts of one key in the ready heap: the rank of the
	// latest placement that set the key (a host keeping its turn keeps
	// its rank too).
	placed uint64

	// starts notes the interval in force for each start Wait granted:
	// the latest one at or before now, then those still ahead (one per
	// caller still waiting), in start order.
	starts []startNote
}

// startNote is the interval in force for one request start and what set
// it (HostStatus.LastInterval, LastPaceSource).
type startNote struct {
	at  time.Time
	iv  time.Duration
	src string
}

// noteStart notes the interval in force for the request Wait starts at
// sc.start, p being h's pace with base its previous start: the pace interval
// sc gives, or, when a deadline (a Retry-After, a back-off, a robots.txt
// retry, the restart floor) held the start longer after the previous one,
// the time from the previous start to that deadline, named by what set it.
// A deadline within margin of the interval (a Retry-After equal to the
// back-off) names it too: the margin is ours, the wait the server's.
func (h *host) noteStart(p *paceState, sc schedule, now time.Time, margin time.Duration) {
	n := startNote{at: sc.start, iv: sc.iv, src: sc.src}
	if !p.base.IsZero() && !sc.start.Before(p.until) {
		if held := p.until.Sub(p.base); held+margin >= n.iv {
			n.iv, n.src = max(held, n.iv), h.untilSource(p.until)
		}
	}
	keep := 0
	for i, x := range h.starts {
		if !x.at.After(now) {
			keep = i
		}
	}
	h.starts = append(h.starts[keep:], n)
}

// lastStart returns the note of the latest start at or before now.
func (h *host) lastStart(now time.Time) (startNote, bool) {
	var last startNote
	ok := false
	for _, x := range h.starts {
		if x.at.After(now) {
			break
		}
		last, ok = x, true
	}
	return last, ok
}

// untilSource names what set until, a "not before" deadline of h's pace:
// its back-off or Retry-After, a robots.txt retry, or the restart floor.
func (h *host) untilSource(until time.Time) string {
	switch {
	case until.Equal(h.rec.BackoffUntil) && h.rec.BackoffSource != "":
		return h.rec.BackoffSource
	case until.Equal(h.rec.BackoffUntil):
		return "back-off recorded by the previous run"
	case !h.rulesKnown && until.Equal(h.robotsRetryAt):
		if h.robotsFailures == 1 {
			return "robots.txt retry after 1 failure"
		}
		return fmt.Sprintf("robots.txt retry after %d failures", h.robotsFailures)
	}
	return "restart floor: the pace recorded by the previous run"
}

// robotsRetryHolds reports whether the retry of h's unreachable robots.txt
// is what holds its earliest start (pace keeps p.until at or after
// robotsRetryAt, so the start can only equal it then). The deferred
// host's status and the skips of its queued URLs name the same cause.
func (h *host) robotsRetryHolds(start time.Time) bool {
	return !h.rulesKnown && h.robotsFailures > 0 && h.robotsRetryAt.Equal(start)
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

// pace returns the state that decides h's next request start under cfg:
// its rules' pace (rulesPace) and its record's. While it is h's robots
// turn, the Visit-time windows are left out.
func (h *host) pace(cfg *Config) paceState {
	p := rulesPace(cfg, h.rules)
	p.adaptive = h.rec.Adaptive
	p.backoff = h.rec.Backoff
	p.lastStart = h.rec.LastStart
	p.base = h.rec.LastStart
	p.until = h.rec.BackoffUntil
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

// hostHeap orders hosts by their earliest start, and hosts due at the
// same instant by when they were placed (host.placed).
type hostHeap []*host

func (q hostHeap) Len() int { return len(q) }
func (q hostHeap) Less(i, j int) bool {
	if c := q[i].key.Compare(q[j].key); c != 0 {
		return c < 0
	}
	return q[i].placed < q[j].placed
}
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

// leased is the number of h's URLs leased and not finished: its leases
// but the robots.txt one.
func (h *host) leased() int {
	if h.robotsOut {
		return max(h.inflight-1, 0)
	}
	return h.inflight
}

// ended notes that one of h's requests has ended, or never went out.
func (h *host) ended() {
	h.unanswered = max(h.unanswered-1, 0)
	h.rec.Unanswered = h.unanswered > 0
}

// turnBudget is how many leases in a row a host may take while it keeps
// its turn (keepsTurn) before it goes behind the other hosts due. Like a
// queue's session budget in Heritrix, it lets a host whose pace asks for
// no wait be fetched over one kept-alive connection for a while instead
// of a new connection per page, and bounds how long the other hosts due
// wait for it.
const turnBudget = 64

// keepsTurn reports whether h, whose pace allows its next start at start,
// keeps the place in the ready heap it held when its run of turns began:
// it may start now (what its rules, back-off and Visit-time ask is
// already met) and it has taken fewer than turnBudget leases in this run.
// The order of hosts changes, never the pace: h's key stays at or before
// now only when h may start now.
func keepsTurn(h *host, start, now time.Time) bool {
	return !h.turnKey.IsZero() && h.turns < turnBudget && !start.After(now)
}
