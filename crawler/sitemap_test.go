package crawler

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/http"
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
	pages, maps, err := parseSitemap([]byte(urlset), "http://a.example/sitemap.xml")
	if err != nil || strings.Join(pages, " ") != "http://a.example/1 http://a.example/2" || len(maps) != 0 {
		t.Errorf("urlset: %v %v %v", pages, maps, err)
	}
	index := `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>http://a.example/s1.xml.gz</loc></sitemap></sitemapindex>`
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(index))
	zw.Close()
	pages, maps, err = parseSitemap(gz.Bytes(), "http://a.example/index.xml.gz")
	if err != nil || len(pages) != 0 || len(maps) != 1 || maps[0] != "http://a.example/s1.xml.gz" {
		t.Errorf("gzip index: %v %v %v", pages, maps, err)
	}
	if _, _, err := parseSitemap([]byte("<html><body>not a sitemap</body></html>"), "http://a.example/"); err == nil {
		t.Error("an HTML page is not a sitemap")
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
