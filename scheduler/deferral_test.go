package scheduler

import (
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// TestDeferredHostReportsEveryQueuedURL: a host deferred by a slow
// Request-rate reports each queued URL once, spilled ones included, with
// the Request-rate line that holds it back; nothing is fetched and every
// URL stays queued.
func TestDeferredHostReportsEveryQueuedURL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, testConfig(), NewMemStore()) // MaxWait 1h
		defer f.s.Close()
		rr := rrate(1, 2*time.Hour, "", 4)
		rr.Text = "Request-rate: 1/2h"
		f.rules["http://a.test:80"] = Rules{RequestRates: []robots.RequestRate{rr}}
		want := urls("http://a.test", 2*perHostCache+5)
		f.add(want...)
		f.run(1)
		if p := f.pages(); len(p) != 0 {
			t.Errorf("pages %v, want none (robots.txt started the 2 h interval)", p)
		}
		var got []string
		for _, sk := range f.skips {
			got = append(got, sk.URL)
			if sk.Reason != ReasonCrawlDelayTooLong || sk.Rule != "Request-rate: 1/2h" || sk.Line != 4 {
				t.Errorf("skip %+v, want crawl-delay-too-long by the Request-rate on line 4", sk)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("skipped %d URLs %v, want the %d still queued", len(got), got, len(want))
		}
		if st := f.s.Stats(); st.Queued != len(want) {
			t.Errorf("queued %d, want %d", st.Queued, len(want))
		}
	})
}

// TestRestartedHostDeferredByWhatHoldsIt: a host deferred in one run and
// deferred again when the crawl is rerun is reported with what holds it
// back, never as robots-unreachable: the Retry-After the server sent (a 503
// with Retry-After: 15, MaxWait 5s, rerun 2 s later; its robots.txt waits
// for the Retry-After too), or the Visit-time of its robots.txt (Visit-time
// 1200-1300, rerun at once; robots.txt is not a page, so the rerun reads it
// at once, from the crawler's cache in a real crawl, and the host is then
// deferred by the windows it gives).
func TestRestartedHostDeferredByWhatHoldsIt(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rules     Rules
		respond   func(string, int) response
		rerun     time.Duration
		reason    Reason
		rule      string
		line      int
		untilHold string // clock time the host is deferred until in the rerun
		robots    bool   // the rerun reads robots.txt at its start
	}{
		{
			name:    "retry-after",
			respond: func(string, int) response { return response{Status: 503, RetryAfter: "15"} },
			rerun:   2 * time.Second, reason: ReasonBackoffDeferred,
			rule: "retry-after 15s (Retry-After: 15)", untilHold: "00:00:16",
		},
		{
			name: "visit-time",
			// The skip's rule is the line as written, also after a restart
			// (the windows are persisted with their text).
			rules: Rules{VisitTimes: []robots.Window{{From: 12 * 60, To: 13*60 - 1, Line: 4, Text: "Visit-time: 1200-1259"}}},
			rerun: 0, reason: ReasonVisitTimeDeferred,
			rule: "Visit-time: 1200-1259", line: 4, untilHold: "12:00:00",
			robots: true,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig()
				cfg.MaxWait = 5 * time.Second
				cfg.DefaultDelay = time.Second
				store := NewMemStore()
				f := newFake(t, cfg, store)
				f.rules["http://a.test:80"] = tc.rules
				if tc.respond != nil {
					f.respond = tc.respond
				}
				f.add(urls("http://a.test", 2)...)
				f.run(1)
				if err := f.s.Close(); err != nil {
					t.Fatal(err)
				}
				time.Sleep(tc.rerun)
				g := newFake(t, cfg, store)
				defer g.s.Close()
				g.rules["http://a.test:80"] = tc.rules
				g.run(1)
				want := []fetch(nil)
				if tc.robots {
					// Not before the restart floor: the first run's
					// robots.txt at 0 s plus its 1 s pace.
					want = []fetch{{URL: "http://a.test/robots.txt", Kind: KindRobots, T: epoch.Add(time.Second)}}
				}
				same := func(x, y fetch) bool { return x.URL == y.URL && x.Kind == y.Kind && x.T.Equal(y.T) }
				if !slices.EqualFunc(g.fetches, want, same) {
					t.Errorf("rerun fetched %+v, want %+v", g.fetches, want)
				}
				if len(g.skips) != 2 {
					t.Fatalf("rerun skips %+v, want one per queued URL", g.skips)
				}
				until := at(t, tc.untilHold).UTC().Format(time.RFC3339)
				for _, sk := range g.skips {
					if sk.Reason != tc.reason || sk.Rule != tc.rule || sk.Line != tc.line || !strings.Contains(sk.Detail, "until "+until) {
						t.Errorf("skip %+v, want %s by %q (line %d) until %s", sk, tc.reason, tc.rule, tc.line, until)
					}
				}
			})
		})
	}
}

// TestDeferralNamesWhosePaceHoldsTheHost: a host held past MaxWait by the
// site's own pace lines (Crawl-delay, Request-rate) is
// crawl-delay-too-long; one held by the crawl's own pace (min-delay, the
// default, the adaptive pace) is pace-too-long, so that counting
// crawl-delay-too-long counts only hosts that asked for a slow pace: a site
// without any Crawl-delay is never reported crawl-delay-too-long with
// "default 10s".
func TestDeferralNamesWhosePaceHoldsTheHost(t *testing.T) {
	const a = "http://a.test:80"
	for _, tc := range []struct {
		name    string
		cfg     func(*Config)
		rules   Rules
		respond func(string, int) response
		reason  Reason
		rule    string
		line    int
		skips   int
	}{
		{
			name: "Crawl-delay", rules: Rules{HasCrawlDelay: true, CrawlDelay: 2 * time.Hour, CrawlDelayLine: 3},
			reason: ReasonCrawlDelayTooLong, rule: "Crawl-delay: 7200", line: 3, skips: 2,
		},
		{
			name: "Request-rate", rules: Rules{RequestRates: []robots.RequestRate{rrate(1, 2*time.Hour, "", 5)}},
			reason: ReasonCrawlDelayTooLong, rule: "Request-rate: 1/2h (line 5)", line: 5, skips: 2,
		},
		{
			name: "default delay", cfg: func(c *Config) { c.DefaultDelay = 2 * time.Hour },
			reason: ReasonPaceTooLong, rule: "default 2h (configured)", skips: 2,
		},
		{
			name: "min delay above the site's Crawl-delay", cfg: func(c *Config) { c.MinDelay = 2 * time.Hour },
			rules:  Rules{HasCrawlDelay: true, CrawlDelay: 100 * time.Millisecond, CrawlDelayLine: 3},
			reason: ReasonPaceTooLong, rule: "min-delay 2h", skips: 2,
		},
		{
			name: "adaptive pace of a slow host", cfg: func(c *Config) { c.FetchTimeFactor = 2; c.DefaultDelay = time.Second },
			respond: func(string, int) response { return response{Status: 200, Dur: 70 * time.Minute} },
			reason:  ReasonPaceTooLong, rule: "adaptive 2x1h10m", skips: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig() // MaxWait 1h
				if tc.cfg != nil {
					tc.cfg(&cfg)
				}
				f := newFake(t, cfg, NewMemStore())
				defer f.s.Close()
				f.rules[a] = tc.rules
				if tc.respond != nil {
					f.respond = tc.respond
				}
				f.add(urls("http://a.test", 2)...)
				f.run(1)
				if len(f.skips) != tc.skips {
					t.Fatalf("skips %+v, want %d", f.skips, tc.skips)
				}
				for _, sk := range f.skips {
					if sk.Reason != tc.reason || sk.Rule != tc.rule || sk.Line != tc.line {
						t.Errorf("skip %s: %s by %q (line %d), want %s by %q (line %d)", sk.URL, sk.Reason, sk.Rule, sk.Line, tc.reason, tc.rule, tc.line)
					}
				}
			})
		})
	}
}

// TestRerunDeferredByPreviousIntervalNamesTheSite: in a rerun, until
// robots.txt is read, the previous run's interval stands in for the host's
// rules; a host it holds past MaxWait is deferred as the site's pace
// (crawl-delay-too-long) when the site's Crawl-delay set that interval,
// and as the crawl's own pace (pace-too-long) when min-delay did.
func TestRerunDeferredByPreviousIntervalNamesTheSite(t *testing.T) {
	const a = "http://a.test:80"
	for _, tc := range []struct {
		name     string
		minDelay time.Duration
		reason   Reason
		rule     string
	}{
		{"Crawl-delay set the interval", 0, ReasonCrawlDelayTooLong, "previous run's interval 2h (until robots.txt is read)"},
		{"min-delay set the interval", 2 * time.Hour, ReasonPaceTooLong, "min-delay 2h"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				cfg := testConfig()
				cfg.MaxWait = 3 * time.Hour
				cfg.MinDelay = tc.minDelay
				store := NewMemStore()
				rules := Rules{HasCrawlDelay: true, CrawlDelay: 2 * time.Hour, CrawlDelayLine: 3}
				if tc.minDelay > 0 {
					rules.CrawlDelay = time.Second
				}
				f := newFake(t, cfg, store)
				f.rules[a] = rules
				f.add("http://a.test/p0")
				f.run(1) // robots.txt at 0, /p0 at 2h
				if err := f.s.Close(); err != nil {
					t.Fatal(err)
				}
				cfg.MaxWait = time.Hour
				g := newFake(t, cfg, store)
				defer g.s.Close()
				g.rules[a] = rules
				g.add("http://a.test/p1")
				g.run(1)
				if len(g.fetches) != 0 {
					t.Errorf("rerun fetched %+v, want nothing within the hour", g.fetches)
				}
				if len(g.skips) != 1 || g.skips[0].Reason != tc.reason || g.skips[0].Rule != tc.rule {
					t.Errorf("rerun skips %+v, want /p1 %s by %q", g.skips, tc.reason, tc.rule)
				}
			})
		})
	}
}
