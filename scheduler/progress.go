package scheduler

import (
	"slices"
	"strings"
	"time"
)

// progressTally keeps the totals Progress reports up to date one host at a
// time: the hosts changed since the last call (by Add, a lease, an answer,
// new rules: every change goes through touch or fixAt) and, over every
// host, what each was last counted as. Guarded by Scheduler.mu.
type progressTally struct {
	changes map[*host]struct{}
	queued  int
	leased  int
	states  map[string]int
}

// shownHost is what Progress last counted of a host.
type shownHost struct {
	state          string // "" before the host was first counted
	queued, leased int
}

// changed notes that h may have changed. s.mu is held.
func (p *progressTally) changed(h *host) {
	if p.changes == nil {
		p.changes = map[*host]struct{}{}
	}
	p.changes[h] = struct{}{}
}

// Progress returns the totals of Stats and the status of each host whose
// state changed since the previous call (by authority), in time proportional to the
// hosts changed since then, not to all hosts: a live display can call it
// twice a second with 100,000 hosts. A host is counted in the state it
// was in when the crawl last changed it: one waiting for its pace whose
// time has come counts as waiting until a worker takes it up, which Stats
// would count as active.
func (s *Scheduler) Progress() (Stats, []HostStatus) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	p := &s.progress
	if p.states == nil {
		p.states = map[string]int{}
	}
	var moved []HostStatus
	for h := range p.changes {
		st := s.statusLocked(h, now)
		old := h.shown
		h.shown = shownHost{state: st.State, queued: st.Queued, leased: st.Leased}
		p.queued += h.shown.queued - old.queued
		p.leased += h.shown.leased - old.leased
		if old.state != st.State {
			if old.state != "" {
				p.states[old.state]--
			}
			p.states[st.State]++
			moved = append(moved, st)
		}
	}
	// A new map, not a cleared one: ranging over a cleared map still
	// walks every bucket it grew to, and the first call after seeding
	// 100,000 hosts grows it to 100,000 entries.
	p.changes = nil
	slices.SortFunc(moved, func(a, b HostStatus) int { return strings.Compare(a.Authority, b.Authority) })
	st := s.stats
	st.InFlight = s.leases
	st.Hosts = len(s.hosts)
	st.Queued, st.Leased = p.queued, p.leased
	st.HostsActive, st.HostsWaiting, st.HostsParked = p.states[StateActive], p.states[StateWaiting], p.states[StateParked]
	st.HostsBackingOff, st.HostsDeferred = p.states[StateBackingOff], p.states[StateDeferred]
	st.HostsDropped, st.HostsDone = p.states[StateDropped], p.states[StateDone]
	return st, moved
}
