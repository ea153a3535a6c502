package redisfrontier

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/crawlproject/crawl/scheduler"
)

// limitedKinds lists, as the claim script reads it (",k,...,"), the kinds
// skipped with max-pages once a page limit is reached. Open computes it
// once (Frontier.limited): it depends on nothing that changes.
func limitedKinds() string {
	s := ","
	for _, k := range []scheduler.Kind{scheduler.KindPage, scheduler.KindRobots, scheduler.KindSitemap, scheduler.KindRequisite} {
		if scheduler.LimitedKind(k) {
			s += strconv.Itoa(int(k)) + ","
		}
	}
	return s
}

// maxPagesFlag is "1" when Scope.MaxPages pages were fetched across
// processes, by the crawl's counter (P{g}:pages) read now; "0" otherwise.
// The counter only grows: once it is read at the limit, the flag stays
// "1" without reading it again (Frontier.pagesReached).
func (f *Frontier) maxPagesFlag() string {
	m := f.cfg.Scope.MaxPages
	if m <= 0 {
		return "0"
	}
	if f.pagesReached.Load() {
		return "1"
	}
	if f.globalPages(f.ctx) >= int64(m) {
		f.pagesReached.Store(true)
		return "1"
	}
	return "0"
}

// globalPages reads the crawl's page counter; 0 when it cannot be read.
func (f *Frontier) globalPages(ctx context.Context) int64 {
	var n int64
	_ = f.do(ctx, "pages", func(ctx context.Context) error {
		var err error
		n, err = f.rdb.Get(ctx, f.k.pages()).Int64()
		if errors.Is(err, redis.Nil) {
			return nil
		}
		return err
	})
	return n
}

// countPage adds a fetched page to the crawl's page counter.
func (f *Frontier) countPage() {
	_ = f.do(f.ctx, "pages", func(ctx context.Context) error { return f.rdb.Incr(ctx, f.k.pages()).Err() })
}

// limitSkips reports the entries the claim script took off a host's queue
// head over a page limit ({'skip', auth, host pages, entry...}) as
// max-pages skips, worded as the scheduler words them.
func (f *Frontier) limitSkips(res []any) {
	auth, hostPages := str(res, 1), int64Of(res, 2)
	pages := int64(0)
	if f.cfg.Scope.MaxPages > 0 {
		pages = f.globalPages(f.ctx)
	}
	why := scheduler.PageLimitReached(f.cfg.Scope, int(pages), int(hostPages), auth)
	now := time.Now()
	for i := 3; i < len(res); i++ {
		e, err := decodeEntry(auth, str(res, i))
		if err != nil {
			continue
		}
		f.mu.Lock()
		f.local.skipped++
		f.mu.Unlock()
		if f.cfg.OnSkip != nil {
			f.cfg.OnSkip(scheduler.Skip{URL: e.URL, Parent: e.Parent, Authority: auth, Reason: scheduler.ReasonMaxPages,
				Detail: why + "; not fetched", Time: now})
		}
	}
}
