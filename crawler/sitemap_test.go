package crawler

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestParseSitemap(t *testing.T) {
	urlset := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>http://a.example/1</loc><lastmod>2026-01-01</lastmod></url>
  <url><loc> /2 </loc></url>
</urlset>`
	got, err := parseSitemap([]byte(urlset), "http://a.example/sitemap.xml")
	if err != nil || strings.Join(got.pages, " ") != "http://a.example/1 http://a.example/2" || len(got.sitemaps) != 0 {
		t.Errorf("urlset: %+v %v", got, err)
	}
	index := `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>http://a.example/s1.xml.gz</loc></sitemap></sitemapindex>`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(index))
	zw.Close()
	got, err = parseSitemap(gz.Bytes(), "http://a.example/index.xml.gz")
	if err != nil || len(got.pages) != 0 || len(got.sitemaps) != 1 || got.sitemaps[0] != "http://a.example/s1.xml.gz" {
		t.Errorf("gzip index: %+v %v", got, err)
	}
	if _, err := parseSitemap([]byte("<html><body>not a sitemap</body></html>"), "http://a.example/"); err == nil {
		t.Error("an HTML page is not a sitemap")
	}
}

// TestParseSitemapBounded: a gzip sitemap of millions of URLs is read as a
// stream, up to its first maxSitemapURLs and the one after, and allocates
// no more than reading those takes: a sitemap of 8 million URLs in 485 KB
// of gzip must not be inflated whole (it took 345 MB and then gave
// nothing). A broken sitemap gives the URLs read before the break with an
// error, and one nested past maxSitemapDepth is refused.
func TestParseSitemapBounded(t *testing.T) {
	urls := func(from, to int) []byte {
		var b []byte
		for i := from; i < to; i++ {
			b = fmt.Appendf(b, "<url><loc>/s%d</loc></url>", i)
		}
		return b
	}
	// Two million URLs: the first 60,000 distinct (the limit and more),
	// then one member of 10,000 repeated, which the reader reads on as
	// one stream (see gzipOf).
	const distinct, block, total = 60_000, 10_000, 2_000_000
	many := gzipMember(t, append([]byte("<urlset>"), urls(0, distinct)...))
	many = append(many, bytes.Repeat(gzipMember(t, urls(distinct, distinct+block)), (total-distinct)/block)...)
	many = append(many, gzipMember(t, []byte("</urlset>"))...)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	got, err := parseSitemap(many, "http://a.example/sm.xml.gz")
	runtime.ReadMemStats(&after)
	if err != nil || len(got.pages) != maxSitemapURLs || got.firstMore != fmt.Sprintf("http://a.example/s%d", maxSitemapURLs) {
		t.Errorf("%d pages kept, first past the limit %q, err %v", len(got.pages), got.firstMore, err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 100<<20 {
		t.Errorf("reading it allocated %d MB; it reads no further than the limit", grew>>20)
	}
	got, err = parseSitemap([]byte("<urlset><url><loc>/a</loc></url><url><loc>/b</loc></url><url><loc"), "http://a.example/")
	if err == nil || len(got.pages) != 2 {
		t.Errorf("a broken sitemap gave %+v, %v; want /a and /b with an error", got, err)
	}
	deep := "<urlset>" + strings.Repeat("<x>", 1000)
	if _, err := parseSitemap([]byte(deep), "http://a.example/"); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("deep nesting: %v", err)
	}
}

// TestSitemapInAContentCoding: a sitemap sent in a content coding the
// crawler asked for (br, RFC 7932) is read as its XML, and a sitemap
// file in gzip sent with Content-Encoding: gzip as well is undone twice.
func TestSitemapInAContentCoding(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nSitemap: " + h.URL("/index.xml.gz") + "\n")
	idx := gzipped(t, fmt.Appendf(nil, `<sitemapindex><sitemap><loc>%s</loc></sitemap></sitemapindex>`, h.URL("/pages.xml")))
	h.pages["/index.xml.gz"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-gzip")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(gzipped(t, idx))
	}
	h.pages["/pages.xml"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.Header().Set("Content-Encoding", "br")
		w.Write(brotlied(t, fmt.Appendf(nil, `<urlset><url><loc>%s</loc></url></urlset>`, h.URL("/from-sitemap"))))
	}
	h.html("/")
	h.html("/from-sitemap")
	cfg := testConfig(t)
	cfg.Seeds.Sitemaps = true
	crawlFor(t, cfg, h.URL("/"))
	if got := h.paths(); !slices.Contains(got, "/from-sitemap") {
		t.Errorf("requests %v; want /from-sitemap, listed by the br sitemap", got)
	}
}

// TestSitemapSeeding: with seeds.sitemaps, the Sitemap lines of robots.txt
// and the sitemap index they point to (gzip) seed the crawl, and each
// sitemap fetch is paced and robots-checked like any other request.
func TestSitemapSeeding(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nDisallow: /hidden\nCrawl-delay: 0.15\nSitemap: " + h.URL("/index.xml.gz") + "\n")
	var idx bytes.Buffer
	zw := gzip.NewWriter(&idx)
	fmt.Fprintf(zw, `<sitemapindex><sitemap><loc>%s</loc></sitemap></sitemapindex>`, h.URL("/pages.xml"))
	zw.Close()
	h.pages["/index.xml.gz"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/x-gzip")
		w.Write(idx.Bytes())
	}
	h.pages["/pages.xml"] = func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, `<urlset><url><loc>%s</loc></url><url><loc>%s</loc></url></urlset>`, h.URL("/from-sitemap"), h.URL("/hidden/page"))
	}
	h.html("/")
	h.html("/from-sitemap")
	cfg := testConfig(t)
	cfg.Seeds.Sitemaps = true
	crawlFor(t, cfg, h.URL("/"))
	got := h.paths()
	sort.Strings(got)
	want := []string{"/", "/from-sitemap", "/index.xml.gz", "/pages.xml", "/robots.txt"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("requests %v, want %v", got, want)
	}
	h.assertRobotsFirst()
	h.assertNever("/hidden")
	h.assertMinGap(150 * time.Millisecond)
}
