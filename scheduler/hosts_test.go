package scheduler

import (
	"context"
	"errors"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// TestMaxFailuresDropsHost: connection failures on MaxFailures different
// URLs in a row give the host up for the run; its URLs (the failed ones
// too) stay queued and are reported once, host-failing with Queued set,
// when the frontier drains; a URL found later is queued too, and no
// request to the host is let out.
func TestMaxFailuresDropsHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.BackoffBase = time.Second
		cfg.MaxFailures = 3
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.respond = func(u string, _ int) response {
			if u == "http://b.test/ok" {
				return response{Status: 200}
			}
			return response{Err: syscall.ECONNRESET}
		}
		f.add(urls("http://a.test", 50)...) // more than the RAM head holds
		f.add("http://b.test/ok")
		f.run(2)
		if n := len(f.pages()); n != 3+1 {
			t.Errorf("%d page fetches, want 3 to a.test and 1 to b.test", n)
		}
		st := f.s.Host("http://a.test:80")
		if st.State != StateDropped || st.Queued != 50 || !strings.Contains(st.DropReason, "3 different URLs") {
			t.Errorf("a.test %+v, want dropped with all 50 URLs still queued", st)
		}
		reasons := map[Reason]int{}
		for _, sk := range f.skips {
			if sk.Queued {
				reasons[sk.Reason]++
			}
		}
		if reasons[ReasonHostFailing] != 50 || len(f.skips) != 50 {
			t.Errorf("skips %v, want all 50 a.test URLs host-failing and queued", reasons)
		}
		sk, err := f.s.Add(Candidate{URL: "http://a.test/late"})
		if err != nil || sk != nil || f.s.Host("http://a.test:80").Queued != 51 {
			t.Errorf("add to a host given up: %+v %v, want it queued", sk, err)
		}
		var we *WaitError
		if err := f.s.Wait(context.Background(), "http://a.test:80"); !errors.As(err, &we) || !errors.Is(err, ErrHostDropped) {
			t.Errorf("wait on dropped host: %v", err)
		}
	})
}

func TestFetchFailedAfterMaxAttempts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.BackoffBase = time.Second
		cfg.MaxFailures = 2
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.respond = func(u string, n int) response {
			if u == "http://a.test/bad" {
				return response{Status: 500}
			}
			return response{Status: 200}
		}
		f.add("http://a.test/bad", "http://a.test/good1", "http://a.test/good2")
		f.run(1)
		var failed []string
		for _, sk := range f.skips {
			if sk.Reason == ReasonFetchFailed {
				failed = append(failed, sk.URL)
			}
		}
		if !slices.Equal(failed, []string{"http://a.test/bad"}) {
			t.Errorf("fetch-failed skips %v", f.skips)
		}
		if st := f.s.Host("http://a.test:80"); st.State != StateDone || st.Fetched != 2 {
			t.Errorf("host %+v", st)
		}
	})
}

func TestCrawlDelayBeyondMaxWaitDefers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, testConfig(), NewMemStore()) // wait policy, MaxWait 1h
		defer f.s.Close()
		f.rules["http://a.test:80"] = Rules{CrawlDelay: 2 * time.Hour, HasCrawlDelay: true, CrawlDelayLine: 7}
		f.add(urls("http://a.test", 2)...)
		f.run(1)
		if len(f.pages()) != 0 {
			t.Errorf("pages %v, want none within MaxWait", f.pages())
		}
		st := f.s.Host("http://a.test:80")
		if st.State != StateDeferred || !st.DeferredUntil.Equal(epoch.Add(2*time.Hour)) || st.Queued != 2 {
			t.Errorf("host %+v", st)
		}
		// One skip per queued URL, naming the Crawl-delay line.
		if len(f.skips) != 2 {
			t.Errorf("skips %+v, want one per queued URL", f.skips)
		}
		for i, sk := range f.skips {
			if sk.URL != urls("http://a.test", 2)[i] || sk.Reason != ReasonCrawlDelayTooLong || sk.Rule != "Crawl-delay: 7200" || sk.Line != 7 ||
				!strings.Contains(sk.Detail, "until 2000-01-01T02:00:00Z") || !strings.Contains(sk.Detail, "stays queued for the next run") {
				t.Errorf("skip %d = %+v", i, sk)
			}
		}
		var we *WaitError
		if err := f.s.Wait(context.Background(), "http://a.test:80"); !errors.As(err, &we) || !errors.Is(err, ErrWaitTooLong) || !we.Until.Equal(epoch.Add(2*time.Hour)) {
			t.Errorf("wait: %v", err)
		}
	})
}

func TestCrawlDelayPolicies(t *testing.T) {
	for _, tc := range []struct {
		policy  string
		pages   int
		gap     time.Duration
		skipped int
	}{
		{PolicyWait, 2, 5 * time.Minute, 0},
		{PolicyClamp, 2, time.Minute, 0},
		{PolicySkip, 0, 0, 2},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig()
				cfg.CrawlDelayPolicy = tc.policy
				cfg.MaxCrawlDelay = time.Minute
				f := newFake(t, cfg, NewMemStore())
				defer f.s.Close()
				f.rules["http://a.test:80"] = Rules{CrawlDelay: 5 * time.Minute, HasCrawlDelay: true, CrawlDelayLine: 4}
				f.add(urls("http://a.test", 2)...)
				f.run(1)
				p := f.pages()
				if len(p) != tc.pages || (tc.pages == 2 && p[1].Sub(p[0]) != tc.gap) {
					t.Errorf("starts %v, want %d pages %s apart", p, tc.pages, tc.gap)
				}
				n := 0
				for _, sk := range f.skips {
					if sk.Reason == ReasonCrawlDelayTooLong && sk.Line == 4 && sk.Rule == "Crawl-delay: 300" {
						n++
					}
				}
				if n != tc.skipped {
					t.Errorf("skips %+v, want %d crawl-delay-too-long", f.skips, tc.skipped)
				}
				st := f.s.Host("http://a.test:80")
				if tc.policy == PolicyClamp && (st.Warning == "" || st.PaceSource != "crawl-delay 1m clamped from 5m (line 4)") {
					t.Errorf("clamp status %+v", st)
				}
			})
		})
	}
}

func TestPerHostInFlightLimit(t *testing.T) {
	for _, per := range []int{1, 2} {
		synctest.Test(t, func(t *testing.T) {
			cfg := testConfig()
			cfg.DefaultDelay = 0
			cfg.PerHost = per
			f := newFake(t, cfg, NewMemStore())
			defer f.s.Close()
			f.respond = func(string, int) response { return response{Status: 200, Dur: 10 * time.Second} }
			f.add(urls("http://a.test", 6)...)
			f.run(4)
			if got := f.maxIn["http://a.test:80"]; got != per {
				t.Errorf("PerHost %d: max in flight %d", per, got)
			}
			// robots takes 0 s, then 6 pages of 10 s in batches of per.
			if want := time.Duration(60/per) * time.Second; time.Since(epoch) != want {
				t.Errorf("PerHost %d: took %s, want %s", per, time.Since(epoch), want)
			}
		})
	}
}

func TestWorkersNeverStuckOnWaitingHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = 0
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.rules["http://slow.test:80"] = Rules{CrawlDelay: 100 * time.Second, HasCrawlDelay: true}
		f.add(urls("http://slow.test", 2)...)
		f.add(urls("http://fast.test", 5)...)
		f.run(1) // a single worker
		var fast []time.Duration
		for _, x := range f.fetches {
			if x.Kind == KindPage && x.URL[7] == 'f' {
				fast = append(fast, x.T.Sub(epoch))
			}
		}
		if !slices.Equal(fast, []time.Duration{0, 0, 0, 0, 0}) {
			t.Errorf("fast host starts %v, want all at 0 while slow host waits", fast)
		}
		if time.Since(epoch) != 200*time.Second {
			t.Errorf("took %s, want 200s (slow host: robots 0, pages 100 s, 200 s)", time.Since(epoch))
		}
	})
}

func TestWaitRefusesParkedHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := Open(testConfig(), NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.SetRules("http://a.test:80", Rules{VisitTimes: []robots.Window{win("0600", "0845")}})
		var we *WaitError
		err = s.Wait(context.Background(), "http://a.test:80")
		if !errors.As(err, &we) || !errors.Is(err, ErrParked) || !we.Until.Equal(at(t, "06:00:00")) {
			t.Fatalf("wait at 00:00: %v", err)
		}
		sleepUntil(at(t, "06:00:00"))
		if err := s.Wait(context.Background(), "http://a.test:80"); err != nil {
			t.Fatalf("wait at 06:00: %v", err)
		}
		// With 10 s default pace, a start at 08:45:55 would end past the
		// window: the next start would be at 08:46:05, so it is parked.
		sleepUntil(at(t, "08:45:55"))
		if err := s.Wait(context.Background(), "http://a.test:80"); err != nil {
			t.Fatalf("wait at 08:45:55: %v", err)
		}
		if err := s.Wait(context.Background(), "http://a.test:80"); !errors.Is(err, ErrParked) {
			t.Fatalf("second wait at 08:45:55: %v, want parked", err)
		}
	})
}

func TestWaitIsTheChokePoint(t *testing.T) {
	// Several transports (robots, redirects, pages) calling Wait at once on
	// one host get starts one interval apart.
	synctest.Test(t, func(t *testing.T) {
		s, err := Open(testConfig(), NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.SetRules("http://a.test:80", Rules{CrawlDelay: 3 * time.Second, HasCrawlDelay: true})
		starts := make(chan time.Duration, 4)
		for range 4 {
			go func() {
				if err := s.Wait(context.Background(), "http://a.test:80"); err != nil {
					t.Error(err)
				}
				starts <- time.Since(epoch)
			}()
		}
		var got []time.Duration
		for range 4 {
			got = append(got, <-starts)
		}
		slices.Sort(got)
		want := []time.Duration{0, 3 * time.Second, 6 * time.Second, 9 * time.Second}
		if !slices.Equal(got, want) {
			t.Errorf("starts %v, want %v", got, want)
		}
	})
}

func TestRobotsUnreachableDropsAfterMaxFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.MaxFailures = 2
		var skips []Skip
		cfg.OnSkip = func(sk Skip) { skips = append(skips, sk) }
		s, err := Open(cfg, NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.Add(Candidate{URL: "http://a.test/1"})
		s.Add(Candidate{URL: "http://a.test/2"})
		ctx := context.Background()
		l, err := s.Next(ctx)
		if err != nil || l.Kind != KindRobots || l.URL != "http://a.test/robots.txt" {
			t.Fatalf("first lease %+v %v", l, err)
		}
		s.Observe(l.Authority, 503, 0, "", nil) // as the transport does: a back-off
		s.RulesFailed(l.Authority, time.Now().Add(time.Minute))
		s.Finish(l, Result{Status: 503})
		l, err = s.Next(ctx)
		if err != nil || l.Kind != KindRobots || time.Since(epoch) != time.Minute {
			t.Fatalf("second lease %+v %v at %s, want robots again at 1m", l, err, time.Since(epoch))
		}
		s.Observe(l.Authority, 503, 0, "", nil)
		s.RulesFailed(l.Authority, time.Now().Add(time.Minute))
		s.Finish(l, Result{Status: 503})
		if _, err := s.Next(ctx); !errors.Is(err, ErrDrained) {
			t.Fatalf("next after drop: %v", err)
		}
		if len(skips) != 2 || skips[0].Reason != ReasonRobotsUnreachable {
			t.Errorf("skips %+v", skips)
		}
		// A drop is final for the run: no next start, no back-off to
		// wait for, although the last 503 set one.
		st := s.Host(l.Authority)
		if st.State != StateDropped || !st.NextAllowed.IsZero() || st.BackoffReason != "" || st.DeferReason != "" {
			t.Errorf("dropped host status %+v, want dropped with no next start and no back-off", st)
		}
	})
}

func TestRobotsLeaseHoldsPagesAndExpireRules(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = 0
		s, err := Open(cfg, NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		for _, u := range urls("http://a.test", 3) {
			s.Add(Candidate{URL: u})
		}
		r, _ := s.Next(ctx)
		if r.Kind != KindRobots {
			t.Fatalf("lease %+v, want robots first", r)
		}
		// No page lease while robots is outstanding.
		cctx, cancel := context.WithTimeout(ctx, time.Hour)
		if l, err := s.Next(cctx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("page lease %+v before robots known", l)
		}
		cancel()
		s.SetRules(r.Authority, Rules{})
		s.Finish(r, Result{Status: 200})
		p, _ := s.Next(ctx)
		if p.Kind != KindPage || p.URL != "http://a.test/p0" {
			t.Fatalf("lease %+v", p)
		}
		s.ExpireRules(p.Authority)
		s.Finish(p, Result{Status: 200})
		r2, _ := s.Next(ctx)
		if r2.Kind != KindRobots {
			t.Fatalf("after ExpireRules got %+v, want a robots lease", r2)
		}
	})
}

// TestDeferredByRobotsRetryIsSaid: a host whose robots.txt was unreachable
// waits for its retry (RFC 9309 2.4); past MaxWait it is deferred, and its
// status names that retry, as its skips do, not the back-off interval the
// failed request also set (never "deferred until +30s (back-off 2s)").
func TestDeferredByRobotsRetryIsSaid(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.MaxWait = 10 * time.Second
		cfg.BackoffBase = 2 * time.Second
		s, err := Open(cfg, NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.Add(Candidate{URL: "http://a.test/1"})
		l, err := s.Next(context.Background())
		if err != nil || l.Kind != KindRobots {
			t.Fatalf("first lease %+v %v", l, err)
		}
		s.Observe(l.Authority, 0, 0, "", errors.New("connection refused"))
		s.RulesFailed(l.Authority, time.Now().Add(30*time.Second))
		s.Finish(l, Result{})
		st := s.Host(l.Authority)
		if st.State != StateDeferred || st.DeferReason != "robots.txt retry after 1 failure" {
			t.Errorf("status %s, deferred by %q; want deferred by the robots.txt retry", st.State, st.DeferReason)
		}
	})
}

// TestWaitHopCountsAmongRequestsInFlight: a request no lease of the host
// stands for (a robots.txt redirect hop from another host) waits while
// PerHost requests are in flight to the host, and the host's own request
// waits while hops fill its places, so N hosts redirecting their robots.txt
// to one never send it N requests at once. A lease waiting for its pace
// holds no place, so two hosts whose robots.txt redirect to each other both
// get their hop instead of hanging the crawl.
func TestWaitHopCountsAmongRequestsInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = 0
		s, err := Open(cfg, NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		const a, b = "http://a.test:80", "http://b.test:80"
		done := func(ch chan error) bool {
			synctest.Wait()
			select {
			case err := <-ch:
				if err != nil {
					t.Fatal(err)
				}
				return true
			default:
				return false
			}
		}
		// B's own request is in flight: a hop to B waits for it.
		if err := s.Wait(ctx, b); err != nil {
			t.Fatal(err)
		}
		hop := make(chan error, 1)
		go func() { hop <- s.WaitHop(ctx, b) }()
		if done(hop) {
			t.Fatal("a hop went out with B's request in flight")
		}
		s.Release(b)
		if !done(hop) {
			t.Fatal("the hop still waits after B's request ended")
		}
		// The hop is in flight: B's next request waits for it.
		own := make(chan error, 1)
		go func() { own <- s.Wait(ctx, b) }()
		if done(own) {
			t.Fatal("B's request went out with a hop to B in flight")
		}
		s.ReleaseHop(b)
		if !done(own) {
			t.Fatal("B's request still waits after the hop ended")
		}
		s.Release(b)
		// Hops both ways, with nothing in flight: neither waits.
		toA, toB := make(chan error, 1), make(chan error, 1)
		go func() { toA <- s.WaitHop(ctx, a) }()
		go func() { toB <- s.WaitHop(ctx, b) }()
		if !done(toA) || !done(toB) {
			t.Fatal("hops between two idle hosts wait")
		}
	})
}

// TestReleasedPlaceGoesToOneRequest: requests woken by one Release take the
// freed place one at a time; the place is taken under the lock that saw it
// free, before the start is made durable (which lets the lock go). Counted
// after, every hop woken got through, and never more than per_host 1 were
// in flight at once.
func TestReleasedPlaceGoesToOneRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = 10 * time.Millisecond // starts are made durable
		s, err := Open(cfg, slowApplyStore{NewMemStore()})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		const b = "http://b.test:80"
		if err := s.Wait(ctx, b); err != nil {
			t.Fatal(err)
		}
		hops := make(chan error, 3)
		for range 3 {
			go func() { hops <- s.WaitHop(ctx, b) }()
		}
		synctest.Wait()
		if len(hops) != 0 {
			t.Fatalf("%d hops went out with B's request in flight", len(hops))
		}
		s.Release(b)
		for want := 1; want <= 3; want++ {
			time.Sleep(time.Second) // past every pace
			synctest.Wait()
			if len(hops) != 1 {
				t.Fatalf("after %d releases, %d hops out at once; per_host is 1", want, len(hops))
			}
			if err := <-hops; err != nil {
				t.Fatal(err)
			}
			s.ReleaseHop(b)
		}
	})
}

// slowApplyStore takes 50 ms (of fake time) to apply each batch, as a disk
// store syncing does: the scheduler's lock is let go while a start is made
// durable.
type slowApplyStore struct{ Store }

func (s slowApplyStore) Apply(ops []Op) error {
	time.Sleep(50 * time.Millisecond)
	return s.Store.Apply(ops)
}
