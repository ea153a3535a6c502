package scheduler

import (
	"context"
	"errors"
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
		check(StateBackingOff, "retry-after 5m (Retry-After: 300)")
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
