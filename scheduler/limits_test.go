package scheduler

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// limitDriver is one worker that fetches like the crawler, with answers by
// path: "/no-*" is refused by robots.txt (no request), "/redir" answers 302
// and offers /r-target, everything else 200.
type limitDriver struct {
	t       *testing.T
	s       *Scheduler
	mu      sync.Mutex
	fetched []string
	skips   []Skip
}

func newLimitDriver(t *testing.T, cfg Config, store Store) *limitDriver {
	d := &limitDriver{t: t}
	cfg.OnSkip = func(sk Skip) { d.mu.Lock(); d.skips = append(d.skips, sk); d.mu.Unlock() }
	s, err := Open(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	d.s = s
	return d
}

func (d *limitDriver) add(c Candidate) {
	d.t.Helper()
	if sk, err := d.s.Add(c); err != nil || sk != nil {
		d.t.Fatalf("add %s: %v %+v", c.URL, err, sk)
	}
}

func (d *limitDriver) run() {
	for {
		l, err := d.s.Next(context.Background())
		if errors.Is(err, ErrDrained) {
			return
		}
		if err != nil {
			d.t.Fatal(err)
		}
		d.one(l)
	}
}

func (d *limitDriver) one(l *Lease) {
	if l.Kind == KindRobots {
		d.s.SetRules(l.Authority, Rules{})
		d.s.Finish(l, Result{})
		return
	}
	path := strings.TrimPrefix(l.URL, "http://a.test")
	if strings.HasPrefix(path, "/no-") {
		d.s.Finish(l, Result{Skip: &Skip{URL: l.URL, Reason: ReasonRobotsDisallowed}})
		return
	}
	if err := d.s.Wait(context.Background(), l.Authority); err != nil {
		d.t.Fatal(err)
	}
	d.mu.Lock()
	d.fetched = append(d.fetched, path)
	d.mu.Unlock()
	status := 200
	if path == "/redir" {
		status = 302
		d.s.Add(Candidate{URL: "/r-target", Parent: l.URL, Depth: l.Depth, Redirects: l.Redirects + 1})
	}
	d.s.Observe(l.Authority, status, 0, "", nil)
	d.s.Finish(l, Result{Status: status})
}

func (d *limitDriver) skipped(r Reason) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for _, sk := range d.skips {
		if sk.Reason == r {
			out = append(out, strings.TrimPrefix(sk.URL, "http://a.test"))
		}
	}
	return out
}

// TestMaxPagesCountsPagesFetched: max_pages counts pages fetched, so URLs
// refused by robots.txt, redirects and sitemaps do not use up the limit;
// the pages beyond it are skipped when they come up, and so are sitemaps,
// read only for the pages they list: an index of 2,000 sitemaps is not read
// whole past the limit.
func TestMaxPagesCountsPagesFetched(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.Scope.MaxPages = 3
		d := newLimitDriver(t, cfg, NewMemStore())
		defer d.s.Close()
		d.add(Candidate{URL: "http://a.test/", Seed: true})
		d.add(Candidate{URL: "http://a.test/sm.xml", Kind: KindSitemap})
		for _, p := range []string{"/no-1", "/redir", "/p0", "/p1", "/p2", "/p3"} {
			d.add(Candidate{URL: "http://a.test" + p, Depth: 1})
		}
		d.add(Candidate{URL: "http://a.test/sm2.xml", Kind: KindSitemap})
		d.run()
		// Order: the first sitemap before the pages, a second one last,
		// and /r-target after it.
		if want := []string{"/", "/sm.xml", "/redir", "/p0", "/p1"}; !slices.Equal(d.fetched, want) {
			t.Errorf("fetched %v, want %v", d.fetched, want)
		}
		if got, want := d.skipped(ReasonMaxPages), []string{"/p2", "/p3", "/sm2.xml", "/r-target"}; !slices.Equal(got, want) {
			t.Errorf("max-pages skips %v, want %v", got, want)
		}
		if sk, _ := d.s.Add(Candidate{URL: "http://a.test/late", Depth: 1}); sk == nil || sk.Reason != ReasonMaxPages {
			t.Errorf("add after the limit: %+v, want max-pages", sk)
		}
		if sk, _ := d.s.Add(Candidate{URL: "http://a.test/late.xml", Kind: KindSitemap}); sk == nil || sk.Reason != ReasonMaxPages {
			t.Errorf("a sitemap added after the limit: %+v, want max-pages", sk)
		}
		if st := d.s.Stats(); st.Queued != 0 {
			t.Errorf("queued %d, want none", st.Queued)
		}
	})
}

// TestMaxPagesPerHostWaitsForOutstandingLeases shows that a page that
// could exceed the limit waits for the leases in flight: if one of them is
// refused by robots.txt the page is fetched, else skipped.
func TestMaxPagesPerHostWaitsForOutstandingLeases(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.PerHost = 2
		cfg.DefaultDelay = 0
		cfg.Scope.MaxPagesPerHost = 2
		d := newLimitDriver(t, cfg, NewMemStore())
		defer d.s.Close()
		for _, p := range []string{"/1", "/2", "/3", "/4"} {
			d.add(Candidate{URL: "http://a.test" + p, Seed: true})
		}
		ctx := context.Background()
		r, _ := d.s.Next(ctx)
		d.one(r) // robots
		l1, _ := d.s.Next(ctx)
		l2, _ := d.s.Next(ctx)
		got := make(chan *Lease)
		go func() {
			l, err := d.s.Next(ctx)
			if err != nil {
				t.Error(err)
			}
			got <- l
		}()
		synctest.Wait()
		select {
		case l := <-got:
			t.Fatalf("%s leased while two pages are in flight against max_pages_per_host 2", l.URL)
		default:
		}
		d.s.Finish(l1, Result{Skip: &Skip{URL: l1.URL, Reason: ReasonRobotsDisallowed}})
		l3 := <-got
		if l3.URL != "http://a.test/3" {
			t.Fatalf("next lease %s, want /3", l3.URL)
		}
		d.s.Finish(l2, Result{Status: 200})
		d.s.Finish(l3, Result{Status: 404}) // a response: counts
		if _, err := d.s.Next(ctx); !errors.Is(err, ErrDrained) {
			t.Errorf("next after the limit: %v, want drained", err)
		}
		if got := d.skipped(ReasonMaxPages); !slices.Equal(got, []string{"/4"}) {
			t.Errorf("max-pages skips %v, want [/4]", got)
		}
	})
}

// TestPageCountSurvivesRestart shows that the pages fetched are part of the
// durable host record: a resumed crawl does not fetch max_pages again.
func TestPageCountSurvivesRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.Scope.MaxPages = 2
		store := NewMemStore()
		d := newLimitDriver(t, cfg, store)
		d.add(Candidate{URL: "http://a.test/", Seed: true})
		d.add(Candidate{URL: "http://a.test/p0", Depth: 1})
		d.add(Candidate{URL: "http://a.test/p1", Depth: 1})
		for range 3 { // robots.txt, /, /p0; then the crawl is stopped
			l, err := d.s.Next(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			d.one(l)
		}
		if err := d.s.Close(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Minute)
		d2 := newLimitDriver(t, cfg, store)
		defer d2.s.Close()
		if sk, _ := d2.s.Add(Candidate{URL: "http://a.test/p2", Depth: 1}); sk == nil || sk.Reason != ReasonMaxPages {
			t.Errorf("add after restart: %+v, want max-pages", sk)
		}
		d2.run()
		if len(d2.fetched) != 0 {
			t.Errorf("resumed crawl fetched %v, want nothing", d2.fetched)
		}
		if got := d2.skipped(ReasonMaxPages); !slices.Equal(got, []string{"/p1"}) {
			t.Errorf("max-pages skips %v, want [/p1]", got)
		}
	})
}

// TestMaxPagesHoldsOtherHosts: with max_pages 1 and a page of host a in
// flight, host b's page waits; when a's page turns out refused by
// robots.txt, b's page is fetched, and a's next page is skipped.
func TestMaxPagesHoldsOtherHosts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.DefaultDelay = 0
		cfg.Scope.MaxPages = 1
		d := newLimitDriver(t, cfg, NewMemStore())
		defer d.s.Close()
		d.add(Candidate{URL: "http://a.test/no-1", Seed: true})
		d.add(Candidate{URL: "http://a.test/2", Seed: true})
		d.add(Candidate{URL: "http://b.test/1", Seed: true})
		ctx := context.Background()
		var la *Lease
		for la == nil { // both robots leases, then a's first page
			l, err := d.s.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if l.Kind == KindRobots {
				d.one(l)
			} else if l.Authority == "http://a.test:80" {
				la = l
			} else {
				t.Fatalf("leased %s before a's first page", l.URL)
			}
		}
		got := make(chan *Lease, 1)
		go func() {
			l, err := d.s.Next(ctx)
			if err != nil {
				t.Error(err)
			}
			got <- l
		}()
		synctest.Wait()
		select {
		case l := <-got:
			t.Fatalf("%s leased while a page is in flight against max_pages 1", l.URL)
		default:
		}
		d.s.Finish(la, Result{Skip: &Skip{URL: la.URL, Reason: ReasonRobotsDisallowed}})
		synctest.Wait()
		var lb *Lease
		select {
		case lb = <-got:
		default:
			t.Fatal("nothing leased after the page in flight was refused")
		}
		if lb.URL != "http://a.test/2" && lb.URL != "http://b.test/1" {
			t.Fatalf("leased %s", lb.URL)
		}
		d.s.Finish(lb, Result{Status: 200})
		if _, err := d.s.Next(ctx); !errors.Is(err, ErrDrained) {
			t.Errorf("next after the limit: %v, want drained", err)
		}
		if sk := d.skipped(ReasonMaxPages); len(sk) != 1 {
			t.Errorf("max-pages skips %v, want the one page left", sk)
		}
	})
}

// TestMaxPagesSkipsWithoutWaitingForPace: max_pages 1 with Crawl-delay 20
// (a.test) and 30 (b.test). The one page comes at 20 s; the URLs left on
// both hosts are skipped with max-pages right then, not when each host's
// pace would have let it fetch (40 s, 30 s), and the crawl ends at 20 s.
func TestMaxPagesSkipsWithoutWaitingForPace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.Scope.MaxPages = 1
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.rules["http://a.test:80"] = Rules{CrawlDelay: 20 * time.Second, HasCrawlDelay: true, CrawlDelayLine: 2}
		f.rules["http://b.test:80"] = Rules{CrawlDelay: 30 * time.Second, HasCrawlDelay: true, CrawlDelayLine: 2}
		f.add(urls("http://a.test", 3)...)
		f.add(urls("http://b.test", 2)...)
		f.run(2)
		if p := f.pages(); len(p) != 1 || !p[0].Equal(epoch.Add(20*time.Second)) {
			t.Errorf("pages %v, want one at 20 s", offsets(epoch, p))
		}
		if end := time.Since(epoch); end >= 21*time.Second {
			t.Errorf("crawl ended at %s, want right after the page at 20 s", end)
		}
		if len(f.skips) != 4 {
			t.Errorf("skips %+v, want the 4 URLs left", f.skips)
		}
		for _, sk := range f.skips {
			if sk.Reason != ReasonMaxPages || sk.Time.Sub(epoch) >= 21*time.Second {
				t.Errorf("skip %+v, want max-pages at 20 s", sk)
			}
		}
	})
}

// TestRetryIsOneMoreAttemptNotAFailure: Result.Retry (an answer the
// crawler fetches once more, a body the server ended early) puts the URL
// back as one more attempt: no failure of the host, no page counted
// against max_pages_per_host until the answer that stays.
func TestRetryIsOneMoreAttemptNotAFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.Scope.MaxPagesPerHost = 1
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.add("http://a.test/p")
		ctx := context.Background()
		l, err := f.s.Next(ctx)
		if err != nil || l.Kind != KindRobots {
			t.Fatalf("first lease %+v %v", l, err)
		}
		f.one(l)
		for attempt, retry := range []bool{true, false} {
			l, err := f.s.Next(ctx)
			if err != nil || l.URL != "http://a.test/p" || l.Attempt != attempt {
				t.Fatalf("lease %d: %+v %v, want the page at attempt %d", attempt, l, err, attempt)
			}
			if err := f.s.Wait(ctx, l.Authority); err != nil {
				t.Fatal(err)
			}
			f.s.Observe(l.Authority, 200, time.Millisecond, "", nil)
			if err := f.s.Finish(l, Result{Status: 200, Retry: retry}); err != nil {
				t.Fatal(err)
			}
		}
		st := f.s.Stats()
		if st.Fetched != 1 || st.Errors != 0 || st.Retries != 1 || st.Queued != 0 {
			t.Errorf("stats %+v: want the page fetched once after one retry, no error", st)
		}
		if h := f.s.Host("http://a.test:80"); h.State == StateDropped {
			t.Errorf("host %+v dropped", h)
		}
	})
}

// TestMaxPagesEndsTheCrawlWithoutRobotsRetries: once max_pages is reached
// no page can be fetched, so a host whose robots.txt is unreachable has
// nothing left to fetch it for: its queued pages are skipped with
// max-pages at once, its robots.txt is not asked for again (retries at
// 30 s, 60 s, 120 s, 240 s held a crawl 7.5 minutes), and Next ends with
// ErrDrained without waiting.
func TestMaxPagesEndsTheCrawlWithoutRobotsRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cfg := testConfig()
		cfg.Scope.MaxPages = 1
		cfg.MaxWait = time.Hour
		d := newLimitDriver(t, cfg, NewMemStore())
		defer d.s.Close()
		d.add(Candidate{URL: "http://b.test/", Seed: true})
		d.add(Candidate{URL: "http://b.test/more", Seed: true})
		d.add(Candidate{URL: "http://a.test/", Seed: true})
		d.add(Candidate{URL: "http://a.test/p1", Depth: 1})
		start := time.Now()
		robotsB := 0
		for {
			l, err := d.s.Next(context.Background())
			if errors.Is(err, ErrDrained) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if l.Kind == KindRobots && l.Authority == "http://b.test:80" {
				robotsB++
				d.s.RulesFailed(l.Authority, time.Now().Add(30*time.Second<<(robotsB-1)))
				d.s.Finish(l, Result{})
				continue
			}
			d.one(l)
		}
		if took := time.Since(start); took >= 30*time.Second {
			t.Errorf("the crawl ended after %v, with max_pages reached at once", took)
		}
		if robotsB != 1 {
			t.Errorf("b.test's robots.txt asked for %d times; want once, before max_pages was reached", robotsB)
		}
		d.mu.Lock()
		var bSkips []string
		for _, sk := range d.skips {
			if sk.Authority == "http://b.test:80" {
				bSkips = append(bSkips, sk.URL+" "+string(sk.Reason))
			}
		}
		d.mu.Unlock()
		if want := []string{"http://b.test/ max-pages", "http://b.test/more max-pages"}; !slices.Equal(bSkips, want) {
			t.Errorf("b.test's skips %q, want %q", bSkips, want)
		}
	})
}
