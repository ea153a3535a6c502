package redisfrontier

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/crawlproject/crawl/scheduler"
)

// A fate is what Finish does with a lease's URL.
type fate struct {
	action  string // done, requeue, retry
	entry   scheduler.Entry
	fetched bool
	failed  bool // no attempt left: skipped with fetch-failed
	outcome scheduler.Outcome
}

// fateOf decides, as the scheduler's failure policy does, what Finish(l,
// r) does with l's URL.
func (f *Frontier) fateOf(l *scheduler.Lease, r scheduler.Result) fate {
	o := scheduler.Classify(r.Status, r.Err)
	e := leaseEntry(l)
	switch {
	case r.Skip != nil:
		return fate{action: "done", entry: e, outcome: o}
	case r.Requeue:
		return fate{action: "requeue", entry: e, outcome: o}
	case r.Retry && l.Attempt+1 < f.cfg.MaxFailures:
		e.Attempts++
		return fate{action: "retry", entry: e, outcome: o}
	case r.Retry || o == scheduler.OutcomeAnswer:
		return fate{action: "done", entry: e, fetched: true, outcome: o}
	case l.Attempt+1 >= f.cfg.MaxAttempts(o):
		return fate{action: "done", entry: e, failed: true, outcome: o}
	}
	e.Attempts++
	return fate{action: "retry", entry: e, outcome: o}
}

// Retried reports whether Finish(l, r) would keep l's URL in the frontier
// to be fetched again.
func (f *Frontier) Retried(l *scheduler.Lease, r scheduler.Result) bool {
	a := f.fateOf(l, r).action
	return a == "retry" || a == "requeue"
}

// Finish ends a lease, as scheduler.Scheduler.Finish: a skipped URL is
// done, Requeue puts it back at the front of its queue, a failed attempt
// goes to the tail while attempts are left and is then skipped with
// fetch-failed (through Config.OnSkip); a connection failure on
// MaxFailures different URLs in a row gives the host up for the run (its
// URLs stay queued). A lease taken back since it was issued (it expired)
// is refused: nothing of r is applied, the refusal is logged and counted,
// and Finish returns nil, since the URL is another process's now.
func (f *Frontier) Finish(l *scheduler.Lease, r scheduler.Result) error {
	f.mu.Lock()
	h := f.held[l]
	f.mu.Unlock()
	if h == nil {
		if f.isClosed() {
			return scheduler.ErrClosed
		}
		return fmt.Errorf("redisfrontier: finish %s: no such lease", l.URL)
	}
	ft := f.fateOf(l, r)
	if err := f.noteActivity(); err != nil {
		return err
	}
	res, err := f.runFinish(h, ft, r)
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.unhold(h)
	f.local.touched[l.Authority] = struct{}{}
	f.local.views[h.shard] = shardView{}
	stale := str(res, 0) == "stale"
	f.count(ft, r, stale)
	f.mu.Unlock()
	if stale {
		f.log.Warn("lease taken back before its finish: its outcome is not applied", "url", l.URL, "lease", h.id)
		return nil
	}
	if scheduler.CountsAsPage(l, r) {
		f.countPage()
	}
	if ft.failed && f.cfg.OnSkip != nil {
		detail := scheduler.FailureDetail(r)
		f.cfg.OnSkip(scheduler.Skip{URL: l.URL, Parent: l.Parent, Authority: l.Authority, Reason: scheduler.ReasonFetchFailed,
			Detail: fmt.Sprintf("%d attempts, last: %s", l.Attempt+1, detail), Attempts: l.Attempt + 1, LastError: detail, Time: time.Now()})
	}
	return nil
}

// runFinish runs the finish script for h's lease with fate ft.
func (f *Frontier) runFinish(h *held, ft fate, r scheduler.Result) ([]any, error) {
	outcome := "none"
	if r.Skip == nil && !r.Requeue && h.lease.Kind != scheduler.KindRobots {
		outcome = ft.outcome.String()
	}
	fetched, page := "0", "0"
	if ft.fetched && h.lease.Kind != scheduler.KindRobots {
		fetched = "1"
	}
	if scheduler.CountsAsPage(h.lease, r) {
		page = "1"
	}
	entry := ""
	if h.lease.Kind != scheduler.KindRobots {
		entry = encodeEntry(ft.entry)
	}
	var res []any
	err := f.call(f.ctx, "finish", func(ctx context.Context) error {
		var err error
		res, err = f.sc.finish.Run(ctx, f.rdb, []string{f.k.shard(h.shard)}, h.lease.Authority, h.id, h.token, ft.action, entry,
			f.cfg.PerHost, f.defPace, ceilMs(f.cfg.Margin), outcome, urlMark(h.lease.URL), f.cfg.MaxFailures, fetched, page).Slice()
		return err
	})
	return res, err
}

// count adds a finished lease to the process's counts. f.mu is held.
func (f *Frontier) count(ft fate, r scheduler.Result, stale bool) {
	switch {
	case stale:
		f.local.stale++
		return
	case r.Skip != nil || ft.failed:
		f.local.skipped++
	case ft.action == "retry":
		f.local.retries++
	case ft.fetched:
		f.local.pages++
	}
	if ft.outcome != scheduler.OutcomeAnswer && r.Skip == nil && !r.Requeue {
		f.local.errors++
	}
}

// noteActivity counts a finish about to happen (keys.activity), after the
// links of its page were added.
func (f *Frontier) noteActivity() error {
	return f.call(f.ctx, "activity", func(ctx context.Context) error {
		return f.rdb.Incr(ctx, f.k.activity()).Err()
	})
}

// activity reads the count of finishes (keys.activity).
func (f *Frontier) activity(ctx context.Context) (int64, error) {
	var n int64
	err := f.call(ctx, "activity", func(ctx context.Context) error {
		v, err := f.rdb.Get(ctx, f.k.activity()).Int64()
		if errors.Is(err, redis.Nil) {
			v, err = 0, nil
		}
		n = v
		return err
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}
