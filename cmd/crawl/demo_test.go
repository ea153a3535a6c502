package main

import (
	"encoding/json"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawler"
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
	t.Parallel()
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
	// Narrated words are true: a skip not decided by a robots.txt line
	// names none, and a demo, whose sites end with it, is not offered as
	// something to continue.
	for _, wrong := range []string{"robots.txt line 0", "same command again"} {
		if strings.Contains(stdout, wrong) {
			t.Errorf("narration says %q:\n%s", wrong, stdout)
		}
	}
	if strings.Contains(text, "resumes from the saved frontier") || !strings.Contains(text, "cannot be resumed") {
		t.Error("the demo's report offers to resume sites that ended with the demo")
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
	if !sum.Ephemeral {
		t.Error("the demo's summary.json does not say it cannot be resumed (ephemeral)")
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
	// The trap site's gallery, open to robots, is followed two levels down
	// and its third photos/ in a row skipped.
	skips, err := os.Open(filepath.Join(out, crawllog.SkipLogFile))
	if err != nil {
		t.Fatal(err)
	}
	defer skips.Close()
	var trap, nofollow []crawllog.SkipEntry
	bad, firstBad, err := crawllog.ReadJSONL(skips, func(s crawllog.SkipEntry) {
		switch s.Reason {
		case "path-repeats":
			trap = append(trap, s)
		case "nofollow":
			nofollow = append(nofollow, s)
		}
	})
	if err != nil || bad > 0 {
		t.Fatalf("skips.jsonl: %d bad lines, the first on line %d (%v)", bad, firstBad, err)
	}
	if len(trap) != 1 || !strings.HasSuffix(trap[0].URL, "/gallery/photos/photos/photos/") {
		t.Errorf("path-repeats skips %+v; want the gallery's third photos/ once", trap)
	}
	crawled, err := os.ReadFile(filepath.Join(out, crawllog.CrawlLogFile))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(crawled), "/gallery/photos/photos/\"") {
		t.Error("crawl.jsonl lacks /gallery/photos/photos/: the gallery was not followed as far as allowed")
	}
	// The nofollow site: the pages only its nofollow pages link to are
	// never requested, each is logged once as nofollow, and the link
	// marked rel="nofollow" is followed.
	for _, never := range []string{"/members/list\"", "/archive/2019\""} {
		if strings.Contains(string(crawled), never) {
			t.Errorf("crawl.jsonl has %s, linked only from a nofollow page", never)
		}
	}
	if !strings.Contains(string(crawled), "/guestbook/visitor\"") {
		t.Error("crawl.jsonl lacks /guestbook/visitor: a rel=nofollow link was not followed by default")
	}
	var unfollowed []string
	for _, s := range nofollow {
		unfollowed = append(unfollowed, s.URL[strings.LastIndex(s.URL, "/"):])
	}
	slices.Sort(unfollowed)
	if !slices.Equal(unfollowed, []string{"/2019", "/list"}) {
		t.Errorf("nofollow skips %+v; want /archive/2019 and /members/list, once each", nofollow)
	}
}

// TestDemoOutReplacesOnlyItsOwnFiles checks what a demo does to its --out:
// an earlier demo's outputs are replaced, files the user put there stay,
// and a dir that no demo wrote is refused.
func TestDemoOutReplacesOnlyItsOwnFiles(t *testing.T) {
	out := t.TempDir()
	for _, name := range demoOutputs() {
		if err := os.WriteFile(filepath.Join(out, name), []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(out, "NOTES.txt"), []byte("mine"), 0o644)
	os.MkdirAll(filepath.Join(out, "mine"), 0o755)
	os.WriteFile(filepath.Join(out, "mine", "keep.txt"), []byte("mine"), 0o644)

	kept, err := prepareDemoOut(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(kept, ",") != "NOTES.txt,mine" {
		t.Errorf("kept %q, want NOTES.txt and mine", kept)
	}
	entries, _ := os.ReadDir(out)
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if strings.Join(left, ",") != "NOTES.txt,mine" {
		t.Errorf("left %q in the dir, want only the user's NOTES.txt and mine", left)
	}
	if b, _ := os.ReadFile(filepath.Join(out, "mine", "keep.txt")); string(b) != "mine" {
		t.Error("the user's file under mine/ was lost")
	}

	foreign := t.TempDir()
	os.WriteFile(filepath.Join(foreign, "thesis.tex"), []byte("x"), 0o644)
	if _, err := prepareDemoOut(foreign); err == nil || !strings.Contains(err.Error(), "not from an earlier demo") {
		t.Errorf("a dir no demo wrote: err %v, want a refusal", err)
	}
	if _, err := os.Stat(filepath.Join(foreign, "thesis.tex")); err != nil {
		t.Error("a refused dir lost its file")
	}
}

// TestNarratorNamesOnlyRealRobotsLines checks the narration of a skip:
// "robots.txt line N" only when a robots.txt line decided (a
// robots-unreachable skip carries the robots.txt URL, not a rule).
func TestNarratorNamesOnlyRealRobotsLines(t *testing.T) {
	var b strings.Builder
	start := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	n := &narrator{w: &b, names: map[string]string{"http://h": "site"}, start: start}
	n.event(crawler.Event{Kind: crawler.EventSkip, Time: start.Add(time.Second), Host: "http://h", URL: "http://h/",
		Reason: "robots-unreachable", Rule: "http://h/robots.txt", Detail: "robots.txt answered 503"})
	n.event(crawler.Event{Kind: crawler.EventSkip, Time: start.Add(2 * time.Second), Host: "http://h", URL: "http://h/p",
		Reason: "robots-disallowed", Rule: "Disallow: /p", Line: 3})
	got := b.String()
	for _, want := range []string{
		"not fetching http://h/: robots.txt answered 503 (robots-unreachable)",
		`not fetching http://h/p: robots.txt line 3 "Disallow: /p" (robots-disallowed)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("narration lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "line 0") {
		t.Errorf("narration names line 0:\n%s", got)
	}
}
