package scheduler

import (
	"context"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/crawlproject/crawl/robots"
)

func TestCrawlDelay10FourURLsTake30s(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, testConfig(), NewMemStore())
		defer f.s.Close()
		f.rules["http://a.test:80"] = Rules{CrawlDelay: 10 * time.Second, HasCrawlDelay: true, CrawlDelayLine: 3}
		f.add(urls("http://a.test", 4)...)
		f.run(2)
		p := f.pages()
		if len(p) != 4 {
			t.Fatalf("fetched %d pages, want 4", len(p))
		}
		if got := p[3].Sub(p[0]); got != 30*time.Second {
			t.Errorf("4 URLs took %s, want 30s", got)
		}
		want := []time.Duration{10 * time.Second, 10 * time.Second, 10 * time.Second}
		if g := gaps(p); !slices.Equal(g, want) {
			t.Errorf("gaps %v, want %v", g, want)
		}
		// robots.txt at 0, first page one Crawl-delay later.
		if !p[0].Equal(epoch.Add(10 * time.Second)) {
			t.Errorf("first page at %s, want 00:00:10", p[0])
		}
		if src := f.s.Host("http://a.test:80").PaceSource; src != "crawl-delay 10s (line 3)" {
			t.Errorf("pace source %q", src)
		}
	})
}

func TestRequestRateWindowsSwitchAt1300(t *testing.T) {
	// 1996 example: 1/10m 1300-1659 and 5/1m 0500-1259.
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, testConfig(), NewMemStore())
		defer f.s.Close()
		f.rules["http://a.test:80"] = Rules{RequestRates: []robots.RequestRate{
			rrate(1, 10*time.Minute, "1300-1659", 5),
			rrate(5, time.Minute, "0500-1259", 6),
		}}
		sleepUntil(at(t, "12:58:00"))
		f.add(urls("http://a.test", 13)...)
		f.run(3)
		p := f.pages()
		var want []time.Time
		for i := 1; i <= 9; i++ { // 12 s apart before 13:00
			want = append(want, at(t, "12:58:00").Add(time.Duration(i)*12*time.Second))
		}
		// 12:59:48 + 12 s = 13:00:00, but at 13:00 the 10-minute rate rules.
		want = append(want, at(t, "13:09:48"), at(t, "13:19:48"), at(t, "13:29:48"), at(t, "13:39:48"))
		if !slices.EqualFunc(p, want, time.Time.Equal) {
			t.Errorf("starts\n got %v\nwant %v", p, want)
		}
		if st := f.s.Host("http://a.test:80"); st.PaceSource != "request-rate 1/10m 13:00-16:59 (line 5)" || st.Interval != 10*time.Minute {
			t.Errorf("pace %s from %q", st.Interval, st.PaceSource)
		}
	})
}

func TestRequestRateSwitchToFasterWindow(t *testing.T) {
	// 1/20m 1700-0459 then 5/1m from 05:00: the faster rate applies at 05:00.
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, testConfig(), NewMemStore())
		defer f.s.Close()
		f.rules["http://a.test:80"] = Rules{RequestRates: []robots.RequestRate{
			rrate(1, 20*time.Minute, "1700-0459", 1),
			rrate(5, time.Minute, "0500-1259", 2),
		}}
		sleepUntil(at(t, "04:38:00"))
		f.add(urls("http://a.test", 3)...)
		f.run(1)
		want := []time.Time{at(t, "04:58:00"), at(t, "05:00:00"), at(t, "05:00:12")}
		if p := f.pages(); !slices.EqualFunc(p, want, time.Time.Equal) {
			t.Errorf("starts %v, want %v", p, want)
		}
	})
}

func TestVisitTime0600To0845FirstRequestAt0600(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.MaxWait = 24 * time.Hour
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.rules["http://a.test:80"] = Rules{
			CrawlDelay: 30 * time.Minute, HasCrawlDelay: true, CrawlDelayLine: 2,
			VisitTimes: []robots.Window{win("0600", "0845")},
		}
		f.add(urls("http://a.test", 7)...)
		done := make(chan struct{})
		go func() { f.run(2); close(done) }()
		time.Sleep(time.Hour)
		synctest.Wait()
		if st := f.s.Host("http://a.test:80"); st.State != StateParked || !st.NextAllowed.Equal(at(t, "06:00:00")) {
			t.Errorf("at 01:00 host is %s until %s, want parked until 06:00", st.State, st.NextAllowed)
		}
		<-done
		// 06:00 06:30 07:00 07:30 08:00 08:30, then the window closes at
		// 08:46 and the 7th waits for the next day's 06:00.
		want := []time.Time{at(t, "06:00:00"), at(t, "06:30:00"), at(t, "07:00:00"), at(t, "07:30:00"), at(t, "08:00:00"), at(t, "08:30:00"), at(t, "06:00:00").Add(24 * time.Hour)}
		if p := f.pages(); !slices.EqualFunc(p, want, time.Time.Equal) {
			t.Errorf("starts %v, want %v", p, want)
		}
	})
}

func TestVisitTimeBeyondMaxWaitDefers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, testConfig(), NewMemStore()) // MaxWait 1h
		defer f.s.Close()
		w := win("0600", "0845")
		w.Line = 4 // the Visit-time line the skips must name
		f.rules["http://a.test:80"] = Rules{VisitTimes: []robots.Window{w}}
		f.rules["http://b.test:80"] = Rules{}
		f.add(urls("http://a.test", 3)...)
		f.add(urls("http://b.test", 2)...)
		f.run(2)
		if now := time.Now(); !now.Equal(epoch.Add(20 * time.Second)) {
			t.Errorf("drained at %s, want right after b's pages (robots 0 s, pages 10 s 20 s)", now)
		}
		st := f.s.Host("http://a.test:80")
		if st.State != StateDeferred || !st.DeferredUntil.Equal(at(t, "06:00:00")) || st.Queued != 3 {
			t.Errorf("a is %+v, want deferred until 06:00 with 3 queued", st)
		}
		if len(f.skips) != 3 {
			t.Fatalf("skips %+v, want one visit-time-deferred per queued URL", f.skips)
		}
		for i, sk := range f.skips {
			if sk.URL != urls("http://a.test", 3)[i] || sk.Reason != ReasonVisitTimeDeferred || sk.Rule != "visit-time 06:00-08:45" || sk.Line != 4 {
				t.Errorf("skip %d = %+v", i, sk)
			}
		}
		if len(f.pages()) != 2 {
			t.Errorf("pages %v, want b's two", f.pages())
		}
	})
}

func TestRetryAfter120IsHonoured(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.BackoffBase = time.Second
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.respond = func(u string, n int) response {
			if n == 1 {
				return response{Status: 503, RetryAfter: "120"}
			}
			return response{Status: 200}
		}
		f.add("http://a.test/x")
		f.run(1)
		p := f.pages()
		if len(p) != 2 || p[1].Sub(p[0]) != 120*time.Second {
			t.Errorf("starts %v, want a retry 120 s after the 503", p)
		}
	})
}

func TestRetryAfterHTTPDate(t *testing.T) {
	now := epoch
	for _, tc := range []struct {
		v    string
		want time.Duration
		ok   bool
	}{
		{"120", 120 * time.Second, true},
		{"Sat, 01 Jan 2000 00:05:00 GMT", 5 * time.Minute, true},
		{"Fri, 31 Dec 1999 23:00:00 GMT", 0, true},
		{"soon", 0, false},
		{"-3", 0, false},
		{"", 0, false},
		{"99999999999999999999", maxRetryAfter, true},
		{"9223372036854775807", maxRetryAfter, true},
	} {
		d, ok := ParseRetryAfter(tc.v, now)
		if d != tc.want || ok != tc.ok {
			t.Errorf("RFC9110 10.2.3 %q = %s %v, want %s %v", tc.v, d, ok, tc.want, tc.ok)
		}
	}
}

// TestLongRetryAfterIsNeverCut: a Retry-After (as an HTTP-date, 5 h ahead)
// beyond MaxWait and RetryAfterMax defers the host to a later run: nothing
// more is fetched, its URLs stay queued and are reported with the time the
// server asked for, the host's warning names retry_after_max, and a
// resumed crawl still waits until then.
func TestLongRetryAfterIsNeverCut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.BackoffBase = time.Second
		cfg.RetryAfterMax = time.Minute
		store := NewMemStore()
		f := newFake(t, cfg, store)
		f.respond = func(u string, n int) response {
			return response{Status: 429, RetryAfter: "Sat, 01 Jan 2000 05:00:00 GMT"}
		}
		f.add(urls("http://a.test", 2)...)
		f.run(1)
		if p := f.pages(); len(p) != 1 {
			t.Errorf("starts %v, want only the 429", p)
		}
		until := at(t, "05:00:00")
		st := f.s.Host("http://a.test:80")
		if st.State != StateDeferred || !st.DeferredUntil.Equal(until) || st.Queued != 2 || !strings.Contains(st.Warning, "exceeds retry_after_max 1m: honoured in full") {
			t.Errorf("host %+v, want deferred until 05:00 with 2 queued and a warning", st)
		}
		if len(f.skips) != 2 {
			t.Errorf("skips %+v, want one per queued URL", f.skips)
		}
		for _, sk := range f.skips {
			if sk.Reason != ReasonBackoffDeferred || sk.Rule != "retry-after 4h59m59s (Retry-After: Sat, 01 Jan 2000 05:00:00 GMT)" || !strings.Contains(sk.Detail, "until 2000-01-01T05:00:00Z") {
				t.Errorf("skip %+v, want backoff-deferred until 05:00 by retry-after 5h", sk)
			}
		}
		if err := f.s.Close(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Hour)
		g := newFake(t, cfg, store)
		defer g.s.Close()
		if st := g.s.Host("http://a.test:80"); !st.NextAllowed.Equal(until) {
			t.Errorf("after restart next allowed %s, want 05:00", st.NextAllowed)
		}
	})
}

// TestHugeRetryAfterDefersHost: a delay-seconds too large to parse
// (RFC 9110 10.2.3 sets no upper bound) is the longest wait the scheduler
// handles, never ignored: nothing more is fetched, the host is deferred to a
// later run with a skip that quotes the header, and a restart still waits.
func TestHugeRetryAfterDefersHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = time.Second
		cfg.BackoffBase = time.Second
		store := NewMemStore()
		f := newFake(t, cfg, store)
		f.respond = func(u string, n int) response {
			return response{Status: 503, RetryAfter: "99999999999999999999"}
		}
		f.add(urls("http://a.test", 2)...)
		f.run(1)
		if p := f.pages(); len(p) != 1 {
			t.Errorf("starts %v, want only the 503", p)
		}
		st := f.s.Host("http://a.test:80")
		if st.State != StateDeferred || st.Queued != 2 || time.Until(st.DeferredUntil) < maxRetryAfter-time.Minute {
			t.Errorf("host %+v, want deferred for the longest wait with 2 queued", st)
		}
		if len(f.skips) != 2 {
			t.Errorf("skips %+v, want one per queued URL", f.skips)
		}
		for _, sk := range f.skips {
			if sk.Reason != ReasonBackoffDeferred || !strings.Contains(sk.Rule, "(Retry-After: 99999999999999999999)") {
				t.Errorf("skip %+v, want backoff-deferred quoting the Retry-After header", sk)
			}
		}
		if err := f.s.Close(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Hour)
		g := newFake(t, cfg, store)
		defer g.s.Close()
		g.run(1)
		if p := g.pages(); len(p) != 0 {
			t.Errorf("after restart starts %v, want none", p)
		}
	})
}

func TestCrawlDelayPlusRequestRateTakesSlower(t *testing.T) {
	for _, tc := range []struct {
		name string
		cd   time.Duration
		rate robots.RequestRate
		want time.Duration
		src  string
	}{
		{"rate slower", 5 * time.Second, rrate(1, 20*time.Second, "", 4), 20 * time.Second, "request-rate 1/20s (line 4)"},
		{"crawl-delay slower", 30 * time.Second, rrate(3, time.Minute, "", 4), 30 * time.Second, "crawl-delay 30s (line 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFake(t, testConfig(), NewMemStore())
				defer f.s.Close()
				f.rules["http://a.test:80"] = Rules{CrawlDelay: tc.cd, HasCrawlDelay: true, CrawlDelayLine: 2, RequestRates: []robots.RequestRate{tc.rate}}
				f.add(urls("http://a.test", 3)...)
				f.run(2)
				if g := gaps(f.pages()); !slices.Equal(g, []time.Duration{tc.want, tc.want}) {
					t.Errorf("gaps %v, want %s", g, tc.want)
				}
				if src := f.s.Host("http://a.test:80").PaceSource; src != tc.src {
					t.Errorf("source %q, want %q", src, tc.src)
				}
			})
		})
	}
}

func TestDefaultRuleOfThumbAndAdaptive(t *testing.T) {
	// 1996: twice the fetch time or 10 s, whichever is slower.
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.FetchTimeFactor = 2
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.respond = func(u string, n int) response {
			if u == "http://a.test/p0" {
				return response{Status: 200, Dur: 8 * time.Second}
			}
			return response{Status: 200, Dur: time.Second}
		}
		f.add(urls("http://a.test", 3)...)
		f.run(1)
		// robots at 0 (0 s), p0 at 10 s takes 8 s -> 16 s; p1 takes 1 s -> 10 s.
		want := []time.Duration{10 * time.Second, 26 * time.Second, 36 * time.Second}
		if o := offsets(epoch, f.pages()); !slices.Equal(o, want) {
			t.Errorf("starts %v, want %v", o, want)
		}
		if src := f.s.Host("http://a.test:80").PaceSource; src != "default 10s (1996 rule of thumb)" {
			t.Errorf("source %q", src)
		}
	})
}

func Test429NeverSpeedsUpHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.FetchTimeFactor = 2
		cfg.DefaultDelay = time.Second
		cfg.BackoffBase = 100 * time.Millisecond
		cfg.MaxFailures = 100
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.respond = func(u string, n int) response {
			if u == "http://a.test/p0" {
				return response{Status: 200, Dur: 3 * time.Second}
			}
			return response{Status: 429, Dur: 10 * time.Millisecond}
		}
		f.add(urls("http://a.test", 6)...)
		f.run(1)
		p := f.pages()
		for i, g := range gaps(p) {
			if g < 6*time.Second {
				t.Errorf("gap %d is %s after 429s, below the 6 s adaptive pace", i, g)
			}
		}
		if len(p) < 10 {
			t.Errorf("only %d fetches", len(p))
		}
	})
}

func TestExponentialBackoffAndReset(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = 0
		cfg.BackoffBase = time.Second
		cfg.BackoffMax = 8 * time.Second
		cfg.MaxFailures = 10
		cfg.Retries = 10
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		calls := 0
		f.respond = func(u string, n int) response {
			calls++
			if calls <= 5 {
				return response{Status: 503}
			}
			return response{Status: 200}
		}
		f.add(urls("http://a.test", 3)...)
		f.run(1)
		// Five 503s in a row (back-off 1 2 4 8 8 s), then a success
		// resets the pace to 0. A plain 500 backs nothing off (see
		// TestServerErrorNeverSlowsTheHost).
		s := time.Second
		want := []time.Duration{1 * s, 2 * s, 4 * s, 8 * s, 8 * s, 0, 0}
		if g := gaps(f.pages()); !slices.Equal(g, want) {
			t.Errorf("gaps %v, want %v", g, want)
		}
		if st := f.s.Stats(); st.Errors != 5 || st.Retries != 5 || st.Fetched != 3 {
			t.Errorf("stats %+v", st)
		}
	})
}

// TestNextStartIsExactlyOneIntervalAfterTheAnswer: with the pace counted
// from the end of the previous answer, each start comes exactly one
// interval after it, to the nanosecond, whatever nanoseconds the interval
// and the response time hold and however long after the answer the next
// request is asked for. A float64 token bucket (x/time/rate) armed at the
// answer and asked before the interval is over grants such a start 1 ns
// early about a third of the time; the scheduler's whole-nanosecond
// arithmetic never does.
func TestNextStartIsExactlyOneIntervalAfterTheAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = 3*time.Second + 300*time.Millisecond + 7
		s, err := Open(cfg, NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		const a = "http://a.test:80"
		const dur = time.Second + 234567891
		var answers, starts []time.Time
		for i := range 12 {
			if err := s.Wait(context.Background(), a); err != nil {
				t.Fatal(err)
			}
			starts = append(starts, time.Now())
			time.Sleep(dur)
			answers = append(answers, time.Now())
			s.Answered(a, time.Now())
			s.Observe(a, 200, dur, "", nil)
			s.Release(a)
			time.Sleep(time.Duration(i) * 271828183) // asked again before, at or after the interval's end
		}
		for i := 1; i < len(starts); i++ {
			want := max(cfg.DefaultDelay, time.Duration(i-1)*271828183)
			if got := starts[i].Sub(answers[i-1]); got != want {
				t.Errorf("start %d at +%s after the answer, want +%s", i, got, want)
			}
		}
	})
}
