package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawler"
)

// TestDryRunFetchesOnlyRobots: --dry-run asks each seed host for its
// robots.txt and nothing else, and says per seed whether it is allowed and
// by which rule, the pace asked, and the Visit-time windows with the next
// opening.
func TestDryRunFetchesOnlyRobots(t *testing.T) {
	closed := time.Now().UTC().Add(3 * time.Hour).Format("1504")
	closedTo := time.Now().UTC().Add(4 * time.Hour).Format("1504")
	a := startLogSite(t, "User-agent: *\nCrawl-delay: 4\nDisallow: /private\nComment: hello\n", 1)
	b := startLogSite(t, fmt.Sprintf("User-agent: *\nVisit-time: %s-%s\n", closed, closedTo), 1)
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seeds, []byte(a.url+"/\n"+a.url+"/private/x\n"+b.url+"/\n"), 0o644)
	out := filepath.Join(dir, "out")
	code, stdout, stderr := runCLI(t, "--seed", seeds, "--out", out, "--dry-run", "--progress", "never")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, s := range []*logSite{a, b} {
		for _, h := range s.hits() {
			if h.path != "/robots.txt" {
				t.Errorf("%s: dry run fetched %s", s.url, h.path)
			}
		}
		if len(s.hits()) != 1 {
			t.Errorf("%s: %d requests, want the robots.txt once", s.url, len(s.hits()))
		}
	}
	for _, want := range []string{"DISALLOWED  " + a.url + "/private/x (line 3: Disallow: /private)", "set by crawl-delay 4s", "the site says: hello", "closed; next opens"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("dry run output lacks %q:\n%s", want, stdout)
		}
	}
	var hosts []crawler.DryRunHost
	data, err := os.ReadFile(filepath.Join(out, crawler.DryRunFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &hosts); err != nil || len(hosts) != 2 {
		t.Fatalf("dry-run.json: %v %s", err, data)
	}
	for _, h := range hosts {
		if h.Host == b.url && (h.VisitOpen || h.NextVisit == nil) {
			t.Errorf("closed Visit-time host: %+v", h)
		}
	}
	if n := queuedIn(t, out); n != 0 {
		t.Errorf("the dry run queued %d URLs in the frontier, want none", n)
	}
}
