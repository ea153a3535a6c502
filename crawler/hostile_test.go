package crawler

import (
	"bytes"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

// TestCollyEnvironmentCannotLoosenPoliteness sets every COLLY_* variable
// colly reads to its most permissive value and checks that robots.txt,
// redirects, the User-Agent and the body cap are still ours.
func TestCollyEnvironmentCannotLoosenPoliteness(t *testing.T) {
	for k, v := range map[string]string{
		"COLLY_IGNORE_ROBOTSTXT":          "yes",
		"COLLY_FOLLOW_REDIRECTS":          "yes",
		"COLLY_USER_AGENT":                "evilbot/1.0",
		"COLLY_MAX_BODY_SIZE":             "0",
		"COLLY_MAX_DEPTH":                 "0",
		"COLLY_ALLOWED_DOMAINS":           "",
		"COLLY_CACHE_DIR":                 t.TempDir(),
		"COLLY_PARSE_HTTP_ERROR_RESPONSE": "no",
		"COLLY_DISABLE_COOKIES":           "no",
	} {
		t.Setenv(k, v)
	}
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.2\nDisallow: /private\n")
	other := newTestHost(t)
	other.robotsText("User-agent: *\nDisallow: /\n")
	h.html("/", "/private/a", "/moved", "/big")
	h.pages["/moved"] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL("/landing"), http.StatusFound)
	}
	h.pages["/big"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(bytes.Repeat([]byte{0, 1, 2, 0xff}, 1<<18)) // 1 MiB of binary
	}
	cfg := testConfig(t)
	cfg.Scope.Hosts = "any"
	cfg.Fetch.MaxBody = 64 << 10
	crawlFor(t, cfg, h.URL("/"))
	h.assertRobotsFirst()
	h.assertNever("/private")
	h.assertMinGap(200 * time.Millisecond)
	if p := other.paths(); len(p) != 1 || p[0] != "/robots.txt" {
		t.Errorf("redirect target on a disallowing host was fetched: %v", p)
	}
	for _, r := range append(h.requests(), other.requests()...) {
		if !strings.HasPrefix(r.UA, "testbot/") {
			t.Errorf("User-Agent %q, want ours", r.UA)
		}
	}
	entries := readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile))
	for _, e := range entries {
		if strings.HasSuffix(e.URL, "/big") && (!e.Truncated || e.Bytes != 64<<10) {
			t.Errorf("body cap not applied: %+v", e)
		}
	}
}

// TestHostileServersDoNotStopTheCrawl: a redirect loop, a server that
// never answers, 5xx pages and an endless trap; the crawl ends, records
// why, and the healthy host is still crawled.
func TestHostileServersDoNotStopTheCrawl(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\n")
	h.html("/", "/loop", "/slow", "/fail", "/trap/0", "/ok")
	h.html("/ok")
	h.pages["/loop"] = func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop2", http.StatusFound) }
	h.pages["/loop2"] = func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) }
	h.pages["/slow"] = func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	h.pages["/fail"] = func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusInternalServerError) }
	for i := range 50 {
		h.html(fmt.Sprintf("/trap/%d", i), fmt.Sprintf("/trap/%d", i+1))
	}
	cfg := testConfig(t)
	cfg.Fetch.Timeout = 300 * time.Millisecond
	cfg.Politeness.MaxFailures = 3
	cfg.Scope.MaxDepth = 4
	sum := crawlFor(t, cfg, h.URL("/"))
	counts := map[string]int{}
	for _, p := range h.paths() {
		counts[p]++
	}
	if counts["/ok"] != 1 {
		t.Errorf("healthy page not fetched once: %v", counts)
	}
	if counts["/loop"] != 1 || counts["/loop2"] != 1 {
		t.Errorf("a redirect loop must end at the seen set: %v", counts)
	}
	if counts["/trap/4"] != 0 || counts["/trap/3"] != 1 {
		t.Errorf("max_depth 4 must stop the trap at /trap/3: %v", counts)
	}
	if counts["/fail"] < 2 || counts["/fail"] > 1+cfg.Fetch.Retries {
		t.Errorf("a 500 is retried up to fetch.retries: %d tries", counts["/fail"])
	}
	h.assertMinGap(100 * time.Millisecond)
	reasons := map[string]string{}
	for _, s := range readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile)) {
		reasons[strings.TrimPrefix(s.URL, h.srv.URL)] = s.Reason
	}
	if reasons["/trap/4"] != "max-depth" {
		t.Errorf("trap cut not recorded as max-depth: %v", reasons)
	}
	if reasons["/fail"] != "fetch-failed" {
		t.Errorf("/fail not recorded as fetch-failed: %v", reasons)
	}
	if sum.Totals.Errors == 0 {
		t.Error("errors not counted in the summary")
	}
	// A request that got no answer (the slow page's timeouts) is an error,
	// not a fetched page: fetched counts the pages that got an answer,
	// each once however often it was asked (the 500 page's tries are one
	// page).
	pages := map[string]bool{}
	unanswered := 0
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		switch {
		case e.Kind == "robots":
		case e.Status > 0:
			pages[e.URL] = true
		default:
			unanswered++
		}
	}
	answered := len(pages)
	if unanswered == 0 {
		t.Fatal("no request went unanswered: the slow page did not time out")
	}
	if len(sum.Hosts) != 1 || sum.Totals.Fetched != answered || sum.Hosts[0].Fetched != answered ||
		sum.Hosts[0].PagesByStatus["error"] != unanswered {
		t.Errorf("fetched %d, hosts %+v: want %d answered pages and %d unanswered requests under \"error\"",
			sum.Totals.Fetched, sum.Hosts, answered, unanswered)
	}
}

// TestUnparseableRedirectIsLogged: a redirect whose Location does not parse
// as a URL ("http://[::1") is logged as invalid-url with its parent, like
// a mailto: target, instead of vanishing.
func TestUnparseableRedirectIsLogged(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\n")
	h.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Location", "http://[::1")
		w.WriteHeader(http.StatusFound)
	}
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/"))
	var found bool
	for _, s := range readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile)) {
		if s.URL == "http://[::1" && s.Reason == "invalid-url" && s.Parent == h.URL("/") {
			found = true
		}
	}
	if !found {
		t.Errorf("skips %+v: want the Location logged as invalid-url with its parent",
			readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile)))
	}
}
