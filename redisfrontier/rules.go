package redisfrontier

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/crawlproject/crawl/robotscache"
	"github.com/crawlproject/crawl/scheduler"
)

// SetRules installs the pace of authority's robots.txt group for every
// process (its pace table: Crawl-delay after CrawlDelayPolicy,
// Request-rates, Visit-time, the default when none asks) and ends its
// robots turn. Under CrawlDelayPolicy skip, a Crawl-delay beyond
// MaxCrawlDelay drops the host with crawl-delay-too-long. r.Refuse is kept
// in this process, for Add.
func (f *Frontier) SetRules(authority string, r scheduler.Rules) {
	f.touch(authority)
	drop := ""
	if too := scheduler.CrawlDelayExceeds(&f.cfg, r); too != "" && f.cfg.CrawlDelayPolicy == scheduler.PolicySkip {
		drop = fmt.Sprintf("%s: %s", scheduler.ReasonCrawlDelayTooLong, too)
	}
	pace := encodePace(scheduler.NewPaceTable(&f.cfg, r))
	var ver int64
	err := f.call(f.ctx, "set rules", func(ctx context.Context) error {
		var err error
		ver, err = f.sc.rules.Run(ctx, f.rdb, []string{f.k.shard(shardOf(authority))}, authority, pace, drop,
			f.cfg.PerHost, f.defPace, ceilMs(f.cfg.Margin)).Int64()
		return err
	})
	if err != nil {
		f.log.Warn("frontier: rules not recorded", "host", authority, "err", err)
		return
	}
	f.mu.Lock()
	f.local.rules[authority] = hostRules{rules: r, ver: ver}
	f.local.views[shardOf(authority)] = shardView{}
	f.mu.Unlock()
}

// RulesFailed reports that authority's robots.txt could not be fetched:
// the host's next robots lease waits for retryAt, and after MaxFailures
// failures in a row the host is given up for the run (robots-unreachable).
func (f *Frontier) RulesFailed(authority string, retryAt time.Time) {
	f.touch(authority)
	why := fmt.Sprintf("%s: robots.txt failed %d times in a row", scheduler.ReasonRobotsUnreachable, f.cfg.MaxFailures)
	err := f.call(f.ctx, "rules failed", func(ctx context.Context) error {
		return f.sc.rulesFailed.Run(ctx, f.rdb, []string{f.k.shard(shardOf(authority))}, authority, retryAt.UnixMilli(),
			f.cfg.MaxFailures, why).Err()
	})
	if err != nil {
		f.log.Warn("frontier: robots failure not recorded", "host", authority, "err", err)
	}
}

// ExpireRules marks authority's rules stale: unless another process
// installed newer ones since this process's lease was issued, the shared
// copy is dropped and the host's next lease is a robots lease.
func (f *Frontier) ExpireRules(authority string) {
	f.touch(authority)
	f.mu.Lock()
	ver := f.local.rules[authority].ver
	for _, h := range f.local.byAuth[authority] {
		ver = h.ver
	}
	delete(f.local.rules, authority)
	f.mu.Unlock()
	err := f.call(f.ctx, "expire rules", func(ctx context.Context) error {
		return f.sc.expire.Run(ctx, f.rdb, []string{f.k.shard(shardOf(authority))}, authority, ver).Err()
	})
	if err != nil {
		f.log.Warn("frontier: rules expiry not recorded", "host", authority, "err", err)
	}
}

// robotsSlack is kept beyond a robots.txt record's expiry: a process may
// still use a copy that expired while a page waited out its pace.
const robotsSlack = time.Hour

// robotsStore is a robotscache.Store on the frontier's robots keys.
type robotsStore struct{ f *Frontier }

// RobotsStore returns the robots cache's store in Redis: one copy of each
// host's robots.txt record for every process, kept until its expiry plus
// an hour.
func (f *Frontier) RobotsStore() robotscache.Store { return robotsStore{f} }

// PutRobots stores authority's record with a TTL of its expiry plus slack.
func (s robotsStore) PutRobots(authority string, data []byte) error {
	var rec struct {
		Expires time.Time `json:"expires"`
	}
	ttl := 24 * time.Hour
	if json.Unmarshal(data, &rec) == nil && !rec.Expires.IsZero() {
		ttl = max(time.Until(rec.Expires), 0) + robotsSlack
	}
	return s.f.call(s.f.ctx, "put robots", func(ctx context.Context) error {
		return s.f.rdb.Set(ctx, s.f.k.robots(authority), data, ttl).Err()
	})
}

// GetRobots returns authority's record; a read error counts as absent.
func (s robotsStore) GetRobots(authority string) ([]byte, bool) {
	var b []byte
	err := s.f.do(s.f.ctx, "get robots", func(ctx context.Context) error {
		var err error
		b, err = s.f.rdb.Get(ctx, s.f.k.robots(authority)).Bytes()
		return err
	})
	return b, err == nil
}
