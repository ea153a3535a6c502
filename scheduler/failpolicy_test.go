package scheduler

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

var (
	errRefused = fmt.Errorf("dial tcp 127.0.0.1:1: connect: %w", syscall.ECONNREFUSED)
	errReset   = fmt.Errorf("read tcp: %w", syscall.ECONNRESET)
)

// TestClassifyChargesFailuresWhereTheyBelong: the outcome of a request by
// status and error, as the failure policy's table reads.
func TestClassifyChargesFailuresWhereTheyBelong(t *testing.T) {
	for _, tc := range []struct {
		status int
		err    error
		want   Outcome
	}{
		{200, nil, OutcomeAnswer},
		{301, nil, OutcomeAnswer},
		{404, nil, OutcomeAnswer},
		{410, nil, OutcomeAnswer},
		{500, nil, OutcomeServerError},
		{502, nil, OutcomeServerError},
		{504, nil, OutcomeServerError},
		{503, nil, OutcomeOverload},
		{429, nil, OutcomeOverload},
		{200, context.DeadlineExceeded, OutcomeCut},
		{200, errReset, OutcomeCut},
		{0, context.DeadlineExceeded, OutcomeNoAnswer},
		{0, errReset, OutcomeNoAnswer},
		{0, &net.DNSError{Err: "i/o timeout", Name: "a.test", IsTimeout: true}, OutcomeNoAnswer},
		{0, errRefused, OutcomeUnreachable},
		{0, &net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "a.test", IsNotFound: true}}, OutcomeUnreachable},
		{0, fmt.Errorf("dial: %w", syscall.EHOSTUNREACH), OutcomeUnreachable},
	} {
		if got := Classify(tc.status, tc.err); got != tc.want {
			t.Errorf("Classify(%d, %v) = %s, want %s", tc.status, tc.err, got, tc.want)
		}
	}
}

// TestServerErrorNeverSlowsTheHost: a URL that always answers 500 is
// requested 1+Retries times, each retry behind the host's other URLs; the
// host keeps its pace (no back-off), is charged nothing, and the URL ends
// as fetch-failed with its attempts and last error.
func TestServerErrorNeverSlowsTheHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.BackoffBase = 10 * time.Second
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.respond = func(u string, _ int) response {
			if u == "http://a.test/p0" {
				return response{Status: 500}
			}
			return response{Status: 200}
		}
		f.add(urls("http://a.test", 5)...)
		f.run(1)
		var order []string
		for _, x := range f.fetches {
			if x.Kind != KindRobots {
				order = append(order, strings.TrimPrefix(x.URL, "http://a.test/"))
			}
		}
		if want := []string{"p0", "p1", "p2", "p3", "p4", "p0", "p0"}; !slices.Equal(order, want) {
			t.Errorf("requests %v, want %v: each retry behind the other URLs", order, want)
		}
		for i, g := range gaps(f.pages()) {
			if g != time.Second {
				t.Errorf("gap %d is %s, want the 1 s pace: a 500 backs nothing off", i, g)
			}
		}
		if len(f.skips) != 1 {
			t.Fatalf("skips %+v, want one fetch-failed", f.skips)
		}
		sk := f.skips[0]
		if sk.URL != "http://a.test/p0" || sk.Reason != ReasonFetchFailed || sk.Attempts != 3 || sk.LastError != "HTTP 500" ||
			sk.Detail != "3 attempts, last: HTTP 500" || sk.Queued {
			t.Errorf("skip %+v, want fetch-failed after 3 attempts, last HTTP 500", sk)
		}
		st := f.s.Host("http://a.test:80")
		if st.State != StateDone || st.Failures != 0 || st.DropReason != "" {
			t.Errorf("host %+v, want done and charged nothing", st)
		}
		if s := f.s.Stats(); s.Errors != 3 || s.Retries != 2 || s.Fetched != 4 {
			t.Errorf("stats %+v, want 3 errors, 2 retries, 4 fetched", s)
		}
	})
}

// TestHTTPStatusesNeverDropAHost: however many of a host's URLs answer
// 5xx in a row, the host is not given up; each URL is retried and then
// reported fetch-failed.
func TestHTTPStatusesNeverDropAHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.MaxFailures = 2
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.add(urls("http://a.test", 20)...)
		f.add("http://a.test/good")
		f.respond = func(u string, _ int) response {
			if u == "http://a.test/good" {
				return response{Status: 200}
			}
			return response{Status: 500}
		}
		f.run(1)
		if n := len(f.pages()); n != 20*3+1 {
			t.Errorf("%d requests, want 3 for each of the 20 broken URLs and 1 for the good one", n)
		}
		failed := 0
		for _, sk := range f.skips {
			if sk.Reason == ReasonFetchFailed {
				failed++
			} else {
				t.Errorf("skip %+v: no host is given up for its status codes", sk)
			}
		}
		if failed != 20 {
			t.Errorf("%d fetch-failed, want 20", failed)
		}
		if st := f.s.Host("http://a.test:80"); st.State != StateDone {
			t.Errorf("host %+v, want done", st)
		}
	})
}

// TestOverloadBacksOffTheHostAndRetriesTheURL: a one-time 503 with
// Retry-After holds the host's next request that long, and the URL is
// fetched once more, behind the host's other URLs.
func TestOverloadBacksOffTheHostAndRetriesTheURL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.BackoffBase = time.Second
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.respond = func(u string, n int) response {
			if u == "http://a.test/p0" && n == 1 {
				return response{Status: 503, RetryAfter: "5"}
			}
			return response{Status: 200}
		}
		f.add(urls("http://a.test", 3)...)
		f.run(1)
		s := time.Second
		if got, want := offsets(f.pages()[0], f.pages()), []time.Duration{0, 5 * s, 6 * s, 7 * s}; !slices.Equal(got, want) {
			t.Errorf("starts %v, want %v: the Retry-After of 5 s, then the pace", got, want)
		}
		if f.counts["http://a.test/p0"] != 2 || f.fetches[len(f.fetches)-1].URL != "http://a.test/p0" {
			t.Errorf("p0 fetched %d times, last %s; want twice, the retry last", f.counts["http://a.test/p0"], f.fetches[len(f.fetches)-1].URL)
		}
		if len(f.skips) != 0 {
			t.Errorf("skips %+v, want none", f.skips)
		}
	})
}

// TestCutBodyRetriedOnceAndOnlyTheLastCopyKept: an answer whose body the
// deadline cut is requested twice at most, whatever Retries allows;
// Retried tells the crawler that the first copy is superseded and the
// second is the one to keep.
func TestCutBodyRetriedOnceAndOnlyTheLastCopyKept(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.Retries = 5
		var skips []Skip
		cfg.OnSkip = func(sk Skip) { skips = append(skips, sk) }
		s, err := Open(cfg, NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		s.Add(Candidate{URL: "http://a.test/drip", Seed: true})
		ctx := context.Background()
		var retried []bool
		for {
			l, err := s.Next(ctx)
			if errors.Is(err, ErrDrained) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Wait(ctx, l.Authority); err != nil {
				t.Fatal(err)
			}
			if l.Kind == KindRobots {
				s.Observe(l.Authority, 200, 0, "", nil)
				s.SetRules(l.Authority, Rules{})
				s.Finish(l, Result{Status: 200})
				continue
			}
			s.Answered(l.Authority, time.Now())
			time.Sleep(30 * time.Second)
			s.Observe(l.Authority, 0, 30*time.Second, "", context.DeadlineExceeded)
			r := Result{Status: 200, Duration: 30 * time.Second, Err: context.DeadlineExceeded}
			retried = append(retried, s.Retried(l, r))
			s.Finish(l, r)
		}
		if !slices.Equal(retried, []bool{true, false}) {
			t.Errorf("Retried %v, want the first copy superseded, the second kept", retried)
		}
		if len(skips) != 1 || skips[0].Reason != ReasonFetchFailed || skips[0].Attempts != 2 {
			t.Errorf("skips %+v, want fetch-failed after 2 attempts", skips)
		}
		if st := s.Host("http://a.test:80"); st.State != StateDone {
			t.Errorf("host %+v, want done: an answer came each time", st)
		}
	})
}

// TestOneURLFailingAgainDoesNotDropTheHost: connection failures of the
// same URL, retried, are one URL failing, not a host: it ends as
// fetch-failed and the host stays.
func TestOneURLFailingAgainDoesNotDropTheHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.MaxFailures = 2
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.respond = func(string, int) response { return response{Err: errReset} }
		f.add("http://a.test/only")
		f.run(1)
		if n := f.counts["http://a.test/only"]; n != 3 {
			t.Errorf("requested %d times, want 1+Retries", n)
		}
		if len(f.skips) != 1 || f.skips[0].Reason != ReasonFetchFailed || !strings.Contains(f.skips[0].LastError, "connection reset") {
			t.Errorf("skips %+v, want one fetch-failed naming the reset", f.skips)
		}
		if st := f.s.Host("http://a.test:80"); st.State == StateDropped {
			t.Errorf("host %+v dropped for one URL", st)
		}
	})
}

// refusedRun drives a host whose every connection is refused, as the
// crawler does: each robots.txt request fails, the transport reports it
// (Observe) and the robots cache asks again after its connect back-off
// (base, doubling: robotscache.Config.ConnectRetryBase is
// politeness.backoff_base). It returns the offsets of the tries and the
// skips reported.
func refusedRun(t *testing.T, cfg Config, base time.Duration) ([]time.Duration, []Skip) {
	t.Helper()
	var skips []Skip
	cfg.OnSkip = func(sk Skip) { skips = append(skips, sk) }
	s, err := Open(cfg, NewMemStore())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Add(Candidate{URL: "http://typo.test:8081/", Seed: true})
	ctx := context.Background()
	var tries []time.Duration
	for {
		l, err := s.Next(ctx)
		if errors.Is(err, ErrDrained) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if l.Kind != KindRobots {
			t.Fatalf("lease %+v: no page of a host whose robots.txt was never read", l)
		}
		if err := s.Wait(ctx, l.Authority); err != nil {
			t.Fatal(err)
		}
		tries = append(tries, time.Since(epoch))
		s.Observe(l.Authority, 0, 0, "", errRefused)
		s.RulesFailed(l.Authority, time.Now().Add(base<<(len(tries)-1)))
		s.Finish(l, Result{})
	}
	st := s.Host("http://typo.test:8081")
	if st.State != StateDropped || !strings.Contains(st.DropReason, "never answered") || st.Queued != 1 {
		t.Errorf("host %+v, want given up as never answering, its URL still queued", st)
	}
	return tries, skips
}

// TestRefusedHostGivenUpWithinAMinute: a seed whose port refuses every
// connection (a typo) is given up within RefusedGiveUp at the crawl's
// default config (the 1996 default pace of 10 s, back-off from 2 s, five
// failures: tries at 0, 10, 20, 30 and 46 s), however many failures
// max_failures allows or however slow the back-off: its last try comes
// less than a minute after the first. Its URL stays queued and is
// reported robots-unreachable with Queued set.
func TestRefusedHostGivenUpWithinAMinute(t *testing.T) {
	s := time.Second
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want []time.Duration
	}{
		{"default config", func(*Config) {}, []time.Duration{0, 10 * s, 20 * s, 30 * s, 46 * s}},
		{"max_failures 10", func(c *Config) { c.MaxFailures = 10 }, []time.Duration{0, 10 * s, 20 * s, 30 * s, 46 * s}},
		{"backoff_base 30s", func(c *Config) { c.BackoffBase = 30 * s }, []time.Duration{0, 30 * s}},
		{"default_delay 1s", func(c *Config) { c.DefaultDelay = s }, []time.Duration{0, 2 * s, 6 * s, 14 * s, 30 * s}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := DefaultConfig()
				cfg.Scope.Mode = ScopeAny
				cfg.BackoffBase = 2 * s // config.yaml's politeness.backoff_base
				tc.edit(&cfg)
				tries, skips := refusedRun(t, cfg, cfg.BackoffBase)
				if !slices.Equal(tries, tc.want) {
					t.Errorf("tries at %v, want %v", tries, tc.want)
				}
				if last := tries[len(tries)-1]; last >= RefusedGiveUp {
					t.Errorf("last try at %s: the scheduled waits add up to a minute or more", last)
				}
				if len(skips) != 1 || skips[0].Reason != ReasonRobotsUnreachable || !skips[0].Queued {
					t.Errorf("skips %+v, want the seed reported robots-unreachable and queued", skips)
				}
			})
		})
	}
}

// TestGivenUpHostTriedAgainByTheNextRun: a host given up after connection
// failures on different URLs keeps them in the store; the next Open
// forgets the drop, and every URL is fetched once the host answers.
func TestGivenUpHostTriedAgainByTheNextRun(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := NewMemStore()
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.BackoffBase = time.Second
		cfg.MaxFailures = 3
		f := newFake(t, cfg, store)
		f.respond = func(string, int) response { return response{Err: errReset} }
		f.add(urls("http://a.test", 5)...)
		f.run(1)
		if n := len(f.pages()); n != 3 {
			t.Errorf("%d requests in the first run, want 3 (one per URL until the host is given up)", n)
		}
		if st := f.s.Host("http://a.test:80"); st.State != StateDropped || st.Queued != 5 {
			t.Errorf("first run: host %+v, want given up with its 5 URLs queued", st)
		}
		if err := f.s.Close(); err != nil {
			t.Fatal(err)
		}

		g := newFake(t, cfg, store)
		defer g.s.Close()
		if st := g.s.Host("http://a.test:80"); st.State == StateDropped || st.Queued != 5 {
			t.Fatalf("next run: host %+v, want tried again with 5 URLs queued", st)
		}
		g.run(1)
		for _, u := range urls("http://a.test", 5) {
			if g.counts[u] != 1 {
				t.Errorf("%s fetched %d times in the next run, want once", u, g.counts[u])
			}
		}
		if len(g.skips) != 0 {
			t.Errorf("skips %+v, want none", g.skips)
		}
	})
}
