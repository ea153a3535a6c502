package crawler

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
)

// testConfig is a fast config for local crawls: hosts that ask for no pace
// get 100ms, and nothing waits longer than a few seconds.
func testConfig(t testing.TB) config.Config {
	cfg := config.Default()
	cfg.Out = t.TempDir()
	cfg.Agent.Token = "testbot"
	cfg.Politeness.DefaultDelay = 100 * time.Millisecond
	cfg.Politeness.MaxWait = 5 * time.Second
	cfg.Politeness.BackoffBase = 200 * time.Millisecond
	cfg.Politeness.BackoffMax = time.Second
	cfg.Politeness.MaxFailures = 2
	cfg.Fetch.Workers = 8
	cfg.Fetch.Timeout = 5 * time.Second
	cfg.Robots.RetryBase = 200 * time.Millisecond
	cfg.Log.Progress = "never"
	return cfg
}

func crawlFor(t *testing.T, cfg config.Config, seeds ...string) *crawllog.Summary {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sum, err := Run(ctx, cfg, Options{Seeds: seeds})
	if err != nil {
		t.Fatalf("crawl: %v", err)
	}
	return sum
}

func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: bad line %q: %v", path, sc.Text(), err)
		}
		out = append(out, v)
	}
	return out
}

func clockAt(t time.Time) string { return t.UTC().Format("1504") }

// TestCrawlHonoursEveryInvariant crawls a small web of hosts, each with a
// different robots.txt, and proves DESIGN.md's politeness invariants from
// the servers' own request logs.
func TestCrawlHonoursEveryInvariant(t *testing.T) {
	now := time.Now().UTC()
	// Crawl-delay with a disallowed trap and wildcard rules.
	delay := newTestHost(t)
	delay.robotsText("User-agent: *\nDisallow: /\n\nUser-agent: testbot\nCrawl-delay: 0.3\nDisallow: /trap/\nDisallow: /*.pdf$\nAllow: /docs/*.pdf$\nComment: please be gentle\n")
	delay.html("/", "/a", "/b", "/trap/1", "/file.pdf", "/docs/ok.pdf", "/c?x=1")
	delay.html("/a", "/", "/b", "/trap/2")
	delay.html("/b", "/a")
	delay.html("/c?x=1")
	delay.html("/docs/ok.pdf")
	delay.html("/trap/1", "/trap/2")
	// Request-rate: an unwindowed 5/1s and a windowed 1/400ms... the slowest in force wins.
	rate := newTestHost(t)
	win := fmt.Sprintf("%s-%s", clockAt(now.Add(-time.Hour)), clockAt(now.Add(time.Hour)))
	rate.robotsText("User-agent: *\nRequest-rate: 5/1s\nRequest-rate: 2/1s " + win + "\nRequest-rate: 1/10m " + clockAt(now.Add(3*time.Hour)) + "-" + clockAt(now.Add(4*time.Hour)) + "\n")
	rate.html("/", "/1", "/2", "/3")
	rate.html("/1")
	rate.html("/2")
	rate.html("/3")
	// Visit-time open now.
	open := newTestHost(t)
	open.robotsText("User-agent: *\nVisit-time: " + win + "\n")
	open.html("/", "/x")
	open.html("/x")
	// Visit-time closed now (opens in 3h, beyond max_wait): deferred, nothing but robots.txt.
	closed := newTestHost(t)
	closed.robotsText("User-agent: *\nVisit-time: " + clockAt(now.Add(3*time.Hour)) + "-" + clockAt(now.Add(4*time.Hour)) + "\n")
	closed.html("/", "/x")
	// robots.txt 404: everything allowed.
	missing := newTestHost(t)
	missing.html("/", "/p")
	missing.html("/p")
	// robots.txt 503: nothing but robots.txt requests.
	down := newTestHost(t)
	down.robots = func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }
	down.html("/")
	// robots.txt redirects to another host; the result applies here.
	target := newTestHost(t)
	target.robotsText("User-agent: *\nDisallow: /secret\n")
	redir := newTestHost(t)
	redir.robots = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL("/robots.txt"), http.StatusMovedPermanently)
	}
	redir.html("/", "/secret/1", "/open")
	redir.html("/open")
	// A page redirecting across hosts to a path the target disallows.
	hop := newTestHost(t)
	hop.pages["/"] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL("/secret/moved"), http.StatusFound)
	}

	cfg := testConfig(t)
	cfg.Scope.Hosts = "any"
	sum := crawlFor(t, cfg, delay.URL("/"), rate.URL("/"), open.URL("/"), closed.URL("/"), missing.URL("/"),
		down.URL("/"), redir.URL("/"), hop.URL("/"))

	for _, h := range []*testHost{delay, rate, open, closed, missing, down, target, redir, hop} {
		h.assertRobotsFirst()
		for _, r := range h.requests() {
			if !strings.HasPrefix(r.UA, "testbot/") {
				t.Errorf("%s got User-Agent %q", h.srv.URL, r.UA)
			}
		}
	}
	// Invariant 2: disallowed paths, wildcards, redirected robots, redirect targets.
	delay.assertNever("/trap/", "/file.pdf")
	redir.assertNever("/secret")
	target.assertNever("/secret")
	if got := strings.Join(delay.paths(), " "); !strings.Contains(got, "/docs/ok.pdf") || !strings.Contains(got, "/c?x=1") {
		t.Errorf("Allow by length and query URLs must be fetched: %s", got)
	}
	// Invariant 3: the pace each host asked for (plus the test's 100ms default).
	delay.assertMinGap(300 * time.Millisecond)
	rate.assertMinGap(500 * time.Millisecond)
	open.assertMinGap(100 * time.Millisecond)
	missing.assertMinGap(100 * time.Millisecond)
	if n := len(rate.requests()); n != 5 {
		t.Errorf("rate host: %d requests, want robots.txt + 4 pages: %v", n, rate.paths())
	}
	// Invariant 4: nothing outside Visit-time; 5xx robots keeps us out.
	if p := closed.paths(); len(p) != 1 {
		t.Errorf("closed Visit-time host got %v, want only /robots.txt", p)
	}
	if p := open.paths(); len(p) != 3 {
		t.Errorf("open Visit-time host got %v, want robots.txt, /, /x", p)
	}
	for _, p := range down.paths() {
		if p != "/robots.txt" {
			t.Errorf("host with 503 robots.txt got a page request %s", p)
		}
	}
	if p := missing.paths(); len(p) != 3 {
		t.Errorf("404 robots.txt means allow all: got %v", p)
	}
	// Invariant 5: every skip has its reason, and robots skips their rule and line.
	skips := readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))
	byURL := map[string]crawllog.SkipEntry{}
	for _, s := range skips {
		byURL[s.URL] = s
	}
	for url, want := range map[string]crawllog.SkipEntry{
		delay.URL("/trap/1"):        {Reason: "robots-disallowed", Rule: "Disallow: /trap/", Line: 6},
		delay.URL("/file.pdf"):      {Reason: "robots-disallowed", Rule: "Disallow: /*.pdf$", Line: 7},
		redir.URL("/secret/1"):      {Reason: "robots-disallowed", Rule: "Disallow: /secret", Line: 2},
		target.URL("/secret/moved"): {Reason: "robots-disallowed", Rule: "Disallow: /secret", Line: 2},
	} {
		got, ok := byURL[url]
		if !ok || got.Reason != want.Reason || got.Rule != want.Rule || got.Line != want.Line {
			t.Errorf("skip for %s = %+v, want %+v", url, got, want)
		}
	}
	if s, ok := byURL[down.URL("/")]; !ok || s.Reason != "robots-unreachable" {
		t.Errorf("the 503 host's seed must be skipped as robots-unreachable, got %+v", s)
	}
	// The summary names each host's pace, its source, deferral and Comments.
	hosts := map[string]crawllog.HostSummary{}
	for _, h := range sum.Hosts {
		hosts[h.Host] = h
	}
	if h := hosts[delay.srv.URL]; !strings.Contains(h.PaceRule, "crawl-delay 300ms (line 5)") {
		t.Errorf("delay host pace rule %q", h.PaceRule)
	} else if h.Robots == nil || len(h.Robots.Comments) != 1 || h.Robots.Comments[0] != "please be gentle" {
		t.Errorf("delay host comments: %+v", h.Robots)
	}
	if h := hosts[closed.srv.URL]; h.State != "deferred" || h.DeferredUntil == nil {
		t.Errorf("closed host must be deferred: %+v", h)
	}
	// Every request made is in the crawl log, with its pace.
	entries := readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile))
	total := 0
	for _, h := range []*testHost{delay, rate, open, closed, missing, down, target, redir, hop} {
		total += len(h.requests())
	}
	if len(entries) != total {
		t.Errorf("crawl log has %d lines, servers saw %d requests", len(entries), total)
	}
	for _, e := range entries {
		if e.PaceRule == "" {
			t.Errorf("crawl log line without pace rule: %+v", e)
		}
	}
}
