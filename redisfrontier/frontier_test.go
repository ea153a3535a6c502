package redisfrontier

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/redistest"
	"github.com/crawlproject/crawl/scheduler"
)

const testPace = 150 * time.Millisecond

func testConfig() scheduler.Config {
	cfg := scheduler.DefaultConfig()
	cfg.DefaultDelay, cfg.FetchTimeFactor, cfg.MaxWait = testPace, 0, 5*time.Second
	cfg.RequestTimeout = 300 * time.Millisecond
	cfg.Scope.Mode = scheduler.ScopeAny
	return cfg
}

// open opens a frontier ("a process") on url under prefix.
func open(t testing.TB, url, prefix string, lease time.Duration) *Frontier {
	t.Helper()
	return openCfg(t, url, prefix, lease, testConfig())
}

// openCfg opens a frontier with cfg.
func openCfg(t testing.TB, url, prefix string, lease time.Duration, cfg scheduler.Config) *Frontier {
	t.Helper()
	f, err := Open(context.Background(), Options{URL: url, Prefix: prefix, Config: cfg, LeaseDuration: lease,
		Heartbeat: 200 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// addURLs queues n pages of host through f.
func addURLs(t *testing.T, f *Frontier, host string, n int) {
	t.Helper()
	for i := range n {
		if sk, err := f.Add(scheduler.Candidate{URL: fmt.Sprintf("%s/p%d", host, i), Seed: true}); err != nil || sk != nil {
			t.Fatalf("add: %v %+v", err, sk)
		}
	}
}

// work runs one worker of f until the frontier drains: robots leases get
// empty rules, URL leases a request start (recorded in starts).
func work(ctx context.Context, f *Frontier, mu *sync.Mutex, starts *[]time.Time) error {
	for {
		l, err := f.Next(ctx)
		if errors.Is(err, scheduler.ErrDrained) {
			return nil
		}
		if err != nil {
			return err
		}
		if l.Kind == scheduler.KindRobots {
			if err := f.RobotsStore().PutRobots(l.Authority, []byte(`{"expires":"2999-01-01T00:00:00Z"}`)); err != nil {
				return err
			}
			f.SetRules(l.Authority, scheduler.Rules{})
		} else {
			if err := f.Wait(ctx, l.Authority); err != nil {
				return err
			}
			mu.Lock()
			*starts = append(*starts, time.Now())
			mu.Unlock()
			f.Release(l.Authority)
		}
		if err := f.Finish(l, scheduler.Result{Status: 200}); err != nil {
			return err
		}
	}
}

// paceAcrossProcesses runs two frontiers with two workers each on one
// host and checks no two request starts came closer than its pace.
func paceAcrossProcesses(t *testing.T, url string) {
	prefix := redistest.Prefix(t, url)
	a, b := open(t, url, prefix, 2*time.Second), open(t, url, prefix, 2*time.Second)
	addURLs(t, a, "http://pace.test", 8)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var mu sync.Mutex
	var starts []time.Time
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for _, f := range []*Frontier{a, b, a, b} {
		wg.Go(func() { errs <- work(ctx, f, &mu, &starts) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(starts) != 8 {
		t.Fatalf("%d requests started, want 8", len(starts))
	}
	sort.Slice(starts, func(i, j int) bool { return starts[i].Before(starts[j]) })
	for i := 1; i < len(starts); i++ {
		// Redis records each start on its own clock; the local clock sees
		// the answer a few milliseconds later at most.
		if gap := starts[i].Sub(starts[i-1]); gap < testPace-10*time.Millisecond {
			t.Errorf("starts %d and %d %s apart, pace %s", i-1, i, gap, testPace)
		}
	}
}

// TestTwoProcessesKeepHostPace protects the shared pace: two processes
// with two workers each never start requests to one host closer than its
// pace, and both drain once every URL is done.
func TestTwoProcessesKeepHostPace(t *testing.T) { paceAcrossProcesses(t, redistest.URL(t)) }

// TestClusterKeepsHostPace is the same on a Redis Cluster.
func TestClusterKeepsHostPace(t *testing.T) { paceAcrossProcesses(t, redistest.ClusterURL(t)) }

// TestSeenAcrossProcesses protects the shared seen set: a URL queued by
// one process is a duplicate for another, in any of its spellings.
func TestSeenAcrossProcesses(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	a, b := open(t, url, prefix, time.Second), open(t, url, prefix, time.Second)
	if sk, err := a.Add(scheduler.Candidate{URL: "http://seen.test/a", Seed: true}); err != nil || sk != nil {
		t.Fatalf("first add: %v %+v", err, sk)
	}
	sk, err := b.Add(scheduler.Candidate{URL: "HTTP://seen.test:80/./a#x", Seed: true})
	if err != nil || sk == nil || sk.Reason != scheduler.ReasonDuplicate {
		t.Fatalf("second add: %v %+v, want a duplicate", err, sk)
	}
	if seen, err := b.Seen("http://seen.test/a"); err != nil || !seen {
		t.Fatalf("Seen = %v, %v", seen, err)
	}
	if seen, _ := b.Seen("http://seen.test/b"); seen {
		t.Fatal("an unqueued URL is seen")
	}
	if st := b.Stats(); st.Queued != 1 || st.Hosts != 1 {
		t.Fatalf("stats %+v, want 1 queued on 1 host", st)
	}
}

// TestRobotsLeasedOncePerHost protects the single robots.txt fetch: while
// one process holds a host's robots lease, no process gets a lease of it.
func TestRobotsLeasedOncePerHost(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	a, b := open(t, url, prefix, 5*time.Second), open(t, url, prefix, 5*time.Second)
	addURLs(t, a, "http://robots.test", 3)
	l, err := a.Next(context.Background())
	if err != nil || l.Kind != scheduler.KindRobots {
		t.Fatalf("first lease %+v, %v: want the robots lease", l, err)
	}
	for _, f := range []*Frontier{a, b} {
		ctx, cancel := context.WithTimeout(context.Background(), 400*time.Millisecond)
		got, err := f.Next(ctx)
		cancel()
		if got != nil || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("while the robots lease is out: %+v, %v", got, err)
		}
	}
	if err := a.RobotsStore().PutRobots(l.Authority, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	a.SetRules(l.Authority, scheduler.Rules{})
	if err := a.Finish(l, scheduler.Result{}); err != nil {
		t.Fatal(err)
	}
	l2, err := b.Next(context.Background())
	if err != nil || l2.Kind != scheduler.KindPage || l2.URL != "http://robots.test/p0" {
		t.Fatalf("after the rules: %+v, %v: want the first page", l2, err)
	}
	if data, ok := b.RobotsStore().GetRobots(l.Authority); !ok || string(data) != "{}" {
		t.Fatalf("robots copy %q %v", data, ok)
	}
}

// TestExpiredLeaseReturns protects the takeover of a dead process's work:
// its lease expires, its URL returns to the front of its queue, the host's
// next start waits for the dead request's start + timeout + pace, and the
// dead process's late finish is refused.
func TestExpiredLeaseReturns(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	const lease = 300 * time.Millisecond
	a, b := open(t, url, prefix, lease), open(t, url, prefix, lease)
	addURLs(t, a, "http://dead.test", 2)
	ctx := context.Background()
	l := nextPage(t, a)
	if err := a.Wait(ctx, l.Authority); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	a.stop() // the process stalls: no renewal, no heartbeat
	a.wg.Wait()
	a.ctx = context.Background() // and wakes up later, to finish
	l2 := nextPage(t, b)
	if l2.URL != l.URL {
		t.Fatalf("taken over %s, want %s first", l2.URL, l.URL)
	}
	if err := b.Wait(ctx, l2.Authority); err != nil {
		t.Fatal(err)
	}
	if gap, want := time.Since(started), testConfig().RequestTimeout+testPace; gap < want-10*time.Millisecond {
		t.Errorf("next start %s after the dead request's, want start + timeout + pace = %s", gap, want)
	}
	if err := a.Finish(l, scheduler.Result{Status: 200}); err != nil {
		t.Fatalf("late finish: %v", err)
	}
	if a.local.stale != 1 {
		t.Fatalf("late finish not refused (stale %d)", a.local.stale)
	}
	if err := b.Finish(l2, scheduler.Result{Status: 200}); err != nil {
		t.Fatal(err)
	}
	if st := b.Stats(); st.Fetched != 1 || st.Queued != 1 || st.Leased != 0 {
		t.Fatalf("stats %+v: want 1 fetched, 1 queued, none leased", st)
	}
}

// nextPage returns f's next page lease, answering robots leases with
// empty rules.
func nextPage(t *testing.T, f *Frontier) *scheduler.Lease {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		l, err := f.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if l.Kind != scheduler.KindRobots {
			return l
		}
		if err := f.RobotsStore().PutRobots(l.Authority, []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		f.SetRules(l.Authority, scheduler.Rules{})
		if err := f.Finish(l, scheduler.Result{}); err != nil {
			t.Fatal(err)
		}
	}
}

// workers is one worker per frontier given, each running work until the
// frontier drains, recording the request starts.
type workers struct {
	mu     sync.Mutex
	starts []time.Time
	errs   chan error
}

// startWorkers starts one worker on each of fs.
func startWorkers(ctx context.Context, fs ...*Frontier) *workers {
	w := &workers{errs: make(chan error, len(fs))}
	for _, f := range fs {
		go func() { w.errs <- work(ctx, f, &w.mu, &w.starts) }()
	}
	return w
}

// wait waits for every worker and returns the first error.
func (w *workers) wait() error {
	var first error
	for range cap(w.errs) {
		if err := <-w.errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// TestCloseGivesBackLeases protects the other processes from waiting out
// the leases of a process that ends before finishing them: Close returns
// them at once, the URL first in its queue, and a request started and
// never answered still holds its host for start + timeout + pace.
func TestCloseGivesBackLeases(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	const lease = 20 * time.Second // far longer than the test waits
	a, b := open(t, url, prefix, lease), open(t, url, prefix, lease)
	addURLs(t, a, "http://ends.test", 2)
	ctx := context.Background()
	l := nextPage(t, a)
	if err := a.Wait(ctx, l.Authority); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	l2 := nextPage(t, b)
	if l2.URL != l.URL {
		t.Fatalf("given back %s, want %s first", l2.URL, l.URL)
	}
	if err := b.Wait(ctx, l2.Authority); err != nil {
		t.Fatal(err)
	}
	if gap, want := time.Since(started), testConfig().RequestTimeout+testPace; gap < want-slack {
		t.Errorf("next start %s after the unanswered one, want start + timeout + pace = %s", gap, want)
	}
	b.Release(l2.Authority)
	if err := b.Finish(l2, scheduler.Result{Status: 200}); err != nil {
		t.Fatal(err)
	}
	if st := b.Stats(); st.Leased != 0 || st.Queued != 1 {
		t.Fatalf("stats %+v: want none leased, 1 queued", st)
	}
}
