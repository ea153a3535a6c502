package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawler"
)

// TestRobotsExplainRecordsRealFiles: explain gives each agent the pace of
// the 1996 records naming it (or "*"), not a Crawl-delay that RFC 9309's
// grouping puts in the same group under another agent's user-agent line:
// on r-bloggers.com's file (reconstructed) spbot's 2000 s stays spbot's
// and every other robot gets the 20 s of the "*" record; on github.com's,
// baidu's 1 s stays baidu's. It shows the records and the group's
// user-agent lines with their line numbers, in text and JSON.
func TestRobotsExplainRecordsRealFiles(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "robots")
	for _, c := range []struct {
		file, agent string
		delay       float64 // crawl_delay_seconds; 0 for null
		fallback    bool
		text        []string
	}{
		{"r-bloggers.com.txt", "crawl", 20, true, []string{
			"agent \"crawl\" -> group User-agent: *, SemrushBot, spbot\n  line 5: User-agent: *\n  line 20: User-agent: SemrushBot\n  line 23: User-agent: spbot\n  line 26: User-agent: *\nrules: 7",
			"pace from the 1996 records naming *, as no User-agent line names \"crawl\":\n  line 5: User-agent: *\n  line 26: User-agent: *\n  line 27: Crawl-delay: 20\n",
			"pace now (14:00 UTC): at most one request every 20s (line 27: Crawl-delay: 20)"}},
		{"r-bloggers.com.txt", "Googlebot", 20, true, []string{"at most one request every 20s (line 27: Crawl-delay: 20)"}},
		{"r-bloggers.com.txt", "spbot", 2000, false, []string{
			"pace from the 1996 records naming \"spbot\" (the User-agent lines directly above the pace lines):\n  line 23: User-agent: spbot\n  line 24: Crawl-delay: 2000\npace now",
			"one request every 33m20s (line 24: Crawl-delay: 2000)"}},
		{"r-bloggers.com.txt", "SemrushBot", 60, false, []string{"one request every 1m (line 21: Crawl-delay: 60)"}},
		{"r-bloggers.com.txt", "MJ12bot", 0, false, []string{"rules: 1", "  line 15: Disallow: /\n", "no pace asked for"}},
		{"github.com.txt", "crawl", 0, true, []string{"rules: 56", "no pace asked for"}},
		{"github.com.txt", "baidu", 1, false, []string{
			"agent \"baidu\" -> group User-agent: baidu, *\n  line 3: User-agent: baidu\n  line 7: User-agent: *\nrules: 56",
			"pace from the 1996 records naming \"baidu\" (the User-agent lines directly above the pace lines):\n  line 3: User-agent: baidu\n  line 4: crawl-delay: 1\n",
			"at most one request every 1s (line 4: crawl-delay: 1)"}},
	} {
		file := filepath.Join(dir, c.file)
		out, err := runRobotsCmd(t, robotsOptions{}, "explain", "--file", file, "--agent", c.agent)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range c.text {
			if !strings.Contains(out, want) {
				t.Errorf("%s %s: explain lacks %q:\n%s", c.file, c.agent, want, out)
			}
		}
		out, err = runRobotsCmd(t, robotsOptions{}, "explain", "--file", file, "--agent", c.agent, "--json")
		if err != nil {
			t.Fatal(err)
		}
		var j struct {
			CrawlDelay *float64        `json:"crawl_delay_seconds"`
			GroupLines []ruleJSON      `json:"group_lines"`
			PaceRecord *paceRecordJSON `json:"pace_record"`
			PaceNow    *paceNowJSON    `json:"pace_now"`
		}
		if err := json.Unmarshal([]byte(out), &j); err != nil {
			t.Fatal(err)
		}
		switch {
		case c.delay == 0 && (j.CrawlDelay != nil || j.PaceNow != nil):
			t.Errorf("%s %s: crawl_delay_seconds %v, pace_now %v, want null", c.file, c.agent, j.CrawlDelay, j.PaceNow)
		case c.delay != 0 && (j.CrawlDelay == nil || *j.CrawlDelay != c.delay || j.PaceNow == nil || j.PaceNow.IntervalSeconds != c.delay):
			t.Errorf("%s %s: --json %s, want a delay of %vs", c.file, c.agent, out, c.delay)
		case j.PaceRecord == nil || j.PaceRecord.StarFallback != c.fallback || len(j.GroupLines) == 0:
			t.Errorf("%s %s: pace_record %+v, group_lines %v", c.file, c.agent, j.PaceRecord, j.GroupLines)
		}
	}
}

// TestRobotsExplainRecordsConflict: two records naming one agent with
// different Crawl-delays: explain keeps the slower, lists both records,
// and warns with both line numbers.
func TestRobotsExplainRecordsConflict(t *testing.T) {
	file := writeRobotsFile(t, "User-agent: bot\nCrawl-delay: 5\nUser-agent: other\nCrawl-delay: 1\nUser-agent: bot\nCrawl-delay: 30\nUser-agent: *\nDisallow: /x\n")
	out, err := runRobotsCmd(t, robotsOptions{}, "explain", "--file", file, "--agent", "bot")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"  line 1: User-agent: bot\n  line 2: Crawl-delay: 5\n  line 5: User-agent: bot\n  line 6: Crawl-delay: 30\npace now (14:00 UTC): at most one request every 30s (line 6: Crawl-delay: 30)",
		"warnings: 1\n  line 2: records for \"bot\" give different Crawl-delays; the slower, line 6 (Crawl-delay: 30), is kept: \"Crawl-delay: 5\"\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	out, err = runRobotsCmd(t, robotsOptions{}, "explain", "--file", file, "--agent", "bot", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"warnings":["line 2: records for \"bot\" give different Crawl-delays; the slower, line 6 (Crawl-delay: 30), is kept: \"Crawl-delay: 5\""]`) {
		t.Errorf("explain --json: %s", out)
	}
}

// TestRobotsExplainRecordsPolicy: when the fetch's policy decides, there
// is no group, and so no records: group_lines [] and pace_record null.
func TestRobotsExplainRecordsPolicy(t *testing.T) {
	fetch := func(context.Context, config.Config, string, string) (crawler.RobotsFetch, error) {
		return crawler.RobotsFetch{Status: 503}, nil
	}
	out, err := runRobotsCmd(t, robotsOptions{fetch: fetch}, "explain", "--agent", "bot", "--json", "https://down.example/")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"group_lines":[],"pace_record":null`) {
		t.Errorf("explain --json: %s", out)
	}
	out, err = runRobotsCmd(t, robotsOptions{fetch: fetch}, "explain", "--agent", "bot", "https://down.example/")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "pace from") || strings.Contains(out, "  line ") {
		t.Errorf("explain lists lines of no group:\n%s", out)
	}
}
