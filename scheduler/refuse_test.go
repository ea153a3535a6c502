package scheduler

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// refuseRules is a robots.txt group with Crawl-delay: 10 (line 4) that
// disallows the paths listed (each "Disallow: <path>" on line 2, 3, ...);
// a path "*" refuses everything with no line, as a disallow-all policy
// does.
func refuseRules(paths ...string) Rules {
	return Rules{CrawlDelay: 10 * time.Second, HasCrawlDelay: true, CrawlDelayLine: 4,
		Refuse: func(u string) (string, int, string, bool) {
			for i, p := range paths {
				if p == "*" {
					return "", 0, "disallow-all policy", true
				}
				if strings.HasSuffix(u, p) {
					rule := "Disallow: " + p
					return rule, i + 2, fmt.Sprintf("robots.txt line %d %q disallows it", i+2, rule), true
				}
			}
			return "", 0, "", false
		}}
}

// skipURLs lists the URLs, reasons and fake-time offsets of skips.
func skipURLs(skips []Skip) []string {
	var out []string
	for _, sk := range skips {
		out = append(out, fmt.Sprintf("%s %s +%s", sk.URL, sk.Reason, sk.Time.Sub(epoch)))
	}
	return out
}

// TestRefusedHeadsSkippedWithoutPace: seeds /a, /b, /c of a host whose
// robots.txt (read at 0 s) disallows /a and /b and asks for Crawl-delay 10:
// /a and /b are skipped with robots-disallowed as soon as the rules are
// set, with their rule, line and words; /c is fetched at 10 s; /a and /b
// are never leased.
func TestRefusedHeadsSkippedWithoutPace(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const a = "http://a.test:80"
		f := newFake(t, testConfig(), NewMemStore())
		defer f.s.Close()
		f.rules[a] = refuseRules("/a", "/b")
		f.add("http://a.test/a", "http://a.test/b", "http://a.test/c")
		f.run(2)
		want := []string{"http://a.test/a robots-disallowed +0s", "http://a.test/b robots-disallowed +0s"}
		if got := skipURLs(f.skips); !slices.Equal(got, want) {
			t.Errorf("skips %q, want %q", got, want)
		}
		if len(f.skips) == 2 {
			if sk := f.skips[1]; sk.Rule != "Disallow: /b" || sk.Line != 3 || sk.Detail != `robots.txt line 3 "Disallow: /b" disallows it` || sk.Authority != a {
				t.Errorf("skip of /b: %+v", sk)
			}
		}
		if len(f.fetches) != 2 || f.fetches[1].URL != "http://a.test/c" || f.fetches[1].T.Sub(epoch) != 10*time.Second {
			t.Errorf("fetches %+v, want robots.txt at 0s and /c at 10s", f.fetches)
		}
		if st := f.s.Stats(); st.Skipped != 2 || st.Fetched != 1 || st.Queued != 0 {
			t.Errorf("stats %+v, want 2 skipped, 1 fetched, none queued", st)
		}
	})
}

// TestDisallowAllEndsWithoutPace: a disallow-all policy (a 403 read under
// robots.forbidden_disallows) refuses every seed: all are skipped right
// after robots.txt, and the frontier drains without waiting out the pace.
// That includes the seeds past the RAM head of the queue, refilled from
// the store.
func TestDisallowAllEndsWithoutPace(t *testing.T) {
	for _, n := range []int{4, perHostCache + 8} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				const a = "http://a.test:80"
				f := newFake(t, testConfig(), NewMemStore())
				defer f.s.Close()
				f.rules[a] = refuseRules("*")
				f.add(urls("http://a.test", n)...)
				f.run(2)
				if d := time.Since(epoch); d != 0 {
					t.Errorf("drained after %s, want 0s", d)
				}
				if len(f.fetches) != 1 || f.fetches[0].Kind != KindRobots {
					t.Errorf("fetches %+v, want robots.txt only", f.fetches)
				}
				if len(f.skips) != n {
					t.Fatalf("%d skips, want %d", len(f.skips), n)
				}
				// Two workers deliver the skips they took: the log's order
				// across them is not the queue's, each URL is there once.
				seen := map[string]bool{}
				for i, sk := range f.skips {
					if sk.Reason != ReasonRobotsDisallowed || sk.Detail != "disallow-all policy" || sk.Rule != "" || sk.Line != 0 || !sk.Time.Equal(epoch) || seen[sk.URL] {
						t.Errorf("skip %d: %+v, want a robots-disallowed skip at 0s of a URL not skipped before", i, sk)
					}
					seen[sk.URL] = true
				}
				for i := range n {
					if want := fmt.Sprintf("http://a.test/p%d", i); !seen[want] {
						t.Errorf("%s was not skipped", want)
					}
				}
				if st := f.s.Stats(); st.Skipped != n || st.Queued != 0 {
					t.Errorf("stats %+v, want %d skipped, none queued", st, n)
				}
			})
		})
	}
}

// TestRefusedHeadNotHeldByLeaseInFlight: with one lease per host, a
// refused URL behind /c is skipped when /c's lease is issued, not when
// /c's slow response (3 s) ends.
func TestRefusedHeadNotHeldByLeaseInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const a = "http://a.test:80"
		cfg := testConfig()
		cfg.PerHost = 1
		f := newFake(t, cfg, NewMemStore())
		defer f.s.Close()
		f.rules[a] = refuseRules("/a")
		f.respond = func(string, int) response { return response{Status: 200, Dur: 3 * time.Second} }
		f.add("http://a.test/c", "http://a.test/a", "http://a.test/d")
		f.run(2)
		if got, want := skipURLs(f.skips), []string{"http://a.test/a robots-disallowed +10s"}; !slices.Equal(got, want) {
			t.Errorf("skips %q, want %q", got, want)
		}
		if got, want := offsets(epoch, f.pages()), []time.Duration{10 * time.Second, 20 * time.Second}; !slices.Equal(got, want) {
			t.Errorf("pages at %v, want %v", got, want)
		}
		if f.maxIn[a] != 1 {
			t.Errorf("%d requests in flight at once, want 1", f.maxIn[a])
		}
	})
}

// TestAddRefusesUnderKnownRules: once the rules are set, Add skips a
// refused URL at once (remembered as seen: offered again it is a
// duplicate); before the rules and after RefuseUntil the URL is queued
// and leased (the caller decides at lease time).
func TestAddRefusesUnderKnownRules(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const a = "http://a.test:80"
		s, err := Open(testConfig(), NewMemStore())
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if sk, err := s.Add(Candidate{URL: "http://a.test/a", Seed: true}); sk != nil || err != nil {
			t.Fatalf("before rules: %+v %v, want queued", sk, err)
		}
		r := refuseRules("/a", "/b")
		r.RefuseUntil = epoch.Add(time.Hour)
		s.SetRules(a, r)
		sk, err := s.Add(Candidate{URL: "http://a.test/b", Parent: "http://a.test/a"})
		if err != nil || sk == nil || sk.Reason != ReasonRobotsDisallowed || sk.URL != "http://a.test/b" || sk.Parent != "http://a.test/a" ||
			sk.Authority != a || sk.Rule != "Disallow: /b" || sk.Line != 3 || !sk.Time.Equal(epoch) {
			t.Fatalf("add /b: %+v %v, want robots-disallowed by line 3", sk, err)
		}
		if sk, _ := s.Add(Candidate{URL: "http://a.test/b"}); sk == nil || sk.Reason != ReasonDuplicate {
			t.Errorf("/b again: %+v, want duplicate", sk)
		}
		if sk, _ := s.Add(Candidate{URL: "http://a.test/c"}); sk != nil {
			t.Errorf("add /c: %+v, want queued", sk)
		}
		if st := s.Stats(); st.Skipped != 2 || st.Queued != 2 {
			t.Errorf("stats %+v, want 2 skipped (/b and its duplicate), 2 queued", st)
		}
		time.Sleep(time.Hour) // the rules' verdicts expire
		if sk, _ := s.Add(Candidate{URL: "http://a.test/a2"}); sk != nil {
			t.Errorf("add /a2 after RefuseUntil: %+v, want queued", sk)
		}
		ctx := context.Background()
		var leased []string
		for {
			l, err := s.Next(ctx)
			if errors.Is(err, ErrDrained) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			leased = append(leased, l.URL)
			if err := s.Finish(l, Result{Status: 200}); err != nil {
				t.Fatal(err)
			}
		}
		if want := []string{"http://a.test/a", "http://a.test/c", "http://a.test/a2"}; !slices.Equal(leased, want) {
			t.Errorf("leased %q, want %q (expired verdicts refuse nothing)", leased, want)
		}
	})
}

// TestRefusedSeedKeepsSeedHost: a seed refused by Add still makes its
// host a seed host, in this run and, through the host record, in the
// next: a link to the host is in scope after a restart.
func TestRefusedSeedKeepsSeedHost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const b = "http://b.test:80"
		store := NewMemStore()
		cfg := testConfig()
		cfg.Scope.Mode = ScopeSeeds
		s, err := Open(cfg, store)
		if err != nil {
			t.Fatal(err)
		}
		s.SetRules(b, refuseRules("*"))
		if sk, _ := s.Add(Candidate{URL: "http://b.test/", Seed: true}); sk == nil || sk.Reason != ReasonRobotsDisallowed {
			t.Fatalf("seed: %+v, want robots-disallowed", sk)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s, err = Open(cfg, store)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if sk, err := s.Add(Candidate{URL: "http://b.test/x", Parent: "http://c.test/"}); sk != nil || err != nil {
			t.Errorf("link to the refused seed's host after restart: %+v %v, want queued (Refuse is not persisted)", sk, err)
		}
	})
}
