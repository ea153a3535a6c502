package redisfrontier

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/redistest"
	"github.com/crawlproject/crawl/scheduler"
)

// TestConcurrentWaitsBindDistinctLeases protects PerHost > 1: two
// concurrent Waits of one process for one host record their starts on the
// two leases it holds, never both on one, and are paced apart.
func TestConcurrentWaitsBindDistinctLeases(t *testing.T) {
	url := redistest.URL(t)
	cfg := testConfig()
	cfg.PerHost = 2
	f := openCfg(t, url, redistest.Prefix(t, url), 5*time.Second, cfg)
	addURLs(t, f, "http://two.test", 2)
	l1 := nextPage(t, f)
	l2 := nextPage(t, f)
	ctx := context.Background()
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			if err := f.Wait(ctx, l1.Authority); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	var starts []int64
	for _, l := range []*scheduler.Lease{l1, l2} {
		h := f.held[l]
		if !h.bound {
			t.Errorf("lease %s not bound to a request", h.id)
		}
		v, err := f.rdb.HGet(ctx, f.k.shard(h.shard)+"l:"+h.id, "started").Int64()
		if err != nil || v == 0 {
			t.Errorf("lease %s: no start recorded (%d, %v)", h.id, v, err)
		}
		starts = append(starts, v)
	}
	if d := starts[0] - starts[1]; max(d, -d) < testPace.Milliseconds() {
		t.Errorf("starts %v closer than the pace %s", starts, testPace)
	}
	f.Release(l1.Authority)
	f.Release(l1.Authority)
	for _, l := range []*scheduler.Lease{l1, l2} {
		if err := f.Finish(l, scheduler.Result{Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
}
