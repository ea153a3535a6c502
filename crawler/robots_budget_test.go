package crawler

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/internal/wiretest"
	"github.com/crawlproject/crawl/robotscache"
	"github.com/crawlproject/crawl/scheduler"
)

// budgetHosts starts n hosts serving body as robots.txt.
func budgetHosts(t *testing.T, n int, body string) []*testHost {
	var hs []*testHost
	for range n {
		h := newTestHost(t)
		h.robotsText(body)
		hs = append(hs, h)
	}
	return hs
}

// TestCrawlWithinRobotsCacheBytes: a crawl of four hosts whose 500 KiB
// robots.txt files each take more than the whole robots.cache_bytes once
// parsed: every host's file is dropped and parsed again in turn, and the
// crawl still fetches every allowed page, never a disallowed one (RFC 9309
// 2.2.2), fetches each robots.txt once, and says in its log that the cache
// was full.
func TestCrawlWithinRobotsCacheBytes(t *testing.T) {
	t.Parallel()
	body := wiretest.HostileRobots(500<<10, false)
	hs := budgetHosts(t, 4, body)
	var seeds []string
	for _, h := range hs {
		h.html("/", "/a", "/b", "/secret/x")
		h.html("/a", "/b", "/secret/y")
		h.html("/b")
		seeds = append(seeds, h.URL("/"))
	}
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 20 * time.Millisecond
	cfg.Robots.CacheBytes = config.MinRobotsCacheBytes
	var logBuf strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, &logBuf}, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sum, err := Run(ctx, cfg, Options{Seeds: seeds, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	// The summary reads every host's file, cached or not.
	for _, h := range sum.Hosts {
		if h.Robots == nil || h.Robots.Outcome != robotscache.OutcomeParsed || !strings.HasPrefix(h.Robots.Body, "User-agent: *\nDisallow: /secret\n") {
			t.Errorf("summary of %s: robots %+v; want the parsed file", h.Host, h.Robots)
		}
	}
	if len(sum.Hosts) != len(hs) {
		t.Errorf("summary lists %d hosts, want %d", len(sum.Hosts), len(hs))
	}
	for _, h := range hs {
		h.assertRobotsFirst()
		h.assertNever("/secret")
		got := map[string]int{}
		for _, p := range h.paths() {
			got[p]++
		}
		if got["/robots.txt"] != 1 || got["/"] != 1 || got["/a"] != 1 || got["/b"] != 1 {
			t.Errorf("%s: requests %v; want robots.txt, /, /a and /b once each", h.srv.URL, got)
		}
	}
	mu.Lock()
	logged := logBuf.String()
	mu.Unlock()
	if !strings.Contains(logged, "robots cache full") || !strings.Contains(logged, "robots cache was full this run") {
		t.Errorf("the log does not say the robots cache was full:\n%s", logged)
	}
	skips := readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))
	if len(skips) != 8 {
		t.Errorf("%d skips, want /secret/x and /secret/y of each host", len(skips))
	}
	for _, s := range skips {
		if s.Reason != string(scheduler.ReasonRobotsDisallowed) || s.Line != 2 {
			t.Errorf("skip %+v; want robots-disallowed by line 2", s)
		}
	}
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestRobotsSummaryKeepsTheFirstFew: a robots.txt of thousands of Comment
// and Sitemap lines and bad lines must not make every host's summary
// megabytes long, nor keep its parsed file alive: the summary keeps the
// first few of each, cut short, and counts the rest.
func TestRobotsSummaryKeepsTheFirstFew(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nComment: " + strings.Repeat("é", 400) + "\n")
	for i := range 99 {
		fmt.Fprintf(&b, "Comment: please %d\nSitemap: http://a.test/s%d.xml\nFrobnicate %d\n", i, i, i)
	}
	b.WriteString("Sitemap: http://a.test/last.xml\n")
	st := robotscache.Prepare(robotsCacheConfig(testConfig(t)), robotscache.Record{Authority: "http://a.test:80", Outcome: robotscache.OutcomeParsed, Policy: "parse", Status: 200, Body: []byte(b.String())})
	r := robotsSummary(st)
	if len(r.Comments) != maxSummaryLines || r.CommentsOmitted != 100-maxSummaryLines {
		t.Errorf("%d comments kept, %d omitted; want %d and %d", len(r.Comments), r.CommentsOmitted, maxSummaryLines, 100-maxSummaryLines)
	}
	if c := r.Comments[0]; len(c) > maxSummaryText+len("…") || !strings.HasSuffix(c, "é…") {
		t.Errorf("a long comment kept as %d octets: %q", len(c), c)
	}
	if len(r.Sitemaps) != maxSummarySitemaps || r.SitemapsOmitted != 100-maxSummarySitemaps {
		t.Errorf("%d sitemaps kept, %d omitted", len(r.Sitemaps), r.SitemapsOmitted)
	}
	if len(r.Warnings) != maxSummaryLines || r.WarningsOmitted < 99-maxSummaryLines {
		t.Errorf("%d warnings kept, %d omitted", len(r.Warnings), r.WarningsOmitted)
	}
}
