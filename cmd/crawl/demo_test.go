package main

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/demo"
)

// TestDemoShowsEveryLesson runs "crawl demo" as a user would and checks its
// outputs: every site's lesson is in the narration and in report.html, the
// site whose robots.txt answers 503 got no page request, the closed
// Visit-time site got none either, and the run ends well within a minute.
func TestDemoShowsEveryLesson(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo crawls for several seconds")
	}
	out := filepath.Join(t.TempDir(), "demo-out")
	start := time.Now()
	code, stdout, stderr := runCLI(t, "demo", "--out", out)
	took := time.Since(start)
	if code != exitOK {
		t.Fatalf("crawl demo exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if took > time.Minute {
		t.Errorf("demo took %s, want under a minute", took)
	}
	// The sites are rebuilt the same way to know their lessons.
	web, err := demo.Start(t.Context(), time.Now(), "crawl")
	if err != nil {
		t.Fatal(err)
	}
	sites := web.Sites()
	web.Close()
	report, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	// Lessons name clock times computed from now: compare with digits
	// masked, so a minute turning between the two starts cannot flake.
	digits := regexp.MustCompile(`[0-9]+`)
	mask := func(s string) string { return digits.ReplaceAllString(s, "#") }
	text := mask(html.UnescapeString(string(report)))
	narration := mask(stdout)
	for _, s := range sites {
		lesson := mask(s.Lesson)
		if !strings.Contains(narration, lesson) {
			t.Errorf("narration lacks the %s lesson %q", s.Name, lesson)
		}
		if !strings.Contains(text, lesson) {
			t.Errorf("report lacks the %s lesson %q", s.Name, lesson)
		}
	}
	for _, want := range []string{"robots.txt", "not fetching", "What the demo showed", "deferred"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("narration lacks %q", want)
		}
	}
	// The 503 site and the closed Visit-time site got no page request:
	// read the crawl log, which lists every request made.
	var sum crawllog.Summary
	b, err := os.ReadFile(filepath.Join(out, crawllog.SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	for _, h := range sum.Hosts {
		switch h.Label {
		case "robots-503", "visit-time-closed":
			if h.Fetched != 0 {
				t.Errorf("%s got %d page requests, want none", h.Label, h.Fetched)
			}
			if h.RobotsFetches == 0 {
				t.Errorf("%s: its robots.txt was never asked for", h.Label)
			}
		}
	}
	for _, line := range strings.Split(stdout, "\n") {
		if strings.Contains(line, "robots-503") && strings.Contains(line, "page request(s)") && !strings.Contains(line, " 0 page request(s)") {
			t.Errorf("the 503 site's own log shows page requests: %s", line)
		}
	}
}
