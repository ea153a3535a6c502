package robots

import (
	"fmt"
	"testing"
	"time"
)

// TestPaceLineNamesTheLine: PaceLine gives Pace's answer with its source
// apart, for the slowest of Crawl-delay and the Request-rates in force
// (1996 extended standard: Request-rate with a window applies in it).
func TestPaceLineNamesTheLine(t *testing.T) {
	g := Parse([]byte("User-agent: *\nCrawl-delay: 2\nRequest-rate: 1/10s 1300-1659 UTC\n")).Group("bot")
	for _, c := range []struct {
		at   time.Time
		iv   time.Duration
		line int
		text string
	}{
		{time.Date(2026, 1, 1, 12, 59, 59, 0, time.UTC), 2 * time.Second, 2, "Crawl-delay: 2"},
		{time.Date(2026, 1, 1, 16, 59, 59, 0, time.UTC), 10 * time.Second, 3, "Request-rate: 1/10s 1300-1659 UTC"},
	} {
		iv, line, text, ok := g.PaceLine(c.at)
		if !ok || iv != c.iv || line != c.line || text != c.text {
			t.Errorf("%v: %v %d %q %v", c.at, iv, line, text, ok)
		}
		if piv, src, pok := g.Pace(c.at); !pok || piv != iv || src != fmt.Sprintf("line %d: %s", line, text) {
			t.Errorf("%v: Pace %v %q %v", c.at, piv, src, pok)
		}
	}
	if _, _, _, ok := Parse([]byte("User-agent: *\nDisallow: /\n")).Group("bot").PaceLine(time.Now()); ok {
		t.Error("a group without pace lines has a pace")
	}
}
