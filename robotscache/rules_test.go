package robotscache

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRulesPaceOfTheAgentsRecord: the scheduler's rules carry the pace of
// the 1996 record naming the crawler's agent, or "*", not a Crawl-delay
// that RFC 9309 groups with it under another agent's user-agent line
// (r-bloggers.com's spbot: 2000 s), and the access rules of its group.
func TestRulesPaceOfTheAgentsRecord(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("..", "testdata", "robots", "r-bloggers.com.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rec := Record{Authority: "https://www.r-bloggers.com:443", Outcome: OutcomeParsed, Policy: "parse", Status: 200, Body: body}
	for _, c := range []struct {
		agent string
		delay time.Duration
		line  int
	}{{"crawl", 20 * time.Second, 27}, {"spbot", 2000 * time.Second, 24}, {"SemrushBot", time.Minute, 21}} {
		cfg := testRobotsConfig()
		cfg.Agent = c.agent
		st := Prepare(cfg, rec)
		r := st.Rules(c.agent)
		if !r.HasCrawlDelay || r.CrawlDelay != c.delay || r.CrawlDelayLine != c.line {
			t.Errorf("%s: Crawl-delay %v (%v) on line %d, want %v on line %d", c.agent, r.CrawlDelay, r.HasCrawlDelay, r.CrawlDelayLine, c.delay, c.line)
		}
		if _, _, _, refused := r.Refuse("/wp-admin/x"); refused != (c.agent == "crawl") {
			t.Errorf("%s: /wp-admin/x refused %v; the RFC 9309 group decides", c.agent, refused)
		}
	}
}
