package scheduler

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// TestAnsweredCountsIntervalFromResponse: DESIGN invariant 3 is about the
// request starts the server sees. A server answering after 2 s had the
// request by then at the latest, so with Crawl-delay 10 the next request
// starts 10 s after that answer: the server never sees two requests closer
// than 10 s, however late the first one reached it.
func TestAnsweredCountsIntervalFromResponse(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.FetchTimeFactor = 0
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.answer = true
		f.rules["http://a.test:80"] = Rules{CrawlDelay: 10 * time.Second, HasCrawlDelay: true, CrawlDelayLine: 2}
		f.respond = func(string, int) response { return response{Status: 200, Dur: 2 * time.Second} }
		f.add(urls("http://a.test", 3)...)
		f.run(2)
		want := []time.Duration{12 * time.Second, 12 * time.Second}
		if g := gaps(f.pages()); !slices.Equal(g, want) {
			t.Errorf("gaps %v, want %v (2 s answer + 10 s Crawl-delay)", g, want)
		}
	})
}

// TestAnsweredNeverMovesPaceBack: an answer time before the recorded start
// (clock skew between goroutines) changes nothing.
func TestAnsweredNeverMovesPaceBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s, err := Open(testConfig(), NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		const a = "http://a.test:80"
		if err := s.Wait(t.Context(), a); err != nil {
			t.Fatal(err)
		}
		before := s.Host(a).NextAllowed
		s.Answered(a, time.Now().Add(-time.Hour))
		if got := s.Host(a).NextAllowed; !got.Equal(before) {
			t.Errorf("next allowed moved from %s to %s", before, got)
		}
		time.Sleep(time.Second)
		s.Answered(a, time.Now())
		if got := s.Host(a).NextAllowed; !got.After(before) {
			t.Errorf("a later answer must push the next start: %s, was %s", got, before)
		}
	})
}

// TestDeferReasonNamesWhatHoldsTheHost: a host deferred by a Retry-After
// beyond MaxWait is reported as backoff-deferred, one whose robots.txt
// keeps failing as robots-unreachable, never as a Crawl-delay it never set.
func TestDeferReasonNamesWhatHoldsTheHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.MaxWait = time.Minute
		cfg.RetryAfterMax = 2 * time.Hour
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.respond = func(string, int) response { return response{Status: 503, RetryAfter: "3600"} }
		f.add(urls("http://a.test", 2)...)
		sk, err := f.s.Add(Candidate{URL: "http://b.test/x", Seed: true})
		if err != nil || sk != nil {
			t.Fatal(err, sk)
		}
		f.s.RulesFailed("http://b.test:80", time.Now().Add(2*time.Hour))
		f.run(1)
		got := map[string]Reason{}
		for _, s := range f.skips {
			got[s.Authority] = s.Reason
		}
		if got["http://a.test:80"] != ReasonBackoffDeferred {
			t.Errorf("a.test: %q, want %q (skips %+v)", got["http://a.test:80"], ReasonBackoffDeferred, f.skips)
		}
		if got["http://b.test:80"] != ReasonRobotsUnreachable {
			t.Errorf("b.test: %q, want %q", got["http://b.test:80"], ReasonRobotsUnreachable)
		}
	})
}
