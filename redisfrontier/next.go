package redisfrontier

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// recheck bounds how long a shard's view is trusted, and how long Next
// sleeps when nothing is ready: another process's adds and finishes are
// seen within it.
const recheck = 250 * time.Millisecond

// Next blocks until some host may be fetched and returns a lease of it:
// its robots.txt (KindRobots) while its rules are not read, else its next
// URL. Shards are claimed round-robin; a claim first takes back the
// shard's expired leases. It returns scheduler.ErrDrained when no shard
// has a host ready within MaxWait, no lease is outstanding in any process,
// and no process is feeding URLs; scheduler.ErrClosed after Close; or the
// context's error.
func (f *Frontier) Next(ctx context.Context) (*scheduler.Lease, error) {
	for {
		if f.isClosed() {
			return nil, scheduler.ErrClosed
		}
		l, err := f.sweep(ctx, false)
		if l != nil || err != nil {
			return l, err
		}
		if f.maybeDrained() {
			before, err := f.activity(ctx)
			if err != nil {
				return nil, err
			}
			l, err := f.sweep(ctx, true)
			if l != nil || err != nil {
				return l, err
			}
			if drained, err := f.drained(ctx, before); err != nil || drained {
				if err == nil {
					err = f.reportDeferred(ctx)
				}
				if err == nil {
					err = scheduler.ErrDrained
				}
				return nil, err
			}
		}
		if err := sleepCtx(ctx, f.ctx, f.nap()); err != nil {
			return nil, err
		}
	}
}

// sweep claims on the shards that may have a host due (all of them if
// all), in round-robin order, and returns the first lease. The crawl's
// page limit is read once per sweep, before its first claim.
func (f *Frontier) sweep(ctx context.Context, all bool) (*scheduler.Lease, error) {
	now := time.Now()
	f.mu.Lock()
	start := f.local.rr
	f.mu.Unlock()
	maxReached := ""
	for i := range Shards {
		n := (start + i) % Shards
		if !all && !f.mayBeDue(n, now) {
			continue
		}
		if maxReached == "" {
			maxReached = f.maxPagesFlag()
		}
		l, err := f.claim(ctx, n, maxReached)
		if l != nil || err != nil {
			f.mu.Lock()
			f.local.rr = (n + 1) % Shards
			f.mu.Unlock()
			return l, err
		}
	}
	return nil, nil
}

// mayBeDue reports whether shard n's view is stale or says a host is due.
func (f *Frontier) mayBeDue(n int, now time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	v := f.local.views[n]
	return v.checked.IsZero() || now.Sub(v.checked) >= recheck || !v.due.IsZero() && !v.due.After(now)
}

// claim runs the claim script on shard n; maxReached is maxPagesFlag.
func (f *Frontier) claim(ctx context.Context, n int, maxReached string) (*scheduler.Lease, error) {
	token := newToken()
	var res []any
	err := f.call(ctx, "claim", func(ctx context.Context) error {
		var err error
		res, err = f.sc.claim.Run(ctx, f.rdb, []string{f.k.shard(n)}, f.opts.ProcessID, token,
			f.opts.LeaseDuration.Milliseconds(), f.cfg.PerHost, ceilMs(f.cfg.RequestTimeout), f.defPace, ceilMs(f.cfg.Margin),
			f.cfg.Scope.MaxPagesPerHost, maxReached, f.limited).Slice()
		return err
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	switch str(res, 0) {
	case "none":
		f.noteView(n, int64Of(res, 1), int64Of(res, 2), int64Of(res, 3))
		return nil, nil
	case "skip":
		f.limitSkips(res)
		f.touchShard(n)
		return nil, nil
	}
	return f.leased(n, token, res)
}

// leased turns a claim's answer into a held lease.
func (f *Frontier) leased(n int, token string, res []any) (*scheduler.Lease, error) {
	id, auth, ver := str(res, 1), str(res, 2), int64Of(res, 3)
	l := &scheduler.Lease{URL: scheduler.RobotsURL(auth), Authority: auth, Kind: scheduler.KindRobots, Issued: time.Now()}
	if str(res, 0) == "url" {
		e, err := decodeEntry(auth, str(res, 4))
		if err != nil {
			return nil, f.wrap("claim", err)
		}
		l = &scheduler.Lease{URL: e.URL, Parent: e.Parent, Authority: auth, Depth: e.Depth, Kind: e.Kind, Seed: e.Seed,
			Attempt: e.Attempts, Redirects: e.Redirects, Issued: l.Issued}
	}
	f.mu.Lock()
	f.hold(&held{lease: l, id: id, token: token, shard: n, ver: ver})
	f.local.touched[auth] = struct{}{}
	f.mu.Unlock()
	return l, nil
}

// noteView records a claim's answer "nothing due" on shard n: the first
// ready score (-1 none) and the leases outstanding, on Redis's clock now.
func (f *Frontier) noteView(n int, score, leases, redisNow int64) {
	local := time.Now()
	v := shardView{checked: local, leases: leases}
	if score >= 0 {
		v.due = local.Add(time.Duration(score-redisNow) * time.Millisecond)
	}
	f.mu.Lock()
	f.local.views[n] = v
	f.mu.Unlock()
}

// maybeDrained reports whether the views say no shard has a host due
// within MaxWait nor a lease out, and this process feeds nothing.
func (f *Frontier) maybeDrained() bool {
	horizon := time.Now().Add(f.cfg.MaxWait)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.local.feeds > 0 || len(f.held) > 0 {
		return false
	}
	for _, v := range f.local.views {
		if v.checked.IsZero() || v.leases > 0 || !v.due.IsZero() && !v.due.After(horizon) {
			return false
		}
	}
	return true
}

// drained confirms maybeDrained after a full sweep: no lease was finished
// since before it (the activity count read then), and no other live
// process feeds URLs (heartbeats seen within three intervals).
func (f *Frontier) drained(ctx context.Context, before int64) (bool, error) {
	if !f.maybeDrained() {
		return false, nil
	}
	// A finish between the sweep's reads of two shards may have queued
	// links in a shard read before it and ended its lease in one read
	// after: the sweep saw neither. Any finish since before sweeps again.
	if after, err := f.activity(ctx); err != nil || after != before {
		return false, err
	}
	var procs map[string]string
	err := f.call(ctx, "procs", func(ctx context.Context) error {
		var err error
		procs, err = f.rdb.HGetAll(ctx, f.k.procs()).Result()
		return err
	})
	if err != nil {
		return false, err
	}
	for id, v := range procs {
		var hb heartbeat
		if id == f.opts.ProcessID || json.Unmarshal([]byte(v), &hb) != nil {
			continue
		}
		if hb.Feeding && !processReport(id, hb).Stale(time.Now()) {
			return false, nil
		}
	}
	return true, nil
}

// nap is how long Next sleeps when nothing is due: until the first due
// host it knows of, at most recheck.
func (f *Frontier) nap() time.Duration {
	d := recheck
	now := time.Now()
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, v := range f.local.views {
		if !v.due.IsZero() && v.due.Sub(now) < d {
			d = max(v.due.Sub(now), time.Millisecond)
		}
	}
	return d
}

// sleepCtx sleeps d, or returns the error of the first of ctx and done to
// end (done: scheduler.ErrClosed).
func sleepCtx(ctx, done context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-done.Done():
		return scheduler.ErrClosed
	case <-t.C:
		return nil
	}
}

func newToken() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func str(res []any, i int) string {
	if i >= len(res) {
		return ""
	}
	switch v := res[i].(type) {
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	}
	return ""
}

func int64Of(res []any, i int) int64 {
	n, _ := strconv.ParseInt(str(res, i), 10, 64)
	return n
}
