package crawler

import (
	"context"
	"time"

	"github.com/crawlproject/crawl/redisfrontier"
	"github.com/crawlproject/crawl/scheduler"
	"github.com/crawlproject/crawl/wire"
)

// frontier is what a crawl asks of its frontier: exactly the methods of
// *scheduler.Scheduler that the crawler and its polite stack (wire.Pacer)
// call, with their signatures and meanings. The embedded frontier is a
// *scheduler.Scheduler over the bbolt store in --out; another frontier
// (one shared by several processes) gives the same guarantees through
// the same methods.
type frontier interface {
	// Add offers a URL (see scheduler.Scheduler.Add).
	Add(c scheduler.Candidate) (*scheduler.Skip, error)
	// Seen reports whether the canonical URL key was ever queued.
	Seen(key string) (bool, error)
	// Feed keeps the frontier from draining until done is called.
	Feed() (done func())
	// Next leases the next URL (or robots.txt) whose host may be
	// fetched; scheduler.ErrDrained when nothing is left to do.
	Next(ctx context.Context) (*scheduler.Lease, error)
	// Finish ends a lease with its outcome.
	Finish(l *scheduler.Lease, r scheduler.Result) error
	// Retried reports whether a lease ending with r is fetched again.
	Retried(l *scheduler.Lease, r scheduler.Result) bool

	// Pacer paces the requests of the polite transport: Wait, WaitHop,
	// Release, ReleaseHop, Answered, Observe and Host.
	wire.Pacer

	// SetRules, RulesFailed and ExpireRules hand a host's robots.txt
	// outcome to its pace and gate.
	SetRules(authority string, r scheduler.Rules)
	RulesFailed(authority string, retryAt time.Time)
	ExpireRules(authority string)

	// Hosts, Stats and Progress report the frontier's state.
	Hosts() []scheduler.HostStatus
	Stats() scheduler.Stats
	Progress() (scheduler.Stats, []scheduler.HostStatus)
	// Close releases the frontier; its store is closed by its owner.
	Close() error
}

// The embedded frontier and the one shared through Redis are frontiers.
var (
	_ frontier = (*scheduler.Scheduler)(nil)
	_ frontier = (*redisfrontier.Frontier)(nil)
)
