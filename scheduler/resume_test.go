package scheduler

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestResumeAfterCrash: add, lease, crash without finishing, reopen: nothing
// queued is lost, the in-flight lease is queued again (fetched once more),
// and the host's pace holds across the restart.
func TestResumeAfterCrash(t *testing.T) {
	for _, kind := range []string{"mem", "bolt"} {
		t.Run(kind, func(t *testing.T) {
			dir := t.TempDir()
			synctest.Test(t, func(t *testing.T) { resumeScenario(t, kind, dir) })
		})
	}
}

func resumeScenario(t *testing.T, kind, dir string) {
	ctx := context.Background()
	var store Store
	mem := NewMemStore()
	path := filepath.Join(dir, "frontier.db")
	if kind == "mem" {
		store = mem
	} else {
		var err error
		if store, err = OpenBolt(path); err != nil {
			t.Fatal(err)
		}
	}
	cfg := testConfig()
	s, err := Open(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	rules := map[string]Rules{
		"http://a.test:80": {CrawlDelay: 100 * time.Second, HasCrawlDelay: true},
	}
	for _, u := range append(urls("http://a.test", 4), urls("http://b.test", 3)...) {
		if sk, err := s.Add(Candidate{URL: u, Seed: true}); sk != nil || err != nil {
			t.Fatal(sk, err)
		}
	}
	// Fetch robots of both hosts and a/p0; lease a/p1 and b/p0, start them
	// and crash before they finish.
	fetched := map[string]int{}
	var lastA time.Time
	leased := 0
	for leased < 2 {
		l, err := s.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Wait(ctx, l.Authority); err != nil {
			t.Fatal(err)
		}
		fetched[l.URL]++
		if l.Authority == "http://a.test:80" {
			lastA = time.Now()
		}
		switch {
		case l.Kind == KindRobots:
			s.SetRules(l.Authority, rules[l.Authority])
			s.Finish(l, Result{Status: 200})
		case l.URL == "http://a.test/p0":
			s.Finish(l, Result{Status: 200})
		default:
			leased++ // left in flight
		}
	}
	if fetched["http://a.test/p1"] != 1 || fetched["http://b.test/p0"] != 1 {
		t.Fatalf("before crash fetched %v", fetched)
	}
	if !lastA.Equal(epoch.Add(200 * time.Second)) {
		t.Fatalf("a/p1 started at %s, want 200 s", lastA.Sub(epoch))
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	crashAt := time.Now()

	// Crash: for bolt, the file as it is now (kill -9 keeps committed pages).
	if kind == "bolt" {
		copyFile(t, path, path+".crash")
	}
	s.Close()
	if kind == "bolt" {
		store.Close()
		if store, err = OpenBolt(path + ".crash"); err != nil {
			t.Fatal(err)
		}
		defer store.Close()
	}

	f := newFake(t, cfg, store)
	defer f.s.Close()
	f.rules = rules
	st := f.s.Stats()
	if st.Queued != 6 || st.Fetched != 1 {
		t.Fatalf("after restart %+v, want 6 queued (5 + 1 requeued lease), 1 fetched", st)
	}
	if h := f.s.Host("http://a.test:80"); !h.NextAllowed.Equal(lastA.Add(100 * time.Second)) {
		t.Errorf("a next allowed %s after restart, want %s", h.NextAllowed.Sub(epoch), lastA.Add(100*time.Second).Sub(epoch))
	}
	f.run(2)
	for _, x := range f.fetches {
		fetched[x.URL]++
	}
	for _, u := range append(urls("http://a.test", 4), urls("http://b.test", 3)...) {
		want := 1
		if u == "http://a.test/p1" || u == "http://b.test/p0" {
			want = 2 // in flight at the crash: at most once more
		}
		if fetched[u] != want {
			t.Errorf("%s fetched %d times, want %d", u, fetched[u], want)
		}
	}
	// The first request to a after the restart (its robots.txt) keeps the
	// 100 s pace from a/p1's start.
	for _, x := range f.fetches {
		if x.URL == "http://a.test/robots.txt" {
			if !x.T.Equal(lastA.Add(100 * time.Second)) {
				t.Errorf("a robots.txt after restart at %s, want %s (crash at %s)", x.T.Sub(epoch), lastA.Add(100*time.Second).Sub(epoch), crashAt.Sub(epoch))
			}
			break
		}
	}
}

// TestResumeKeepsEachHostsInterval: hosts with Crawl-delay 1 s, 0.5 s
// and 2 s are resumed. Until their robots.txt is read again, each host's next
// request comes exactly its own last interval after its last start (never
// earlier), not the 10 s default.
func TestResumeKeepsEachHostsInterval(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		delays := map[string]time.Duration{"http://a.test:80": time.Second, "http://b.test:80": 500 * time.Millisecond, "http://c.test:80": 2 * time.Second}
		store := NewMemStore()
		cfg := testConfig()
		cfg.Margin = 5 * time.Millisecond
		f := newFake(t, cfg, store)
		for a, d := range delays {
			f.rules[a] = Rules{CrawlDelay: d, HasCrawlDelay: true, CrawlDelayLine: 2}
		}
		// Last starts near the end of the run: a 4 x 1 s, b 8 x 0.5 s,
		// c 2 x 2 s, so that each host's next start lies after the restart.
		f.add(urls("http://a.test", 4)...)
		f.add(urls("http://b.test", 8)...)
		f.add(urls("http://c.test", 2)...)
		f.run(3)
		last := map[string]time.Time{}
		for _, x := range f.fetches {
			u, _ := Canonicalize(x.URL, nil)
			last[Authority(u)] = x.T
		}
		if err := f.s.Close(); err != nil {
			t.Fatal(err)
		}

		g := newFake(t, cfg, store)
		defer g.s.Close()
		for a, d := range delays {
			g.rules[a] = Rules{CrawlDelay: d, HasCrawlDelay: true, CrawlDelayLine: 2}
		}
		for _, h := range []string{"a", "b", "c"} {
			if sk, err := g.s.Add(Candidate{URL: "http://" + h + ".test/next", Seed: true}); err != nil || sk != nil {
				t.Fatal(err, sk)
			}
		}
		if now := time.Now(); !now.Before(last["http://b.test:80"].Add(500 * time.Millisecond)) {
			t.Fatalf("restarted at %s, after b's next start", now.Sub(epoch))
		}
		for a, d := range delays {
			st := g.s.Host(a)
			if want := last[a].Add(d + cfg.Margin); !st.NextAllowed.Equal(want) || st.Interval != d+cfg.Margin {
				t.Errorf("%s after restart: next %s interval %s (%s), want %s and %s", a, st.NextAllowed.Sub(epoch), st.Interval, st.PaceSource, want.Sub(epoch), d+cfg.Margin)
			}
		}
		g.run(3)
		for _, x := range g.fetches {
			if x.Kind != KindRobots {
				continue
			}
			u, _ := Canonicalize(x.URL, nil)
			a := Authority(u)
			if want := last[a].Add(delays[a] + cfg.Margin); !x.T.Equal(want) {
				t.Errorf("%s robots.txt after restart at %s, want %s (last start %s + %s)", a, x.T.Sub(epoch), want.Sub(epoch), last[a].Sub(epoch), delays[a]+cfg.Margin)
			}
		}
	})
}

// TestRestartFloorIsTheRulesPace follows a dry run that reads robots.txt
// (Crawl-delay: 3) at 0 s under the 1996 default and stops. Within the
// first run the pace is labelled with the default, never as the previous
// run's interval; the crawl started 1 s later fetches its first page 3 s
// after that robots.txt, as the rules ask, not 10 s.
func TestRestartFloorIsTheRulesPace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := NewMemStore()
		cfg := testConfig()
		const a = "http://a.test:80"
		rules := Rules{CrawlDelay: 3 * time.Second, HasCrawlDelay: true, CrawlDelayLine: 2}
		f := newFake(t, cfg, store)
		f.add("http://a.test/p")
		ctx := context.Background()
		l, err := f.s.Next(ctx)
		if err != nil || l.Kind != KindRobots {
			t.Fatalf("first lease %+v %v, want robots.txt", l, err)
		}
		if err := f.s.Wait(ctx, a); err != nil {
			t.Fatal(err)
		}
		if src := f.s.Host(a).PaceSource; src != "default 10s (1996 rule of thumb)" {
			t.Errorf("first run's pace while robots.txt is read: %q, want the 1996 default", src)
		}
		f.s.SetRules(a, rules)
		if err := f.s.Finish(l, Result{Status: 200}); err != nil {
			t.Fatal(err)
		}
		if err := f.s.Close(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		g := newFake(t, cfg, store)
		defer g.s.Close()
		if st := g.s.Host(a); st.PaceSource != "previous run's interval 3s (until robots.txt is read)" {
			t.Errorf("after restart pace %q, want the previous run's 3 s", st.PaceSource)
		}
		// The crawler applies its fresh cached copy without a request.
		l, err = g.s.Next(ctx)
		if err != nil || l.Kind != KindRobots || !time.Now().Equal(epoch.Add(3*time.Second)) {
			t.Fatalf("rerun's first lease %+v %v at %s, want robots.txt at 3 s", l, err, time.Since(epoch))
		}
		g.s.SetRules(a, rules)
		if err := g.s.Finish(l, Result{Status: 200}); err != nil {
			t.Fatal(err)
		}
		g.run(1)
		// The page waits only for the group commits of the robots lease
		// (a few fake milliseconds), never for the 10 s default.
		if p := g.pages(); len(p) != 1 || p[0].Before(epoch.Add(3*time.Second)) || !p[0].Before(epoch.Add(3*time.Second+100*time.Millisecond)) {
			t.Errorf("pages %v, want one at 3 s after the dry run's robots.txt", offsets(epoch, p))
		}
	})
}

// TestDefaultIntervalIsNoRestartPace: an interval that was the 1996
// default (robots.txt asked for no pace) is not carried over as the host's
// pace: after a restart it is labelled as the default again.
func TestDefaultIntervalIsNoRestartPace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := NewMemStore()
		cfg := testConfig()
		const a = "http://a.test:80"
		f := newFake(t, cfg, store)
		f.add(urls("http://a.test", 2)...)
		f.run(1)
		if err := f.s.Close(); err != nil {
			t.Fatal(err)
		}
		g := newFake(t, cfg, store)
		defer g.s.Close()
		g.add("http://a.test/more")
		if src := g.s.Host(a).PaceSource; src != "default 10s (1996 rule of thumb)" {
			t.Errorf("after restart pace %q, want the 1996 default", src)
		}
	})
}

// TestUnansweredRequestCountsAsLastingTheTimeout: a host asked for
// Crawl-delay 3 (1996 extended standard), its pages take 2 s, and the crawl
// stopped while one was in flight. The server finished it after the crawler
// was gone, so a restart that counted the interval from the request's start
// would hit the server 1 s after that answer. A request whose end was not
// seen counts as lasting fetch.timeout; one whose answer arrived counts
// from the answer, as before.
func TestUnansweredRequestCountsAsLastingTheTimeout(t *testing.T) {
	const a = "http://a.test:80"
	rules := map[string]Rules{a: {CrawlDelay: 3 * time.Second, HasCrawlDelay: true, CrawlDelayLine: 2}}
	for _, answered := range []bool{true, false} {
		t.Run(fmt.Sprintf("answered=%v", answered), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				store := NewMemStore()
				cfg := testConfig()
				cfg.RequestTimeout = 30 * time.Second
				f := newFake(t, cfg, store)
				f.rules = rules
				f.answer = true
				f.add("http://a.test/p0", "http://a.test/p1")
				ctx := context.Background()
				for range 2 { // robots.txt, then p0, answered
					l, err := f.s.Next(ctx)
					if err != nil {
						t.Fatal(err)
					}
					f.one(l)
				}
				l, err := f.s.Next(ctx)
				if err != nil || l.URL != "http://a.test/p1" {
					t.Fatalf("third lease %+v %v", l, err)
				}
				if err := f.s.Wait(ctx, a); err != nil {
					t.Fatal(err)
				}
				started := time.Now()
				time.Sleep(time.Second)
				if answered {
					// As the transport reports a response: its arrival,
					// then its outcome.
					f.s.Answered(a, time.Now())
					f.s.Observe(a, 200, time.Second, "", nil)
				}
				// Stopped here: the lease is not finished.
				if err := f.s.Close(); err != nil {
					t.Fatal(err)
				}
				g := newFake(t, cfg, store)
				defer g.s.Close()
				g.rules = rules
				want := started.Add(time.Second + 3*time.Second)
				if !answered {
					want = started.Add(30*time.Second + 3*time.Second)
					if src := g.s.Host(a).BackoffReason; !strings.Contains(src, "unanswered request 33s") {
						t.Errorf("after restart the wait is named %q, want the unanswered request", src)
					}
				}
				g.run(1)
				// The restart's first request to the host is its robots.txt.
				if len(g.fetches) != 2 || !g.fetches[0].T.Equal(want) || !g.fetches[1].T.Equal(want.Add(3*time.Second)) {
					var got []string
					for _, x := range g.fetches {
						got = append(got, fmt.Sprintf("%s at %s", x.URL, x.T.Sub(started)))
					}
					t.Errorf("after restart: %v; want robots.txt at %s after p1's first start, then p1 3s later", got, want.Sub(started))
				}
			})
		})
	}
}

// TestUnansweredAmongSeveralInFlight: with politeness.per_host 2, the
// answer to one request must not hide the other one still in flight when
// the crawl stopped: the resumed run must not come 0.53 s after a kill -9,
// with three requests of ours at the server at once.
func TestUnansweredAmongSeveralInFlight(t *testing.T) {
	const a = "http://a.test:80"
	synctest.Test(t, func(t *testing.T) {
		store := NewMemStore()
		cfg := testConfig()
		cfg.PerHost = 2
		cfg.RequestTimeout = 30 * time.Second
		rules := map[string]Rules{a: {CrawlDelay: time.Second, HasCrawlDelay: true}}
		f := newFake(t, cfg, store)
		f.rules = rules
		f.add(urls("http://a.test", 3)...)
		ctx := context.Background()
		l, err := f.s.Next(ctx) // robots.txt
		if err != nil {
			t.Fatal(err)
		}
		f.one(l)
		for range 2 {
			if _, err := f.s.Next(ctx); err != nil {
				t.Fatal(err)
			}
			if err := f.s.Wait(ctx, a); err != nil {
				t.Fatal(err)
			}
		}
		f.s.Answered(a, time.Now())
		f.s.Observe(a, 200, 0, "", nil) // one of the two ended; the other is cut off
		if err := f.s.Close(); err != nil {
			t.Fatal(err)
		}
		g := newFake(t, cfg, store)
		defer g.s.Close()
		if r := g.s.Host(a).BackoffReason; !strings.Contains(r, "unanswered request 31s") {
			t.Errorf("after restart the wait is named %q, want the unanswered request", r)
		}
	})
}

// TestUnsentStartIsNotUnanswered: a request whose start Wait was still
// waiting for when the crawl stopped never went out, so it has no end to
// wait for: a cancelled robots.txt hop must not make its host wait
// fetch.timeout after the restart.
func TestUnsentStartIsNotUnanswered(t *testing.T) {
	const a = "http://a.test:80"
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.PerHost = 2
		cfg.RequestTimeout = 30 * time.Second
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.rules = map[string]Rules{a: {CrawlDelay: 10 * time.Second, HasCrawlDelay: true}}
		f.add(urls("http://a.test", 2)...)
		ctx := context.Background()
		l, err := f.s.Next(ctx) // robots.txt
		if err != nil {
			t.Fatal(err)
		}
		f.one(l)
		for range 2 {
			if _, err := f.s.Next(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.s.Wait(ctx, a); err != nil {
			t.Fatal(err)
		}
		waiting, cancel := context.WithCancel(ctx)
		go func() { time.Sleep(time.Second); cancel() }()
		if err := f.s.Wait(waiting, a); err == nil {
			t.Fatal("the second start, 10 s away, did not wait")
		}
		unanswered := func() bool {
			f.s.mu.Lock()
			defer f.s.mu.Unlock()
			return f.s.hosts[a].rec.Unanswered
		}
		if !unanswered() {
			t.Error("the first request, still in flight, is not unanswered")
		}
		f.s.Observe(a, 200, time.Second, "", nil)
		if unanswered() {
			t.Error("with the first request ended, the start that never went out still counts as unanswered")
		}
	})
}
