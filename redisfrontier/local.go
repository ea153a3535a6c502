package redisfrontier

import (
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// held is a lease this process holds: its Redis id and token.
type held struct {
	lease *scheduler.Lease
	id    string
	token string
	shard int
	ver   int64 // the host's robots version when it was leased
	bound bool  // a Wait took it for its request; until Release or a refusal
	lost  bool  // the renewer found it taken back
}

// shardView is what the last claim on a shard said: the local instant its
// first ready host comes due (zero: none), when it was asked, and how many
// leases (any process's) were outstanding.
type shardView struct {
	due     time.Time
	checked time.Time
	leases  int64
}

// hostRules is what this process knows of a host's rules: they decide
// the labels of its status and the robots.txt refusals of Add.
type hostRules struct {
	rules scheduler.Rules
	ver   int64
}

// localState is the process's own part of the frontier, guarded by
// Frontier.mu.
type localState struct {
	seedHosts map[string]bool
	rules     map[string]hostRules
	touched   map[string]struct{} // hosts changed by this process since Progress
	shown     map[string]string   // the state Progress last returned per host
	byAuth    map[string][]*held
	views     [Shards]shardView
	rr        int
	feeds     int
	skipped   int
	errors    int
	retries   int
	stale     int
	pages     int
}

func (l *localState) init() {
	l.seedHosts = map[string]bool{}
	l.rules = map[string]hostRules{}
	l.touched = map[string]struct{}{}
	l.shown = map[string]string{}
	l.byAuth = map[string][]*held{}
}

// hold records h as held. f.mu is held.
func (f *Frontier) hold(h *held) {
	f.held[h.lease] = h
	f.local.byAuth[h.lease.Authority] = append(f.local.byAuth[h.lease.Authority], h)
}

// unhold forgets h. f.mu is held.
func (f *Frontier) unhold(h *held) {
	delete(f.held, h.lease)
	list := f.local.byAuth[h.lease.Authority]
	for i, x := range list {
		if x == h {
			list = append(list[:i], list[i+1:]...)
			break
		}
	}
	if len(list) == 0 {
		delete(f.local.byAuth, h.lease.Authority)
	} else {
		f.local.byAuth[h.lease.Authority] = list
	}
}

// bindHeld binds a lease of auth to a request about to be started and
// returns it: the robots lease if one is free, else the first issued of
// the free ones; nil if this process holds none free (the request is then
// taken as a hop). Two concurrent Waits for one host never bind the same
// lease, so a host has no more of this process's requests in flight or
// waiting to start than this process holds leases of it.
func (f *Frontier) bindHeld(auth string) *held {
	f.mu.Lock()
	defer f.mu.Unlock()
	var pick *held
	for _, h := range f.local.byAuth[auth] {
		if h.bound {
			continue
		}
		if pick == nil || h.lease.Kind == scheduler.KindRobots && pick.lease.Kind != scheduler.KindRobots {
			pick = h
		}
	}
	if pick != nil {
		pick.bound = true
	}
	return pick
}

// unbind frees h for the next request of its host.
func (f *Frontier) unbind(h *held) {
	f.mu.Lock()
	h.bound = false
	f.mu.Unlock()
}

// touch notes that this process changed auth's state, for Progress.
func (f *Frontier) touch(auth string) {
	f.mu.Lock()
	f.local.touched[auth] = struct{}{}
	f.mu.Unlock()
}
