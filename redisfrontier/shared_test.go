package redisfrontier

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/redistest"
	"github.com/crawlproject/crawl/scheduler"
)

// slack is how much sooner than a deadline set on Redis's clock the local
// clock may see a start: both are this machine's clock, read a few
// milliseconds apart.
const slack = 10 * time.Millisecond

// twoProcesses opens two frontiers on one prefix with cfg.
func twoProcesses(t *testing.T, cfg scheduler.Config) (a, b *Frontier) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	return openCfg(t, url, prefix, 5*time.Second, cfg), openCfg(t, url, prefix, 5*time.Second, cfg)
}

// TestBackoffSeenByOtherProcess protects the shared back-off: after one
// process observes a 429 with Retry-After or a 503, the other process's
// next start to the host waits for the Retry-After in full, or for the
// back-off.
func TestBackoffSeenByOtherProcess(t *testing.T) {
	for _, tc := range []struct {
		status     int
		retryAfter string
		want       time.Duration
	}{
		{429, "1", time.Second},
		{503, "", time.Second},
	} {
		// Waits of a second or more: the other process reads the host's
		// state well within them, however busy the machine.
		cfg := testConfig()
		cfg.BackoffBase, cfg.BackoffMax = time.Second, 5*time.Second
		a, b := twoProcesses(t, cfg)
		addURLs(t, a, "http://busy.test", 2)
		l := nextPage(t, a)
		ctx := context.Background()
		if err := a.Wait(ctx, l.Authority); err != nil {
			t.Fatal(err)
		}
		observed := time.Now()
		a.Observe(l.Authority, tc.status, 5*time.Millisecond, tc.retryAfter, nil)
		a.Release(l.Authority)
		if err := a.Finish(l, scheduler.Result{Status: tc.status}); err != nil {
			t.Fatal(err)
		}
		if st := b.Host(l.Authority).State; st != scheduler.StateBackingOff {
			t.Errorf("%d: the other process sees the host %s, want %s", tc.status, st, scheduler.StateBackingOff)
		}
		l2 := nextPage(t, b)
		if err := b.Wait(ctx, l2.Authority); err != nil {
			t.Fatal(err)
		}
		if gap := time.Since(observed); gap < tc.want-slack {
			t.Errorf("%d: the other process started %s after the answer, want %s", tc.status, gap, tc.want)
		}
		b.Release(l2.Authority)
		if err := b.Finish(l2, scheduler.Result{Status: 200}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRobotsFailureShared protects the shared robots.txt retry: after one
// process's robots.txt fetch fails, no process is given the host's robots
// lease before the retry time, and MaxFailures failures in a row, in any
// processes, give the host up for the run (robots-unreachable).
func TestRobotsFailureShared(t *testing.T) {
	cfg := testConfig()
	cfg.MaxFailures = 2
	a, b := twoProcesses(t, cfg)
	addURLs(t, a, "http://norobots.test", 2)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l, err := a.Next(ctx)
	if err != nil || l.Kind != scheduler.KindRobots {
		t.Fatalf("first lease %+v, %v: want the robots lease", l, err)
	}
	retryAt := time.Now().Add(500 * time.Millisecond)
	a.RulesFailed(l.Authority, retryAt)
	if err := a.Finish(l, scheduler.Result{Status: 500}); err != nil {
		t.Fatal(err)
	}
	l2, err := b.Next(ctx)
	if err != nil || l2.Kind != scheduler.KindRobots {
		t.Fatalf("second lease %+v, %v: want the robots lease again", l2, err)
	}
	if early := retryAt.Sub(time.Now()); early > slack {
		t.Errorf("the robots lease came %s before its retry time", early)
	}
	b.RulesFailed(l2.Authority, time.Now().Add(time.Second))
	if err := b.Finish(l2, scheduler.Result{Status: 500}); err != nil {
		t.Fatal(err)
	}
	hs := a.Host(l.Authority)
	if hs.State != scheduler.StateDropped || !strings.HasPrefix(hs.DropReason, string(scheduler.ReasonRobotsUnreachable)) {
		t.Fatalf("host %s (%s) after %d failures, want dropped robots-unreachable", hs.State, hs.DropReason, cfg.MaxFailures)
	}
	if _, err := a.Next(ctx); !errors.Is(err, scheduler.ErrDrained) {
		t.Fatalf("Next = %v, want drained: the dropped host has nothing to give", err)
	}
}

// TestHostFailingShared protects the shared give-up: connection failures
// on MaxFailures different URLs in a row, in different processes, drop
// the host for every process; a Wait for it is then refused.
func TestHostFailingShared(t *testing.T) {
	cfg := testConfig()
	cfg.MaxFailures = 2
	a, b := twoProcesses(t, cfg)
	addURLs(t, a, "http://failing.test", 3)
	ctx := context.Background()
	fail := scheduler.Result{Err: errors.New("read tcp: connection reset by peer")}
	la := nextPage(t, a)
	if err := a.Finish(la, fail); err != nil {
		t.Fatal(err)
	}
	lb := nextPage(t, b)
	if lb.URL == la.URL {
		t.Fatalf("the failed URL %s came back first", lb.URL)
	}
	if err := b.Finish(lb, fail); err != nil {
		t.Fatal(err)
	}
	hs := a.Host(la.Authority)
	if hs.State != scheduler.StateDropped || !strings.HasPrefix(hs.DropReason, "host-failing") {
		t.Fatalf("host %s (%q), want dropped host-failing", hs.State, hs.DropReason)
	}
	if err := a.Wait(ctx, la.Authority); !errors.Is(err, scheduler.ErrHostDropped) {
		t.Fatalf("Wait = %v, want %v", err, scheduler.ErrHostDropped)
	}
	if st := b.Stats(); st.HostsDropped != 1 || st.Queued != 3 {
		t.Fatalf("stats %+v: want one host dropped, its 3 URLs kept queued", st)
	}
}

// TestProgressListsChangedHosts protects Progress: it lists the hosts this
// process changed whose state moved since the previous call, once, and
// Hosts lists every host of the crawl, whichever process added it.
func TestProgressListsChangedHosts(t *testing.T) {
	a, b := twoProcesses(t, testConfig())
	addURLs(t, a, "http://one.test", 1)
	addURLs(t, b, "http://two.test", 1)
	_, moved := a.Progress()
	if len(moved) != 1 || moved[0].Authority != "http://one.test:80" || moved[0].Queued != 1 {
		t.Fatalf("first progress lists %+v, want one.test:80 with 1 queued", moved)
	}
	if _, again := a.Progress(); len(again) != 0 {
		t.Fatalf("unchanged hosts listed again: %+v", again)
	}
	l := nextPage(t, a)
	if err := a.Finish(l, scheduler.Result{Status: 200}); err != nil {
		t.Fatal(err)
	}
	// a may have read two.test's robots.txt on the way: it touched it.
	_, moved = a.Progress()
	if i := slices.IndexFunc(moved, func(h scheduler.HostStatus) bool { return h.Authority == "http://one.test:80" }); i < 0 || moved[i].State != scheduler.StateDone {
		t.Fatalf("after the fetch, progress lists %+v, want one.test:80 done", moved)
	}
	hs := b.Hosts()
	if len(hs) != 2 || hs[0].Authority != "http://one.test:80" || hs[1].Authority != "http://two.test:80" || hs[1].Queued != 1 {
		t.Fatalf("hosts %+v, want one.test:80 and two.test:80 (1 queued)", hs)
	}
}
