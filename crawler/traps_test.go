package crawler

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/internal/wiretest"
	"github.com/crawlproject/crawl/robotscache"
	"github.com/crawlproject/crawl/scheduler"
)

// TestPageLinksPastTheLimitAreNotFollowed: a trap's page can link to
// hundreds of thousands of URLs, each a frontier entry. Only the first
// scope.max_links_per_page links and requisites of a page are followed;
// one max-links line names the first link left and counts the rest, and
// the page's WARC metadata record says so too.
func TestPageLinksPastTheLimitAreNotFollowed(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.01\n")
	var links []string
	for i := range 25 {
		links = append(links, fmt.Sprintf("/p%d", i))
		h.html(fmt.Sprintf("/p%d", i))
	}
	h.html("/", links...)
	cfg := testConfig(t)
	cfg.Scope.MaxLinks = 10
	crawlFor(t, cfg, h.URL("/"))
	got := map[string]bool{}
	for _, p := range h.paths() {
		got[p] = true
	}
	for i, l := range links {
		if got[l] != (i < 10) {
			t.Errorf("%s requested: %v; want only the first 10 links followed", l, got[l])
		}
	}
	skips := skipsFor(t, cfg, scheduler.ReasonMaxLinks)
	if len(skips) != 1 {
		t.Fatalf("%d max-links skips, want one line for the page: %+v", len(skips), skips)
	}
	s := skips[0]
	if s.URL != h.URL("/p10") || s.Parent != h.URL("/") || s.Host != h.srv.URL ||
		!strings.Contains(s.Detail, "15 links of the page lead past the 10 distinct URLs") || !strings.Contains(s.Detail, "and 14 more") {
		t.Errorf("skip %+v; want /p10, the first link left, with 15 left in all", s)
	}
	found := false
	for _, r := range wiretest.WARCRecords(t, cfg.Out) {
		if r.Type() == "metadata" && r.Get("WARC-Target-URI") == h.URL("/") {
			body := string(r.Block)
			found = strings.Contains(body, "outlinks-not-followed: 15 links past the 10 distinct URLs followed (scope.max_links_per_page, repeats counted), the first to "+h.URL("/p10")) &&
				strings.Count(body, "outlink: ") == 10
		}
	}
	if !found {
		t.Error("the page's metadata record does not list 10 outlinks and the 15 not followed")
	}
}

// TestTooLongURLIsSkipped: a trap that adds a path segment at every link
// makes ever longer URLs; past scope.max_url_length one is skipped as
// url-too-long, never requested, and logged cut to the limit.
func TestTooLongURLIsSkipped(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.01\n")
	long := "/" + strings.Repeat("deeper/", 400) // 2801 octets of path
	h.html("/", long, "/ok")
	h.html("/ok")
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/"))
	for _, p := range h.paths() {
		if len(p) > 100 {
			t.Errorf("requested a URL of %d octets", len(p))
		}
	}
	skips := skipsFor(t, cfg, scheduler.ReasonURLTooLong)
	if len(skips) != 1 || len(skips[0].URL) != 2048 || !strings.HasPrefix(h.URL(long), skips[0].URL) ||
		!strings.Contains(skips[0].Detail, "longer than 2048 (scope.max_url_length)") {
		t.Fatalf("url-too-long skips %+v; want the link, cut to 2048 octets", skips)
	}
}

// TestTooLongURLLoggedOncePerCrawl: a URL longer than max_url_length is
// logged cut; a later run of the same crawl that meets it again does not
// log it again (the earlier line holds the cut form).
func TestTooLongURLLoggedOncePerCrawl(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.01\n")
	long := "/" + strings.Repeat("deeper/", 400)
	h.html("/", long)
	h.html("/again", long)
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/"))
	sum := crawlFor(t, cfg, h.URL("/"), h.URL("/again"))
	if skips := skipsFor(t, cfg, scheduler.ReasonURLTooLong); len(skips) != 1 || sum.SkipReasons["url-too-long"] != 1 {
		t.Errorf("url-too-long skips %d, counted %d; want the URL once for the crawl", len(skips), sum.SkipReasons["url-too-long"])
	}
}

// TestPathRepeatTrapStopped: a site that serves a page for any path under
// /a/, each linking to the relative "a/", leads to /a/a/, /a/a/a/, ... and
// before scope.max_path_repeats only max_url_length stopped it, a thousand
// pages on. Now the third "a/" in a row is skipped as path-repeats, logged
// once though three pages link it; /b/a/b/a/, "b/a/" twice, is fetched.
func TestPathRepeatTrapStopped(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.01\n")
	h.html("/", "a/", "b/a/b/")
	for _, p := range []string{"/a/", "/a/a/", "/a/a/a/", "/a/a/a/a/", "/b/a/b/"} {
		h.html(p, "a/", "/a/a/a/")
	}
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/"))
	got := h.paths()
	slices.Sort(got)
	if want := []string{"/", "/a/", "/a/a/", "/b/a/b/", "/b/a/b/a/", "/robots.txt"}; !slices.Equal(got, want) {
		t.Errorf("requested %q; want %q", got, want)
	}
	skips := skipsFor(t, cfg, scheduler.ReasonPathRepeats)
	if len(skips) != 1 || skips[0].URL != h.URL("/a/a/a/") ||
		skips[0].Detail != `path segment "a/" occurs 3 times in a row, more than 2 (scope.max_path_repeats)` {
		t.Fatalf("path-repeats skips %+v; want /a/a/a/ once", skips)
	}
}

// TestSeedRedirectOnItsHostStaysASeed: a seed is exempt from
// max_path_repeats and max_url_length, and so is its redirect on its own
// host (the slash form the server asks for), or the page the operator
// named would be lost. A link's redirect to such a path is still skipped.
func TestSeedRedirectOnItsHostStaysASeed(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.01\n")
	redirect := func(from, to string) {
		h.pages[from] = func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, to, http.StatusMovedPermanently) }
	}
	long := "/" + strings.Repeat("long/", 500) // 2501 octets
	redirect("/s/s/s", "/s/s/s/")
	redirect(strings.TrimSuffix(long, "/"), long)
	redirect("/go", "/x/x/x/")
	h.html("/s/s/s/", "/go")
	h.html(long)
	h.html("/x/x/x/")
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/s/s/s"), h.URL(strings.TrimSuffix(long, "/")))
	got := map[string]bool{}
	for _, p := range h.paths() {
		got[p] = true
	}
	if !got["/s/s/s/"] || !got[long] || !got["/go"] || got["/x/x/x/"] {
		t.Errorf("requested %q; want both seeds' redirect targets and /go, not /x/x/x/", h.paths())
	}
	skips := skipsFor(t, cfg, scheduler.ReasonPathRepeats)
	if len(skips) != 1 || skips[0].URL != h.URL("/x/x/x/") || skips[0].Parent != h.URL("/go") {
		t.Errorf("path-repeats skips %+v; want only the link's redirect to /x/x/x/", skips)
	}
}

// TestSitemapReadUpToItsProtocolLimit: sitemaps.org allows 50,000 URLs in
// a sitemap; a longer one (a 50 MB sitemap holds a million) is followed up
// to that, and one max-links line counts the rest.
func TestSitemapReadUpToItsProtocolLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("queues 50,000 URLs")
	}
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.01\nSitemap: " + h.URL("/big.xml") + "\n")
	const n = maxSitemapURLs + 5
	h.pages["/big.xml"] = func(w http.ResponseWriter, _ *http.Request) {
		var b strings.Builder
		b.WriteString("<urlset>")
		for i := range n {
			fmt.Fprintf(&b, "<url><loc>%s</loc></url>", h.URL(fmt.Sprintf("/s%d", i)))
		}
		b.WriteString("</urlset>")
		fmt.Fprint(w, b.String())
	}
	h.html("/")
	cfg := testConfig(t)
	cfg.Seeds.Sitemaps = true
	// The sitemap's URLs are ruled out by a pattern as they are taken
	// up: each is accounted for by its skip line without being queued,
	// leased and fetched.
	cfg.Scope.Exclude = []string{`/s[0-9]+$`}
	sum := crawlFor(t, cfg, h.URL("/"))
	// The skip log holds some 50,000 lines: it is read once.
	all := readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))
	var skips []crawllog.SkipEntry
	for _, s := range all {
		if s.Reason == string(scheduler.ReasonMaxLinks) {
			skips = append(skips, s)
		}
	}
	if len(skips) != 1 || skips[0].URL != h.URL(fmt.Sprintf("/s%d", maxSitemapURLs)) || skips[0].Parent != h.URL("/big.xml") ||
		!strings.Contains(skips[0].Detail, "more than the 50000 URLs sitemaps.org allows") {
		t.Fatalf("max-links skips %+v; want one naming /s50000", skips)
	}
	// Every URL taken from the sitemap is ruled out by the pattern; the
	// five past the protocol's limit are not taken up at all.
	if got := sum.SkipReasons[string(scheduler.ReasonOutOfScope)]; got != maxSitemapURLs {
		t.Errorf("%d sitemap URLs accounted for, want %d", got, maxSitemapURLs)
	}
	pastLimit := map[string]bool{}
	for i := maxSitemapURLs + 1; i < n; i++ {
		pastLimit[h.URL(fmt.Sprintf("/s%d", i))] = true
	}
	for _, s := range all {
		if pastLimit[s.URL] {
			t.Errorf("%s, past the limit, was taken up: %+v", s.URL, s)
		}
	}
}

// TestLinkLimitCountsDistinctURLsAndKinds: repeated anchors to one URL
// (as the frontier tells URLs apart: "/a#top" and "/x/../a" are "/a")
// take one place under scope.max_links_per_page, and requisites have
// places of their own, so a page's many anchors do not cost it its images
// (colly reads anchors before requisites, whatever their order in the
// page).
func TestLinkLimitCountsDistinctURLsAndKinds(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.01\n")
	h.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<img src="/i1.png"><a href="/a">a</a><a href="/a#top">a</a><a href="/x/../a">a</a><a href="/b">b</a>`+
			`<a href="/c">c</a><a href="/a">a</a><img src="/i2.png"><img src="/i3.png">`)
	}
	for _, p := range []string{"/a", "/b", "/c", "/i1.png", "/i2.png", "/i3.png"} {
		h.html(p)
	}
	cfg := testConfig(t)
	cfg.Scope.MaxLinks = 2
	cfg.Fetch.Requisites = true
	crawlFor(t, cfg, h.URL("/"))
	got := map[string]bool{}
	for _, p := range h.paths() {
		got[p] = true
	}
	for p, want := range map[string]bool{"/a": true, "/b": true, "/c": false, "/i1.png": true, "/i2.png": true, "/i3.png": false} {
		if got[p] != want {
			t.Errorf("%s requested: %v, want %v", p, got[p], want)
		}
	}
	byURL := map[string]string{}
	for _, s := range skipsFor(t, cfg, scheduler.ReasonMaxLinks) {
		byURL[s.URL] = s.Detail
	}
	if d := byURL[h.URL("/c")]; !strings.HasPrefix(d, "1 links of the page lead past the 2 distinct URLs") {
		t.Errorf("/c: %q", d)
	}
	if d := byURL[h.URL("/i3.png")]; !strings.HasPrefix(d, "1 requisites of the page lead past the 2 distinct URLs") {
		t.Errorf("/i3.png: %q", d)
	}
	if len(byURL) != 2 {
		t.Errorf("max-links skips %v; want /c and /i3.png", byURL)
	}
}

// TestCutURLEndsOnAWholeCharacterAndEscape: a URL logged cut ends neither
// inside a UTF-8 sequence nor inside a %XX escape.
func TestCutURLEndsOnAWholeCharacterAndEscape(t *testing.T) {
	for _, tc := range []struct {
		u    string
		n    int
		want string
	}{
		{"http://a.test/abcdef", 100, "http://a.test/abcdef"},
		{"http://a.test/abcdef", 16, "http://a.test/ab"},
		{"http://a.test/?q=aé", 19, "http://a.test/?q=a"}, // é is 2 octets: 19 ends inside it
		{"http://a.test/?q=aé", 20, "http://a.test/?q=aé"},
		{"http://a.test/%41%42", 15, "http://a.test/"},    // ends after "%"
		{"http://a.test/%41%42", 16, "http://a.test/"},    // ends after "%4"
		{"http://a.test/%41%42", 17, "http://a.test/%41"}, // a whole escape
		{"http://a.test/%41%42", 18, "http://a.test/%41"}, // ends after the second "%"
	} {
		if got := cutForLog(tc.u, tc.n); got != tc.want {
			t.Errorf("cutForLog(%q, %d) = %q, want %q", tc.u, tc.n, got, tc.want)
		}
	}
}

// TestLongURLsLoggedCutButCountedApart: two links longer than
// scope.max_url_length that share their first 2048 octets are two
// url-too-long lines, and a max-links line's long first URL is logged cut
// too, with the cut said; a seed of any length is crawled.
func TestLongURLsLoggedCutButCountedApart(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.01\n")
	long := "/t?q=" + strings.Repeat("a", 3000)
	seed := "/seed?q=" + strings.Repeat("s", 3000)
	h.html(seed, long+"1", long+"2", "/ok", "/z?q="+strings.Repeat("z", 5000))
	h.html("/ok")
	cfg := testConfig(t)
	cfg.Scope.MaxLinks = 3
	crawlFor(t, cfg, h.URL(seed))
	got := map[string]bool{}
	for _, p := range h.paths() {
		got[p] = true
	}
	if !got[seed] || !got["/ok"] {
		t.Errorf("requests %v; want the long seed and /ok", h.paths())
	}
	if n := len(skipsFor(t, cfg, scheduler.ReasonURLTooLong)); n != 2 {
		t.Errorf("%d url-too-long lines, want one for each of the two long links", n)
	}
	ml := skipsFor(t, cfg, scheduler.ReasonMaxLinks)
	if len(ml) != 1 || len(ml[0].URL) != 2048 || !strings.HasSuffix(ml[0].Detail, "; URL logged cut to its first 2048 octets") {
		t.Errorf("max-links lines %+v; want the /z link cut to 2048 octets", ml)
	}
}

// TestDeeplyNestedPageStillGivesLinks: x/net/html makes no document tree
// of elements nested over 512 deep, which a sloppy page of unclosed tags
// reaches, so the page would give no links, silently. Its links are read
// from its tags, and its metadata record says so.
func TestDeeplyNestedPageStillGivesLinks(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.01\n")
	h.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><base href="/sub/"></head><body><a href="a">a</a>`+strings.Repeat("<div>", 600)+`<a href="/b">b</a>`)
	}
	h.html("/sub/a")
	h.html("/b")
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/"))
	got := map[string]bool{}
	for _, p := range h.paths() {
		got[p] = true
	}
	if !got["/sub/a"] || !got["/b"] {
		t.Errorf("requests %v; want /sub/a (through <base>) and /b", h.paths())
	}
	found := false
	for _, r := range wiretest.WARCRecords(t, cfg.Out) {
		if r.Type() == "metadata" && r.Get("WARC-Target-URI") == h.URL("/") {
			found = strings.Contains(string(r.Block), "outlinks-from: the page's tags: it made no document tree")
		}
	}
	if !found {
		t.Error("the page's metadata record does not say its links were read from its tags")
	}
}

// TestServerChosenValuesAreLoggedCut: a Location or Content-Type of
// 100 KB must not go whole into crawl.jsonl, the archive index and its
// journal, nor a robots.txt redirect to a 100 KB URL be followed. Log and
// index lines stay short; the robots.txt redirect is not followed, as
// one past the fifth is not (RFC 9309 2.3.1.2), and the log says why.
func TestServerChosenValuesAreLoggedCut(t *testing.T) {
	t.Parallel()
	long := "/" + strings.Repeat("L", 100_000)
	h := newTestHost(t)
	h.robots = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, long, http.StatusFound)
	}
	h.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; x="+strings.Repeat("C", 100_000))
		fmt.Fprint(w, `<a href="/moved">m</a>`)
	}
	h.pages["/moved"] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, long, http.StatusFound)
	}
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 20 * time.Millisecond
	crawlFor(t, cfg, h.URL("/"))
	for _, p := range h.paths() {
		if len(p) > 100 {
			t.Errorf("requested a URL of %d octets", len(p))
		}
	}
	for _, name := range []string{crawllog.CrawlLogFile, crawllog.RobotsLogFile, crawllog.SkipLogFile, "archive/index.cdxj", "archive/index.journal"} {
		data, err := os.ReadFile(filepath.Join(cfg.Out, name))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if len(line) > 8<<10 {
				t.Errorf("%s line %d is %d octets", name, i+1, len(line))
			}
		}
	}
	robots := readJSONL[crawllog.RobotsEntry](t, filepath.Join(cfg.Out, crawllog.RobotsLogFile))
	if len(robots) != 1 || robots[0].Outcome != robotscache.OutcomeUnavailable || !strings.Contains(robots[0].Error, "longer than 2048 (scope.max_url_length): not followed") {
		t.Errorf("robots.jsonl %+v; want one unavailable line saying the redirect was not followed", robots)
	}
}

// TestRawOctetInQueryRequestedEscaped: a link with a raw é (the Latin-1
// octet 0xE9) in its query, on a page that declares no charset, is
// requested with it percent-encoded (%E9, as a browser sends it), not raw
// in the request line; a URL out of scope with one is logged once for the
// crawl, though the page that links it comes again in a second run
// (skips.jsonl could not hold the raw octet, so the earlier line never
// matched). A page that declares Latin-1 is decoded by colly, and its
// query sent in UTF-8 (%C3%A9), where a browser would send %E9.
func TestRawOctetInQueryRequestedEscaped(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.01\n")
	page := func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><body><a href=\"/t?q=caf\xe9\">x</a> <a href=\"http://other.invalid/s?q=caf\xe9\">y</a></body></html>"))
	}
	h.pages["/"] = page
	h.pages["/again"] = page
	h.html("/t?q=caf%E9")
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/"))
	if !slices.Contains(h.paths(), "/t?q=caf%E9") {
		t.Errorf("requested %q; want /t?q=caf%%E9", h.paths())
	}
	crawlFor(t, cfg, h.URL("/"), h.URL("/again"))
	out := skipsFor(t, cfg, scheduler.ReasonOutOfScope)
	if len(out) != 1 || out[0].URL != "http://other.invalid/s?q=caf%E9" {
		t.Errorf("out-of-scope lines %+v; want the other host's link once, escaped", out)
	}
}

// TestApostropheRuleStillMatches: a link whose path or query must be
// escaped (a space in it) keeps its apostrophe, so Disallow: /*' still
// matches it (RFC 9309 2.2.2 leaves %27 encoded, so a link sent as
// /p%27a%20b would get past the rule).
func TestApostropheRuleStillMatches(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.01\nDisallow: /*'\n")
	h.html("/", "/p'a b", "/s?q=it's", "/s?q=it's x", "/ok")
	h.html("/ok")
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/"))
	got := h.paths()
	slices.Sort(got)
	if want := []string{"/", "/ok", "/robots.txt"}; !slices.Equal(got, want) {
		t.Errorf("requested %q, want %q", got, want)
	}
	if n := len(skipsFor(t, cfg, scheduler.ReasonRobotsDisallowed)); n != 3 {
		t.Errorf("%d robots-disallowed lines, want 3", n)
	}
}
