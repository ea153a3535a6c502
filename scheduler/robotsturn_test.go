package scheduler

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// TestResumedHostNamesItsRobotsRule: a host paced by Crawl-delay: 0.5 (line
// 3) and deferred by its Visit-time in a rerun. The restored interval is
// its pace until the rules are known; the rerun reads robots.txt at once
// (from the crawler's cache in a real crawl: robots.txt is not a page,
// Visit-time does not hold it back), and from then on the host's pace names
// the robots rule and its deferral the Visit-time.
func TestResumedHostNamesItsRobotsRule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := NewMemStore()
		cfg := testConfig()
		const a = "http://a.test:80"
		rules := Rules{CrawlDelay: 500 * time.Millisecond, HasCrawlDelay: true, CrawlDelayLine: 3,
			VisitTimes: []robots.Window{{From: 0, To: 0, Line: 4}}} // 00:00-00:00 UTC
		f := newFake(t, cfg, store)
		f.rules[a] = rules
		f.add(urls("http://a.test", 2)...)
		f.run(1)
		if st := f.s.Host(a); st.State != StateDone || st.PaceSource != "crawl-delay 500ms (line 3)" {
			t.Fatalf("first run: %s, pace %q", st.State, st.PaceSource)
		}
		if err := f.s.Close(); err != nil {
			t.Fatal(err)
		}
		sleepUntil(at(t, "00:01:00")) // the window is closed until tomorrow
		g := newFake(t, cfg, store)
		defer g.s.Close()
		g.rules[a] = rules
		if sk, err := g.s.Add(Candidate{URL: "http://a.test/more"}); sk != nil || err != nil {
			t.Fatal(sk, err)
		}
		if st := g.s.Host(a); st.PaceSource != "previous run's interval 500ms (until robots.txt is read)" {
			t.Errorf("rerun before robots.txt: pace %q, want the previous run's interval", st.PaceSource)
		}
		g.run(1)
		if len(g.fetches) != 1 || g.fetches[0].Kind != KindRobots || !g.fetches[0].T.Equal(at(t, "00:01:00")) {
			t.Errorf("rerun fetched %+v, want only robots.txt at 00:01:00", g.fetches)
		}
		st := g.s.Host(a)
		if st.State != StateDeferred || st.PaceSource != "crawl-delay 500ms (line 3)" || st.DeferReason != "visit-time 00:00-00:00" {
			t.Errorf("rerun: %s, pace %q, deferred by %q; want deferred by visit-time 00:00-00:00, pace crawl-delay 500ms (line 3)", st.State, st.PaceSource, st.DeferReason)
		}
		if len(g.skips) != 1 || g.skips[0].Reason != ReasonVisitTimeDeferred {
			t.Errorf("rerun skips %+v, want /more visit-time-deferred", g.skips)
		}
	})
}

// TestDryRunReadsRobotsOfParkedHost: a dry run on the frontier of a crawl
// in which a host was deferred by its Visit-time asks Wait for the host's
// robots.txt without a lease. robots.txt is not a page: the request is
// granted outside the windows, after the pace the host's last request set
// (Crawl-delay 2 s); a Retry-After still holds it back. Once the rules are
// set again, a page request is parked.
func TestDryRunReadsRobotsOfParkedHost(t *testing.T) {
	for _, tc := range []struct {
		name       string
		retryAfter string
		want       error
		wantAt     time.Duration // start of the dry run's robots.txt
	}{
		{name: "visit-time only", wantAt: 2 * time.Second},
		{name: "retry-after beyond max wait", retryAfter: "7200", want: ErrWaitTooLong},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				store := NewMemStore()
				cfg := testConfig()
				const a = "http://a.test:80"
				ctx := context.Background()
				rules := Rules{CrawlDelay: 2 * time.Second, HasCrawlDelay: true, CrawlDelayLine: 2,
					VisitTimes: []robots.Window{win("1200", "1259")}}
				s, err := Open(cfg, store)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Wait(ctx, a); err != nil { // the first run's robots.txt at 0 s
					t.Fatal(err)
				}
				s.SetRules(a, rules)
				if tc.retryAfter != "" {
					s.Observe(a, 503, 0, tc.retryAfter, nil)
				}
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				time.Sleep(500 * time.Millisecond)
				d, err := Open(cfg, store)
				if err != nil {
					t.Fatal(err)
				}
				defer d.Close()
				err = d.Wait(ctx, a)
				if !errors.Is(err, tc.want) {
					t.Fatalf("dry run's robots.txt: %v, want %v", err, tc.want)
				}
				if err != nil {
					return
				}
				if got := time.Since(epoch); got != tc.wantAt {
					t.Errorf("dry run's robots.txt at %s, want %s", got, tc.wantAt)
				}
				d.SetRules(a, rules)
				if err := d.Wait(ctx, a); !errors.Is(err, ErrParked) {
					t.Errorf("page request after the rules: %v, want parked", err)
				}
			})
		})
	}
}

// TestExpiredRulesReadOutsideVisitTime: robots.txt whose copy expired while
// the host's Visit-time window is closed is read again at once, not when
// the window opens; the page waits for the window.
func TestExpiredRulesReadOutsideVisitTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.MaxWait = 24 * time.Hour
		s, err := Open(cfg, NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		const a = "http://a.test:80"
		rules := Rules{VisitTimes: []robots.Window{win("0600", "0845")}}
		s.SetRules(a, rules)
		if sk, err := s.Add(Candidate{URL: "http://a.test/p"}); sk != nil || err != nil {
			t.Fatal(sk, err)
		}
		sleepUntil(at(t, "09:00:00"))
		s.ExpireRules(a)
		l, err := s.Next(ctx)
		if err != nil || l.Kind != KindRobots || !time.Now().Equal(at(t, "09:00:00")) {
			t.Fatalf("lease %+v %v at %s, want robots.txt at 09:00", l, err, time.Since(epoch))
		}
		if err := s.Wait(ctx, a); err != nil {
			t.Fatalf("robots.txt at 09:00: %v", err)
		}
		s.SetRules(a, rules)
		s.Finish(l, Result{Status: 200})
		if st := s.Host(a); st.State != StateParked || !st.NextAllowed.Equal(at(t, "06:00:00").Add(24*time.Hour)) {
			t.Errorf("page: %s until %s, want parked until tomorrow 06:00", st.State, st.NextAllowed)
		}
	})
}
