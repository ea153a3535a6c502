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

// TestDeferredByRetryAfterSaysSo is the review's repro: a 429 with
// Retry-After: 7200, beyond MaxWait, defers the host. Its status, its
// deferral and the skips of its queued URLs all name the Retry-After; its
// pace stays named by what sets the interval between requests (the
// back-off after the failure), not by the two-hour wait.
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
