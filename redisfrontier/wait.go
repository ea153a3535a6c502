package redisfrontier

import (
	"context"
	"errors"
	"time"

	"github.com/crawlproject/crawl/robots"
	"github.com/crawlproject/crawl/scheduler"
)

// Wait is the one place where request starts are taken, as in
// scheduler.Scheduler.Wait, but decided in Redis on Redis's clock: the
// start script either records the start (the host's last start, one more
// unanswered request, the lease's start) or says how long to wait, writing
// nothing; Wait sleeps that long (its lease renewed meanwhile) and asks
// again. It returns nil only after the script recorded the start. It
// returns a *scheduler.WaitError for a host parked outside its Visit-time
// (ErrParked), held longer than MaxWait (ErrWaitTooLong), dropped
// (ErrHostDropped), or whose lease was taken back (ErrLeaseLost: the
// request must not go out). Only the authority reaches Wait, so a Wait
// binds one of the leases this process holds of the host and that no
// other Wait holds (bindHeld): with PerHost > 1, concurrent Waits for one
// host record their starts on distinct leases. A Wait for a host this
// process holds no free lease of is taken as a hop (WaitHop).
func (f *Frontier) Wait(ctx context.Context, authority string) error {
	h := f.bindHeld(authority)
	err := f.wait(ctx, authority, h)
	if err != nil && h != nil {
		f.unbind(h)
	}
	return err
}

// WaitHop is Wait for a request that no lease stands for: a robots.txt
// redirect hop to another host. Its start is paced and recorded as any.
func (f *Frontier) WaitHop(ctx context.Context, authority string) error {
	return f.wait(ctx, authority, nil)
}

// Release ends a request that a nil Wait let start: one lease of the
// host bound by a Wait is free again.
func (f *Frontier) Release(authority string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, h := range f.local.byAuth[authority] {
		if h.bound {
			h.bound = false
			return
		}
	}
}

// ReleaseHop ends a request that a nil WaitHop let start; a hop holds no
// lease, so there is nothing to give back.
func (f *Frontier) ReleaseHop(authority string) {}

// wait asks the start script until it records the start, or refuses it.
func (f *Frontier) wait(ctx context.Context, auth string, h *held) error {
	id, token, hop := "", "", "1"
	if h != nil {
		id, token, hop = h.id, h.token, "0"
	}
	for {
		if h != nil && f.isLost(h) {
			return &scheduler.WaitError{Authority: auth, Reason: "lease taken back", Err: ErrLeaseLost}
		}
		res, err := f.runStart(ctx, auth, id, token, hop)
		if err != nil {
			return err
		}
		switch str(res, 0) {
		case "ok":
			return nil
		case "wait":
			d := time.Duration(int64Of(res, 1)) * time.Millisecond
			if err := sleepCtx(ctx, f.ctx, d); err != nil {
				return err
			}
		default:
			return f.refused(auth, res)
		}
	}
}

func (f *Frontier) runStart(ctx context.Context, auth, id, token, hop string) ([]any, error) {
	var res []any
	err := f.call(ctx, "start", func(ctx context.Context) error {
		var err error
		res, err = f.sc.start.Run(ctx, f.rdb, []string{f.k.shard(shardOf(auth))}, auth, id, token,
			f.cfg.MaxWait.Milliseconds(), ceilMs(f.cfg.Margin), hop, f.defPace).Slice()
		return err
	})
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return res, err
}

// refused turns the start script's refusal into a *scheduler.WaitError.
func (f *Frontier) refused(auth string, res []any) error {
	until := msTime(int64Of(res, 1))
	switch str(res, 0) {
	case "parked":
		return &scheduler.WaitError{Authority: auth, Until: until, Reason: f.visitString(auth), Err: scheduler.ErrParked}
	case "toolong":
		iv := time.Duration(int64Of(res, 2)) * time.Millisecond
		return &scheduler.WaitError{Authority: auth, Until: until, Reason: "interval " + robots.ShortDuration(iv), Err: scheduler.ErrWaitTooLong}
	case "dropped":
		return &scheduler.WaitError{Authority: auth, Reason: str(res, 1), Err: scheduler.ErrHostDropped}
	}
	return &scheduler.WaitError{Authority: auth, Reason: "lease taken back", Err: ErrLeaseLost}
}

// visitString names the host's Visit-time windows as this process knows
// them.
func (f *Frontier) visitString(auth string) string {
	f.mu.Lock()
	r := f.local.rules[auth].rules
	f.mu.Unlock()
	return scheduler.VisitString(r.VisitTimes)
}

func (f *Frontier) isLost(h *held) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return h.lost
}

// Answered tells the shared pace that the host answered a request (its
// response head arrived): its last start is taken as no earlier than that
// instant, on Redis's clock, so the next interval counts from there.
func (f *Frontier) Answered(authority string, t time.Time) {
	_ = f.do(f.ctx, "answered", func(ctx context.Context) error {
		return f.sc.answered.Run(ctx, f.rdb, []string{f.k.shard(shardOf(authority))}, authority).Err()
	})
}

// Observe is called by the transport after every response or failed
// request: it sets the host's adaptive pace and back-off in Redis, as
// scheduler.Scheduler.Observe (a Retry-After of a 429 or 503 honoured in
// full).
func (f *Frontier) Observe(authority string, status int, dur time.Duration, retryAfter string, err error) {
	f.touch(authority)
	o := scheduler.Classify(status, err)
	ra := int64(-1)
	if d, ok := scheduler.ParseRetryAfter(retryAfter, time.Now()); ok {
		ra = ceilMs(d)
	}
	rerr := f.do(f.ctx, "observe", func(ctx context.Context) error {
		return f.sc.observe.Run(ctx, f.rdb, []string{f.k.shard(shardOf(authority))}, authority, o.String(), ceilMs(dur), ra,
			f.cfg.FetchTimeFactor, ceilMs(f.cfg.BackoffBase), ceilMs(f.cfg.BackoffMax)).Err()
	})
	if rerr != nil && !errors.Is(rerr, context.Canceled) {
		f.log.Warn("frontier: observe not recorded", "host", authority, "err", f.wrap("observe", rerr))
	}
}
