package crawler

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

// rBloggersScaled has the shape of testdata/robots/r-bloggers.com.txt with
// the "*" record's 20 s scaled down to 0.2 s (spbot's 2000 s and
// SemrushBot's 60 s stay, beyond any wait of the tests): RFC 9309 puts
// SemrushBot, spbot and "*" in one group, the 1996 records do not.
const rBloggersScaled = "User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\n\n" +
	"User-agent: MJ12bot\nDisallow: /\n\n" +
	"User-agent: SemrushBot\nCrawl-delay: 60\n\n" +
	"User-agent: spbot\nCrawl-delay: 2000\n\n" +
	"User-agent: *\nCrawl-delay: 0.2\n"

// TestCrawlPacesByRecord1996 proves that a crawl is paced by the 1996
// record naming its agent, or "*": on a host serving r-bloggers.com's
// shape, spbot's Crawl-delay: 2000 is spbot's, and the crawl goes at the
// 0.2 s of the "*" record, seen in the server's request log, with every
// page fetched and the "*" group's Disallow obeyed; on a host serving
// github.com's shape, baidu's delay is baidu's and the crawl keeps its own
// default pace.
func TestCrawlPacesByRecord1996(t *testing.T) {
	blog := newTestHost(t)
	blog.robotsText(rBloggersScaled)
	blog.html("/", "/a", "/b", "/c", "/wp-admin/x")
	blog.html("/a", "/")
	blog.html("/b")
	blog.html("/c")
	hub := newTestHost(t)
	hub.robotsText("User-agent: baidu\ncrawl-delay: 2000\n\n\nUser-agent: *\n\nDisallow: /gist/\n")
	hub.html("/", "/r1", "/r2", "/gist/1")
	hub.html("/r1")
	hub.html("/r2")

	cfg := testConfig(t)
	cfg.Scope.Hosts = "any"
	sum := crawlFor(t, cfg, blog.URL("/"), hub.URL("/"))

	blog.assertRobotsFirst()
	blog.assertNever("/wp-admin/")
	blog.assertMinGap(200 * time.Millisecond)
	if got := strings.Join(blog.paths(), " "); got != "/robots.txt / /a /b /c" {
		t.Errorf("blog host: requests %s, want robots.txt and every allowed page", got)
	}
	reqs := blog.requests()
	for i := 1; i < len(reqs); i++ {
		if d := reqs[i].Start.Sub(reqs[i-1].Start); d > 2*time.Second {
			t.Errorf("blog host: %s then %s %v apart: paced by another agent's record, not the 0.2 s of *'s", reqs[i-1].Path, reqs[i].Path, d)
		}
	}
	hub.assertNever("/gist/")
	hub.assertMinGap(100 * time.Millisecond)
	if n := len(hub.requests()); n != 4 {
		t.Errorf("hub host: %v, want robots.txt and three pages", hub.paths())
	}
	hosts := map[string]crawllog.HostSummary{}
	for _, h := range sum.Hosts {
		hosts[h.Host] = h
	}
	if h := hosts[blog.srv.URL]; !strings.Contains(h.PaceRule, "crawl-delay 200ms (line 15)") {
		t.Errorf("blog host pace rule %q, want the * record's Crawl-delay: 0.2 on line 15", h.PaceRule)
	}
	if h := hosts[hub.srv.URL]; strings.Contains(h.PaceRule, "crawl-delay") {
		t.Errorf("hub host pace rule %q: baidu's delay applied to testbot", h.PaceRule)
	}
}

// TestCrawlPacesByRecord1996_NamedAgent: the agent a record names gets
// that record's Crawl-delay, longer than the crawl waits: its URLs are
// left for a later run as crawl-delay-too-long, naming the record's line.
// (The crawl as testbot above goes at 0.2 s: the pace is the agent's.)
func TestCrawlPacesByRecord1996_NamedAgent(t *testing.T) {
	blog := newTestHost(t)
	blog.robotsText(rBloggersScaled)
	blog.html("/", "/a")
	cfg := testConfig(t)
	cfg.Agent.Token = "spbot"
	crawlFor(t, cfg, blog.URL("/"))
	if p := blog.paths(); len(p) != 1 {
		t.Errorf("spbot fetched %v, want only /robots.txt", p)
	}
	skips := readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))
	if len(skips) != 1 || skips[0].Reason != "crawl-delay-too-long" || skips[0].Line != 12 || skips[0].Rule != "Crawl-delay: 2000" {
		t.Errorf("skips %+v, want the seed as crawl-delay-too-long by line 12", skips)
	}
}
