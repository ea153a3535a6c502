package robotscache

import (
	"runtime"
	"testing"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// installed returns the state the cache builds for a cached record, as a
// resumed run does.
func installed(t *testing.T, cfg Config, rec Record) *State {
	t.Helper()
	l, _ := newTestLayer(t, cfg, nil)
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.put(Prepare(l.cfg, rec))
}

// TestCachedCutRobotsKeepsWholeLinesOnly: RFC 9309 2.5, a crawler parses up
// to its limit. A cached robots.txt cut by an earlier run's smaller limit
// (or a timeout) is not re-read as whole when the limit is raised: its cut
// last line ("Allow: /" of "Allow: /public") is not a rule.
func TestCachedCutRobotsKeepsWholeLinesOnly(t *testing.T) {
	rec := Record{Authority: "http://a.test:80", Outcome: OutcomeParsed, Policy: "parse", Status: 200,
		Body: []byte("User-agent: *\nDisallow: /\nAllow: /"), Truncated: true}
	cfg := testRobotsConfig()
	cfg.MaxBytes = 4 << 20
	st := installed(t, cfg, rec)
	if v := st.group.Allowed("/b"); v.Allowed {
		t.Errorf("/b: %+v; the cut line \"Allow: /\" was read as a rule", v)
	}
	rec.Truncated = false // a whole file: its last line counts
	if v := installed(t, cfg, rec).group.Allowed("/b"); !v.Allowed {
		t.Errorf("/b: %+v; a whole file's last line \"Allow: /\" was not applied", v)
	}
}

// TestCachedForbiddenFollowsTheCurrentOption: a 403 cached by a run with
// robots.forbidden_disallows is read with the option as it is now: off,
// RFC 9309 2.3.1.3 allows everything; on, everything is disallowed.
func TestCachedForbiddenFollowsTheCurrentOption(t *testing.T) {
	rec := Record{Authority: "http://a.test:80", Outcome: OutcomeUnavailable, Policy: "disallow-all", Status: 403}
	cfg := testRobotsConfig()
	cfg.ForbiddenDisallows = false
	st := installed(t, cfg, rec)
	if v := st.group.Allowed("/b"); !v.Allowed || st.rec.Policy != "allow-all" {
		t.Errorf("option off: /b %+v, policy %q; want allowed, allow-all", v, st.rec.Policy)
	}
	cfg.ForbiddenDisallows = true
	rec.Policy = "allow-all"
	st = installed(t, cfg, rec)
	if v := st.group.Allowed("/b"); v.Allowed || st.rec.Policy != "disallow-all" {
		t.Errorf("option on: /b %+v, policy %q; want disallowed, disallow-all", v, st.rec.Policy)
	}
}

// TestRefuseHoldsRobotsWeakly: the scheduler keeps every host's rules for
// the whole run, so their verdict must not keep a parsed robots.txt alive:
// it refuses while the file is in the robots cache (robots.cache_size),
// and once the file has left the cache and been collected it leaves the
// decision to the crawler's check at lease time.
func TestRefuseHoldsRobotsWeakly(t *testing.T) {
	cfg := testRobotsConfig()
	cfg.CacheSize = 1
	l, _ := newTestLayer(t, cfg, nil)
	body := []byte("User-agent: *\nDisallow: /private\n")
	install := func(a string) scheduler.Rules {
		l.mu.Lock()
		defer l.mu.Unlock()
		st := l.put(Prepare(l.cfg, Record{Authority: a, Outcome: OutcomeParsed, Policy: "parse", Status: 200, Body: body,
			Expires: time.Now().Add(time.Hour)}))
		return st.Rules("testbot")
	}
	rules := install("http://a.test:80")
	if _, _, _, refused := rules.Refuse("http://a.test/private/x"); !refused {
		t.Fatal("not refused while the robots.txt is cached")
	}
	install("http://b.test:80") // cache_size 1: a.test's file leaves the cache
	runtime.GC()
	if _, _, _, refused := rules.Refuse("http://a.test/private/x"); refused {
		t.Error("the verdict kept a.test's parsed robots.txt alive after it left the cache")
	}
}
