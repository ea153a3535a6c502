package redisfrontier

import (
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// held is a lease this process holds: its Redis id and token.
type held struct {
	lease   *scheduler.Lease
	id      string
	token   string
	shard   int
	ver     int64 // the host's robots version when it was leased
	sending bool  // a Wait for it returned nil and no Release came yet
	lost    bool  // the renewer found it taken back
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

// heldFor returns the lease of auth a request is to be started for: one
// not sending yet, a robots lease first; nil if none.
func (f *Frontier) heldFor(auth string) *held {
	f.mu.Lock()
	defer f.mu.Unlock()
	var pick *held
	for _, h := range f.local.byAuth[auth] {
		if h.sending {
			continue
		}
		if pick == nil || h.lease.Kind == scheduler.KindRobots {
			pick = h
		}
	}
	return pick
}

// sendingFor returns the lease of auth whose request is in flight, if any.
func (f *Frontier) sendingFor(auth string) *held {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, h := range f.local.byAuth[auth] {
		if h.sending {
			return h
		}
	}
	return nil
}
