package redisfrontier

import (
	"context"
	"time"

	"github.com/crawlproject/crawl/robotscache"
	"github.com/crawlproject/crawl/scheduler"
)

// frontier lists the methods the crawler uses of *scheduler.Scheduler:
// *Frontier must offer each with the same signature.
type frontier interface {
	Add(c scheduler.Candidate) (*scheduler.Skip, error)
	Seen(key string) (bool, error)
	Feed() (done func())
	Next(ctx context.Context) (*scheduler.Lease, error)
	Finish(l *scheduler.Lease, r scheduler.Result) error
	Retried(l *scheduler.Lease, r scheduler.Result) bool
	Wait(ctx context.Context, authority string) error
	WaitHop(ctx context.Context, authority string) error
	Release(authority string)
	ReleaseHop(authority string)
	Answered(authority string, t time.Time)
	Observe(authority string, status int, dur time.Duration, retryAfter string, err error)
	SetRules(authority string, r scheduler.Rules)
	RulesFailed(authority string, retryAt time.Time)
	ExpireRules(authority string)
	Host(authority string) scheduler.HostStatus
	Hosts() []scheduler.HostStatus
	Stats() scheduler.Stats
	Progress() (scheduler.Stats, []scheduler.HostStatus)
	Close() error
}

var (
	_ frontier          = (*Frontier)(nil)
	_ frontier          = (*scheduler.Scheduler)(nil)
	_ robotscache.Store = robotsStore{}
)
