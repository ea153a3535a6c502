package crawler

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robotscache"
)

// TestForbiddenRobotsSkipNamesThePolicy: with robots.forbidden_disallows a
// robots.txt answering 403 disallows everything (the 1996 draft's advice,
// where RFC 9309 2.3.1.3 would allow all). No line of a file decided, so
// the skip names the 403 and the policy, and carries no rule or line.
func TestForbiddenRobotsSkipNamesThePolicy(t *testing.T) {
	h := newTestHost(t)
	h.robots = func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "no", http.StatusForbidden) }
	h.html("/a")
	cfg := testConfig(t)
	cfg.Robots.ForbiddenDisallows = true
	sum := crawlFor(t, cfg, h.URL("/a"))
	if p := h.paths(); len(p) != 1 {
		t.Fatalf("requests %v: want only /robots.txt", p)
	}
	// The summary says which policy was applied, so the report can say
	// "everything disallowed" rather than RFC 9309's allow-all for a 403.
	if len(sum.Hosts) != 1 || sum.Hosts[0].Robots == nil || sum.Hosts[0].Robots.Policy != "disallow-all" {
		t.Errorf("hosts %+v: want the robots summary with policy disallow-all", sum.Hosts)
	}
	skips := readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))
	if len(skips) != 1 {
		t.Fatalf("skips %+v: want the seed's", skips)
	}
	s := skips[0]
	const want = "robots.txt HTTP 403: access restricted; everything but /robots.txt is disallowed (robots.forbidden_disallows: "
	if s.Reason != "robots-disallowed" || !strings.HasPrefix(s.Detail, want) || s.Rule != "" || s.Line != 0 {
		t.Errorf("skip %+v: want robots-disallowed, detail starting %q, no rule or line", s, want)
	}
}

// TestRobotsRedirectHopHasNoExpiry: RFC 9309 2.3.1.2, a crawler follows
// at least five redirects for robots.txt. robots.jsonl has a line per hop
// with outcome "redirect"; a hop is not a copy that could expire, so its
// line has no "expires" (Go's zero time would read as year 1), while the
// fetch that ends the chain has its expiry.
func TestRobotsRedirectHopHasNoExpiry(t *testing.T) {
	t.Parallel()
	target := newTestHost(t)
	target.robotsText("User-agent: *\nDisallow: /secret\n")
	redir := newTestHost(t)
	redir.robots = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL("/robots.txt"), http.StatusMovedPermanently)
	}
	redir.html("/")
	cfg := testConfig(t)
	crawlFor(t, cfg, redir.URL("/"))
	f, err := os.Open(filepath.Join(cfg.Out, crawllog.RobotsLogFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("robots.jsonl line %q: %v", sc.Text(), err)
		}
		lines = append(lines, m)
	}
	if len(lines) != 2 {
		t.Fatalf("robots.jsonl %v: want the hop and the final fetch", lines)
	}
	hop, final := lines[0], lines[1]
	if _, ok := hop["expires"]; ok || hop["outcome"] != robotscache.OutcomeRedirect || hop["status"] != float64(http.StatusMovedPermanently) {
		t.Errorf("hop line %v: want outcome redirect, status 301 and no expires", hop)
	}
	if exp, ok := final["expires"].(string); !ok || strings.HasPrefix(exp, "0001") || final["outcome"] != robotscache.OutcomeParsed {
		t.Errorf("final line %v: want outcome parsed with its expiry", final)
	}
}
