package scheduler

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/crawlproject/crawl/robots"
)

func TestHostStatusStatesAndPaceSources(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.BackoffBase = 30 * time.Second
		s, err := Open(cfg, NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		const a = "http://a.test:80"
		if st := s.Host(a); st != (HostStatus{}) {
			t.Errorf("unknown host %+v", st)
		}
		s.Add(Candidate{URL: "http://a.test/1"})
		s.Add(Candidate{URL: "http://a.test/2"})
		check := func(state, src string) {
			t.Helper()
			st := s.Host(a)
			if st.State != state || st.PaceSource != src {
				t.Errorf("at %s: %s %q, want %s %q", time.Since(epoch), st.State, st.PaceSource, state, src)
			}
		}
		check(StateActive, "default 10s (1996 rule of thumb)")
		l, _ := s.Next(ctx)
		s.Wait(ctx, a)
		s.SetRules(a, Rules{RequestRates: []robots.RequestRate{rrate(1, time.Minute, "", 3)}})
		s.Finish(l, Result{Status: 200})
		check(StateWaiting, "request-rate 1/1m (line 3)")
		time.Sleep(time.Minute)
		l, _ = s.Next(ctx)
		s.Wait(ctx, a)
		s.Observe(a, 503, time.Second, "300", nil)
		s.Finish(l, Result{Status: 503})
		// The pace is the interval between requests, still the
		// Request-rate's; the Retry-After is what the host waits for.
		check(StateBackingOff, "request-rate 1/1m (line 3)")
		if st := s.Host(a); st.BackoffReason != "retry-after 5m (Retry-After: 300)" {
			t.Errorf("backing off for %q, want the Retry-After", st.BackoffReason)
		}
		if st := s.Stats(); st.HostsBackingOff != 1 || st.Errors != 1 || st.Queued != 2 {
			t.Errorf("stats %+v", st)
		}
		time.Sleep(5 * time.Minute)
		for range 2 {
			l, _ = s.Next(ctx)
			if err := s.Wait(ctx, a); err != nil {
				t.Fatal(err)
			}
			s.Observe(a, 200, time.Second, "", nil)
			s.Finish(l, Result{Status: 200})
		}
		check(StateDone, "request-rate 1/1m (line 3)")
		if st := s.Stats(); st.Fetched != 2 || st.HostsDone != 1 || st.Retries != 1 {
			t.Errorf("stats %+v", st)
		}
	})
}

func TestWaitHonoursContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := Open(testConfig(), NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		const a = "http://a.test:80"
		s.Wait(context.Background(), a)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if err := s.Wait(ctx, a); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("wait: %v", err)
		}
		// The cancelled start stays spent: the next one is a full interval
		// after it (at 20 s), never sooner.
		s.Wait(context.Background(), a)
		if got := time.Since(epoch); got != 20*time.Second {
			t.Errorf("next start at %s, want 20s", got)
		}
	})
}

// TestDeferredByRetryAfterSaysSo: a 429 with Retry-After: 7200, beyond
// MaxWait, defers the host. Its status, its deferral and the skips of its
// queued URLs all name the Retry-After; its pace stays named by what sets
// the interval between requests (the back-off after the failure), not by
// the two-hour wait.
func TestDeferredByRetryAfterSaysSo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = 10 * time.Millisecond
		cfg.BackoffBase = 100 * time.Millisecond
		cfg.BackoffMax = time.Second
		cfg.Margin = time.Millisecond
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		const a = "http://a.test:80"
		f.respond = func(u string, _ int) response {
			if strings.HasSuffix(u, "/ra7200") {
				return response{Status: 429, RetryAfter: "7200"}
			}
			return response{Status: 200}
		}
		f.add("http://a.test/ra7200", "http://a.test/x")
		f.run(1)
		const want = "retry-after 2h (Retry-After: 7200)"
		st := f.s.Host(a)
		if st.State != StateDeferred || st.DeferReason != want || st.BackoffReason != want {
			t.Errorf("status %s, defer reason %q, back-off reason %q; want deferred by %q", st.State, st.DeferReason, st.BackoffReason, want)
		}
		if st.PaceSource != "back-off 100ms" || st.Interval != 101*time.Millisecond {
			t.Errorf("pace %s set by %q, want 101ms set by back-off 100ms", st.Interval, st.PaceSource)
		}
		if len(f.skips) != 2 {
			t.Fatalf("skips %+v, want both queued URLs deferred", f.skips)
		}
		for _, sk := range f.skips {
			if sk.Reason != ReasonBackoffDeferred || sk.Rule != want {
				t.Errorf("skip %+v, want backoff-deferred by %q", sk, want)
			}
		}
	})
}

// TestLastIntervalNamesTheRetryAfterThatHeldTheStart follows the crawl
// demo's /busy, which answers 429 with Retry-After: 2: the request that
// ends the Retry-After wait must not be logged with pace "1s (back-off
// 1s)", since the Retry-After held it 2 s after the previous one. The
// status read right after Wait names the interval in force for that start:
// 2 s set by the Retry-After. The pace for the requests after it
// (PaceSource) stays the back-off's, and the next start is paced by it
// again.
func TestLastIntervalNamesTheRetryAfterThatHeldTheStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.BackoffBase = time.Second
		s, err := Open(cfg, NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		const a = "http://a.test:80"
		step := func(status int, retryAfter string, wantAt, wantIv time.Duration, wantSrc string) {
			t.Helper()
			if err := s.Wait(ctx, a); err != nil {
				t.Fatal(err)
			}
			st := s.Host(a)
			if got := time.Since(epoch); got != wantAt {
				t.Errorf("start at %s, want %s", got, wantAt)
			}
			if st.LastInterval != wantIv || st.LastPaceSource != wantSrc {
				t.Errorf("at %s: interval in force %s set by %q, want %s set by %q", wantAt, st.LastInterval, st.LastPaceSource, wantIv, wantSrc)
			}
			s.Answered(a, time.Now())
			s.Observe(a, status, 0, retryAfter, nil)
		}
		if st := s.Host(a); st.LastInterval != 0 || st.LastPaceSource != "" {
			t.Errorf("before any start: %s %q", st.LastInterval, st.LastPaceSource)
		}
		step(200, "", 0, time.Second, "default 1s (configured)")
		step(429, "2", time.Second, time.Second, "default 1s (configured)")
		step(200, "", 3*time.Second, 2*time.Second, "retry-after 2s (Retry-After: 2)")
		if st := s.Host(a); st.PaceSource != "default 1s (configured)" || st.LastPaceSource != "retry-after 2s (Retry-After: 2)" {
			t.Errorf("after the success: pace %q, last start's %q", st.PaceSource, st.LastPaceSource)
		}
		step(200, "", 4*time.Second, time.Second, "default 1s (configured)")
	})
}

// TestLastIntervalNamesARetryAfterEqualToTheBackoff: a Retry-After equal
// to the back-off holds the next start as long as the back-off does (the
// start comes one margin later); the request is logged as held by the
// server's Retry-After, not by our back-off.
func TestLastIntervalNamesARetryAfterEqualToTheBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.BackoffBase = 2 * time.Second
		cfg.Margin = time.Millisecond
		s, err := Open(cfg, NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		const a = "http://a.test:80"
		if err := s.Wait(ctx, a); err != nil {
			t.Fatal(err)
		}
		s.Answered(a, time.Now())
		s.Observe(a, 429, 0, "2", nil)
		if err := s.Wait(ctx, a); err != nil {
			t.Fatal(err)
		}
		st := s.Host(a)
		if got := time.Since(epoch); got != 2*time.Second+time.Millisecond {
			t.Errorf("next start at %s, want 2.001s", got)
		}
		if st.LastPaceSource != "retry-after 2s (Retry-After: 2)" || st.LastInterval != 2*time.Second+time.Millisecond {
			t.Errorf("interval in force %s set by %q, want 2.001s by the Retry-After", st.LastInterval, st.LastPaceSource)
		}
	})
}

// TestLastIntervalIsTheCallersOwnStart: with two requests granted before
// the first one starts (a second Wait while the first still sleeps), the
// status read when the first one starts names its own interval (the
// Retry-After that held it), not the one granted after it.
func TestLastIntervalIsTheCallersOwnStart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.BackoffBase = time.Second
		cfg.PerHost = 2
		s, err := Open(cfg, NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		const a = "http://a.test:80"
		s.Wait(ctx, a)
		s.Observe(a, 429, 0, "3", nil) // no start before 3 s
		got := make(chan HostStatus, 2)
		wait := func() {
			if err := s.Wait(ctx, a); err != nil {
				t.Error(err)
			}
			got <- s.Host(a)
		}
		go wait()
		synctest.Wait() // the first caller sleeps until 3 s
		go wait()
		synctest.Wait() // the second one until 4 s
		first, second := <-got, <-got
		if first.LastInterval != 3*time.Second || first.LastPaceSource != "retry-after 3s (Retry-After: 3)" {
			t.Errorf("first start: %s set by %q, want 3s set by the Retry-After", first.LastInterval, first.LastPaceSource)
		}
		if second.LastInterval != time.Second || second.LastPaceSource != "default 1s (configured)" {
			t.Errorf("second start: %s set by %q, want 1s set by the default", second.LastInterval, second.LastPaceSource)
		}
	})
}

// TestBackingOffUnderTheMargin (a 503 without Retry-After, and with a
// Retry-After equal to backoff_base, under the crawler's default 1 ms
// margin): the back-off deadline is the answer's time plus the back-off,
// the next start the previous start plus the back-off interval plus the
// margin, 1 ms later. The host waits for its back-off all the same, and
// says so: it is backing off, for the reason the back-off was set, until
// its back-off has passed.
func TestBackingOffUnderTheMargin(t *testing.T) {
	for _, c := range []struct {
		name, retryAfter, reason string
	}{
		{"no Retry-After", "", "back-off 2s"},
		// On a tie the server's Retry-After names the wait.
		{"Retry-After equal to backoff_base", "2", "retry-after 2s (Retry-After: 2)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig()
				cfg.DefaultDelay = 200 * time.Millisecond
				cfg.BackoffBase = 2 * time.Second
				cfg.Margin = time.Millisecond
				s, err := Open(cfg, NewMemStore())
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				const a = "http://a.test:80"
				s.Add(Candidate{URL: "http://a.test/next"}) // not done: a URL waits for the back-off
				if err := s.Wait(context.Background(), a); err != nil {
					t.Fatal(err)
				}
				s.Answered(a, time.Now())
				s.Observe(a, 503, 0, c.retryAfter, nil)
				for _, at := range []time.Duration{0, time.Second, 2*time.Second - time.Millisecond} {
					time.Sleep(at - time.Since(epoch))
					st := s.Host(a)
					if st.State != StateBackingOff || st.BackoffReason != c.reason {
						t.Errorf("at %s: %s, back-off reason %q; want backing-off by %q", at, st.State, st.BackoffReason, c.reason)
					}
					if want := epoch.Add(2*time.Second + time.Millisecond); !st.NextAllowed.Equal(want) {
						t.Errorf("at %s: next start at %s, want %s", at, st.NextAllowed.Sub(epoch), want.Sub(epoch))
					}
				}
				time.Sleep(2*time.Second - time.Since(epoch))
				if st := s.Host(a); st.State != StateWaiting || st.BackoffReason != "" {
					t.Errorf("back-off over, 1 ms to the next start: %s, back-off reason %q; want waiting", st.State, st.BackoffReason)
				}
				if st := s.Stats(); st.HostsBackingOff != 0 || st.HostsWaiting != 1 {
					t.Errorf("stats %+v", st)
				}
			})
		})
	}
}
