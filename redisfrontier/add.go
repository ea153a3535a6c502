package redisfrontier

import (
	"context"
	"sync"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// Add offers a candidate URL, as scheduler.Scheduler.Add: canonicalised,
// screened by the crawl's own rules (scheduler.Screen), then queued on its
// host unless the shared seen set has it (atomically, in one script). A
// URL both seen and refused by a rule is reported as a duplicate. Seeds
// define the seed hosts for every process. The error is non-nil only when
// the frontier is closed or fails for good.
func (f *Frontier) Add(c scheduler.Candidate) (*scheduler.Skip, error) {
	if f.isClosed() {
		return nil, scheduler.ErrClosed
	}
	o, sk := f.screen.Read(c, time.Now())
	if sk != nil {
		return f.skipped(sk), nil
	}
	if c.Seed {
		if err := f.addSeedHost(o.SeedHost()); err != nil {
			return nil, err
		}
	}
	if sk := f.screen.Check(o, f.isSeedHost); sk != nil {
		if seen, err := f.Seen(o.Key()); err != nil {
			return nil, err
		} else if seen {
			sk.Reason, sk.Detail = scheduler.ReasonDuplicate, ""
		}
		return f.skipped(sk), nil
	}
	if sk := f.refusal(o); sk != nil {
		return f.skipped(sk), nil
	}
	queued, err := f.queue(o)
	if err != nil {
		return nil, err
	}
	if !queued {
		return f.skipped(&scheduler.Skip{URL: o.Key(), Parent: c.Parent, Authority: o.Authority(), Reason: scheduler.ReasonDuplicate, Time: time.Now()}), nil
	}
	return nil, nil
}

// queue runs the add script: false when the URL was seen before.
func (f *Frontier) queue(o scheduler.Offer) (bool, error) {
	c := o.Candidate()
	auth := o.Authority()
	n := shardOf(auth)
	b, field := fingerprint(o.Key())
	e := encodeEntry(scheduler.Entry{Authority: auth, URL: o.Key(), Parent: c.Parent, Depth: c.Depth, Kind: c.Kind, Seed: c.Seed, Redirects: c.Redirects})
	var got int64
	err := f.call(f.ctx, "add", func(ctx context.Context) error {
		var err error
		got, err = f.sc.add.Run(ctx, f.rdb, []string{f.k.shard(n)}, auth, b, field, e, f.cfg.PerHost, f.defPace, ceilMs(f.cfg.Margin)).Int64()
		return err
	})
	if err != nil {
		return false, err
	}
	f.touchShard(n)
	f.touch(auth)
	return got == 1, nil
}

// refusal is the skip of a URL its host's robots.txt disallows, while the
// rules this process installed with SetRules say so (Rules.Refuse before
// RefuseUntil); nil otherwise (the crawler then decides at lease time).
func (f *Frontier) refusal(o scheduler.Offer) *scheduler.Skip {
	f.mu.Lock()
	hr, ok := f.local.rules[o.Authority()]
	f.mu.Unlock()
	r := hr.rules
	if !ok || r.Refuse == nil || (!r.RefuseUntil.IsZero() && !time.Now().Before(r.RefuseUntil)) {
		return nil
	}
	rule, line, detail, refused := r.Refuse(o.Key())
	if !refused {
		return nil
	}
	c := o.Candidate()
	return &scheduler.Skip{URL: o.Key(), Parent: c.Parent, Authority: o.Authority(), Reason: scheduler.ReasonRobotsDisallowed,
		Detail: detail, Rule: rule, Line: line, Time: time.Now()}
}

// addSeedHost records a seed's host for every process.
func (f *Frontier) addSeedHost(key string) error {
	f.mu.Lock()
	known := f.local.seedHosts[key]
	f.local.seedHosts[key] = true
	f.mu.Unlock()
	if known {
		return nil
	}
	return f.call(f.ctx, "seed host", func(ctx context.Context) error {
		return f.rdb.SAdd(ctx, f.k.seedHosts(), key).Err()
	})
}

// isSeedHost reports whether key is a seed's host, asking the shared set
// when this process has not seen that seed.
func (f *Frontier) isSeedHost(key string) bool {
	f.mu.Lock()
	known := f.local.seedHosts[key]
	f.mu.Unlock()
	if known {
		return true
	}
	var ok bool
	if f.do(f.ctx, "seed host", func(ctx context.Context) error {
		var err error
		ok, err = f.rdb.SIsMember(ctx, f.k.seedHosts(), key).Result()
		return err
	}) != nil || !ok {
		return false
	}
	f.mu.Lock()
	f.local.seedHosts[key] = true
	f.mu.Unlock()
	return true
}

// Seen reports whether the canonical URL key is in the shared seen set.
func (f *Frontier) Seen(key string) (bool, error) {
	if f.isClosed() {
		return false, scheduler.ErrClosed
	}
	auth := scheduler.AuthorityOf(key)
	b, field := fingerprint(key)
	var seen bool
	err := f.call(f.ctx, "seen", func(ctx context.Context) error {
		var err error
		seen, err = f.rdb.HExists(ctx, f.k.seen(auth, b), field).Result()
		return err
	})
	return seen, err
}

// Feed tells the frontier that URLs are still to come from outside the
// crawl: until done is called, Next does not end with ErrDrained, in this
// process or (through its heartbeat) any other.
func (f *Frontier) Feed() (done func()) {
	f.mu.Lock()
	f.local.feeds++
	f.mu.Unlock()
	f.beat()
	var once sync.Once
	return func() {
		once.Do(func() {
			f.mu.Lock()
			f.local.feeds--
			f.mu.Unlock()
			f.beat()
		})
	}
}

// skipped counts a skip returned to the caller.
func (f *Frontier) skipped(sk *scheduler.Skip) *scheduler.Skip {
	f.mu.Lock()
	f.local.skipped++
	f.mu.Unlock()
	return sk
}

// touchShard makes the next Next look at shard n again.
func (f *Frontier) touchShard(n int) {
	f.mu.Lock()
	f.local.views[n] = shardView{}
	f.mu.Unlock()
}
