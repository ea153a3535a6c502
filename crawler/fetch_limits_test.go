package crawler

import (
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

// skipsFor returns the skip log entries with reason r.
func skipsFor(t *testing.T, cfg config.Config, r scheduler.Reason) []crawllog.SkipEntry {
	t.Helper()
	var out []crawllog.SkipEntry
	for _, s := range readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile)) {
		if s.Reason == string(r) {
			out = append(out, s)
		}
	}
	return out
}

// TestRedirectChainCut: /s?sid=N answers 302 to sid=N+1 forever. The chain is followed for scheduler.MaxRedirects hops
// and its next target is skipped with redirect-limit.
func TestRedirectChainCut(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.02\n")
	for n := range 40 {
		h.pages[fmt.Sprintf("/s?sid=%d", n)] = func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, fmt.Sprintf("/s?sid=%d", n+1), http.StatusFound)
		}
	}
	cfg := testConfig(t)
	cfg.Scope.MaxDepth = 1
	crawlFor(t, cfg, h.URL("/s?sid=0"))
	want := []string{"/robots.txt"}
	for n := range scheduler.MaxRedirects + 1 {
		want = append(want, fmt.Sprintf("/s?sid=%d", n))
	}
	if got := h.paths(); !slices.Equal(got, want) {
		t.Errorf("requests %v, want %v", got, want)
	}
	sk := skipsFor(t, cfg, scheduler.ReasonRedirectLimit)
	next := h.URL(fmt.Sprintf("/s?sid=%d", scheduler.MaxRedirects+1))
	if len(sk) != 1 || sk[0].URL != next || !strings.Contains(sk[0].Detail, "more than 10 redirects") {
		t.Errorf("redirect-limit skips %+v, want one for %s", sk, next)
	}
}

// TestRedirectKeepsDepth shows that a redirect target keeps the depth of
// the URL that redirected: a seed's redirect is still a seed-depth page, so
// with max_depth 1 its links are fetched and theirs are not.
func TestRedirectKeepsDepth(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.02\n")
	h.pages["/"] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/home", http.StatusMovedPermanently)
	}
	h.html("/home", "/a")
	h.html("/a", "/b")
	h.html("/b")
	cfg := testConfig(t)
	cfg.Scope.MaxDepth = 1
	crawlFor(t, cfg, h.URL("/"))
	if got, want := h.paths(), []string{"/robots.txt", "/", "/home", "/a"}; !slices.Equal(got, want) {
		t.Errorf("requests %v, want %v", got, want)
	}
	if sk := skipsFor(t, cfg, scheduler.ReasonMaxDepth); len(sk) != 1 || sk[0].URL != h.URL("/b") {
		t.Errorf("max-depth skips %+v, want one for /b", sk)
	}
}

// TestSitemapIndexChainCut: a chain of sitemap indexes each listing the
// next. Sitemaps nested deeper than
// scheduler.MaxSitemapNesting are skipped with sitemap-nesting.
func TestSitemapIndexChainCut(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.02\nSitemap: " + h.URL("/sm0.xml") + "\n")
	for n := range 20 {
		h.pages[fmt.Sprintf("/sm%d.xml", n)] = func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprintf(w, `<sitemapindex><sitemap><loc>%s</loc></sitemap></sitemapindex>`, h.URL(fmt.Sprintf("/sm%d.xml", n+1)))
		}
	}
	h.html("/")
	cfg := testConfig(t)
	cfg.Seeds.Sitemaps = true
	crawlFor(t, cfg, h.URL("/"))
	got := h.paths()
	slices.Sort(got)
	want := []string{"/", "/robots.txt"}
	for n := range scheduler.MaxSitemapNesting + 1 {
		want = append(want, fmt.Sprintf("/sm%d.xml", n))
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("requests %v, want %v", got, want)
	}
	sk := skipsFor(t, cfg, scheduler.ReasonSitemapNesting)
	next := h.URL(fmt.Sprintf("/sm%d.xml", scheduler.MaxSitemapNesting+1))
	if len(sk) != 1 || sk[0].URL != next {
		t.Errorf("sitemap-nesting skips %+v, want one for %s", sk, next)
	}
}

// TestMaxPagesReachedEndsTheCrawl: with scope.max_pages reached, a host
// whose robots.txt answers 503 has no page left to fetch it for: its
// seed is skipped with max-pages and the crawl ends, rather than
// retrying the robots.txt at 30 s, 60 s, 120 s and 240 s first.
func TestMaxPagesReachedEndsTheCrawl(t *testing.T) {
	down := newTestHost(t)
	down.robots = func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }
	down.html("/")
	up := newTestHost(t)
	up.robotsText("User-agent: *\nDisallow:\n")
	up.html("/", "/a", "/b")
	cfg := testConfig(t)
	cfg.Scope.MaxPages = 1
	cfg.Politeness.MaxWait = time.Hour
	cfg.Robots.RetryBase = 30 * time.Second
	start := time.Now()
	crawlFor(t, cfg, down.URL("/"), up.URL("/"))
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the crawl took %v after max_pages was reached", took)
	}
	if got := down.paths(); len(got) != 1 || got[0] != "/robots.txt" {
		t.Errorf("unreachable host: requests %v; want its robots.txt once", got)
	}
	var downSkips []string
	for _, s := range readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile)) {
		if strings.HasPrefix(s.URL, down.URL("")) {
			downSkips = append(downSkips, s.Reason)
		}
	}
	if !slices.Equal(downSkips, []string{string(scheduler.ReasonMaxPages)}) {
		t.Errorf("unreachable host's skips %v; want its seed as max-pages", downSkips)
	}
}
