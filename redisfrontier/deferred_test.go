package redisfrontier

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/redistest"
	"github.com/crawlproject/crawl/scheduler"
)

// TestDeferredReportedOnce protects the drain report across processes:
// the queued URLs of a host deferred beyond MaxWait (backing off) and of a
// host given up are reported with Queued true, by one process each, so
// that the combined skip logs of two processes draining at once list every
// queued URL exactly once.
func TestDeferredReportedOnce(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	cfg := testConfig()
	cfg.MaxWait, cfg.MaxFailures = time.Second, 1
	log := &skipLog{}
	cfg.OnSkip = log.add
	a, b := openCfg(t, url, prefix, 5*time.Second, cfg), openCfg(t, url, prefix, 5*time.Second, cfg)
	addURLs(t, a, "http://slow.test", 3)
	addURLs(t, a, "http://gone.test", 3)
	for range 2 {
		l := nextPage(t, a)
		if l.Authority == "http://slow.test:80" {
			a.Observe(l.Authority, 503, time.Millisecond, "", nil) // back-off 5 s
			if err := a.Finish(l, scheduler.Result{Status: 503}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := a.Finish(l, scheduler.Result{Err: errors.New("read: connection reset by peer")}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for _, f := range []*Frontier{a, b} {
		wg.Go(func() {
			if l, err := f.Next(ctx); !errors.Is(err, scheduler.ErrDrained) {
				t.Errorf("Next = %+v, %v: want drained", l, err)
			}
		})
	}
	wg.Wait()
	reasons := map[string]scheduler.Reason{}
	for _, sk := range log.skips {
		if _, dup := reasons[sk.URL]; dup || !sk.Queued {
			t.Errorf("skip %s (queued %v) reported twice or not as queued", sk.URL, sk.Queued)
		}
		reasons[sk.URL] = sk.Reason
	}
	if q := a.Stats().Queued; len(reasons) != q || q != 6 {
		t.Fatalf("%d URLs reported, %d queued: want all 6 reported once (%v)", len(reasons), q, reasons)
	}
	if r := reasons["http://slow.test/p1"]; r != scheduler.ReasonBackoffDeferred {
		t.Errorf("the backing-off host's URL reported with %s", r)
	}
	if r := reasons["http://gone.test/p1"]; r != "host-failing" {
		t.Errorf("the given-up host's URL reported with %s", r)
	}
	// crawl status counts the host deferred, as the drain reported it.
	if st := b.Host("http://slow.test:80").State; st != scheduler.StateDeferred {
		t.Errorf("the host deferred at the drain is %s", st)
	}
	rep, err := StatusPrefix(context.Background(), url, prefix)
	if err != nil {
		t.Fatal(err)
	}
	if rep.States[scheduler.StateDeferred] != 1 || rep.States[scheduler.StateDropped] != 1 {
		t.Errorf("status host states %v, want 1 deferred and 1 dropped", rep.States)
	}
}
