package crawler

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/cssref"
	"github.com/crawlproject/crawl/internal/themedsite"
	"github.com/crawlproject/crawl/mirror"
	"github.com/crawlproject/crawl/pageenc"
	"github.com/crawlproject/crawl/scheduler"
)

// TestThemedSiteArchivedWhole crawls testdata/themedsite, a site whose
// look comes through a stylesheet that @imports two more (one @imports the
// first back), images named by url() in them, in a <style> and in a style
// attribute, srcset and <picture>, preload and modulepreload, and a
// windows-1252 sheet sent in gzip, with scope.max_depth 1. The server's
// own log shows every file of the site requested once and the names that
// appear only in a CSS comment or string never; the index holds each as a
// 200 response; and in the mirror every file lies at its URL's own path
// ("img/café.png" for /img/caf%C3%A9.png, "index.html" for "/"), so a
// static server serves the copy from the site's paths, and every
// reference of every page and sheet leads to a file.
func TestThemedSiteArchivedWhole(t *testing.T) {
	site := themedsite.Start(t)
	cfg := testConfig(t)
	cfg.Fetch.Requisites = true
	cfg.Archive.Mirror = true
	cfg.Scope.MaxDepth = 1
	crawlFor(t, cfg, site.URL+"/")

	files := site.Files(t)
	count := map[string]int{}
	for _, p := range site.Requests() {
		count[p]++
	}
	for _, f := range files {
		if count[f] != 1 {
			t.Errorf("%s requested %d times, want once", f, count[f])
		}
	}
	for p, n := range count {
		if !slices.Contains(files, p) && p != "/robots.txt" {
			t.Errorf("%s requested %d times: no file of the site", p, n)
		}
	}
	t.Logf("the site has %d files a browser loads; the crawl made %d requests (robots.txt included)", len(files), len(site.Requests()))

	indexed := indexedStatus(t, cfg.Out)
	for _, f := range files {
		if u := site.URL + f; indexed[u] != "200" {
			t.Errorf("%s indexed with status %q, want 200", u, indexed[u])
		}
	}
	root := filepath.Join(cfg.Out, "archive", "mirror")
	su, _ := url.Parse(site.URL)
	hostDir := filepath.Join(root, su.Hostname()+"_"+su.Port())
	for _, f := range files {
		checkMirrorRefs(t, root, site.URL, site.URL+f)
		own, _ := url.PathUnescape(f)
		if strings.HasSuffix(own, "/") {
			own += "index.html"
		}
		if _, err := os.Stat(filepath.Join(hostDir, filepath.FromSlash(own))); err != nil {
			t.Errorf("%s is not mirrored at its own path: %v", f, err)
		}
	}
}

// indexedStatus returns the status of each URL in the crawl's CDXJ index.
func indexedStatus(t *testing.T, out string) map[string]string {
	t.Helper()
	idx, err := os.ReadFile(filepath.Join(out, "archive", archive.IndexName))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(idx)), "\n") {
		_, js, _ := strings.Cut(line, " {")
		var f struct{ URL, Status string }
		if err := json.Unmarshal([]byte("{"+js), &f); err != nil {
			t.Fatalf("index line %q: %v", line, err)
		}
		got[f.URL] = f.Status
	}
	return got
}

// checkMirrorRefs fails for each reference of the mirrored file of u (a
// page: href, src, srcset, imagesrcset, style attributes, <style>; a
// sheet: its url() and @import) that is still an absolute URL of the site
// or relative to its root, or a relative one that names no file of the
// mirror.
func checkMirrorRefs(t *testing.T, root, site, u string) {
	t.Helper()
	pu, _ := url.Parse(u)
	p, err := mirror.Path(root, pu)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(p)
	if err != nil {
		t.Errorf("%s not mirrored: %v", u, err)
		return
	}
	var refs []string
	switch {
	case strings.HasSuffix(pu.Path, ".css"):
		for _, r := range cssref.Scan(src) {
			refs = append(refs, r.URL)
		}
	case strings.HasSuffix(pu.Path, "/") || strings.HasSuffix(pu.Path, ".html"):
		refs = htmlRefs(src)
	}
	for _, ref := range refs {
		r, err := url.Parse(ref)
		switch {
		case err != nil:
			t.Errorf("%s: reference %q: %v", u, ref, err)
		case r.Scheme != "" || r.Host != "":
			if strings.HasPrefix(ref, site) {
				t.Errorf("%s: reference %q still leads to the site, not to its mirrored file", u, ref)
			}
		case strings.HasPrefix(r.Path, "/"):
			t.Errorf("%s: reference %q is relative to the site's root, not to the file", u, ref)
		case r.Path != "":
			if _, err := os.Stat(filepath.Join(filepath.Dir(p), filepath.FromSlash(r.Path))); err != nil {
				t.Errorf("%s: reference %q leads to no file: %v", u, ref, err)
			}
		}
	}
}

// htmlRefs returns the references of a page that lead to other files:
// href and src, every srcset and imagesrcset candidate, the url()s of
// style attributes and the references of <style> elements.
func htmlRefs(src []byte) []string {
	var refs []string
	z := html.NewTokenizer(bytes.NewReader(src))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return refs
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			for _, a := range tok.Attr {
				switch a.Key {
				case "href", "src":
					refs = append(refs, a.Val)
				case "srcset", "imagesrcset":
					refs = append(refs, pageenc.SrcsetURLs(a.Val)...)
				case "style":
					for _, r := range cssref.Scan([]byte(a.Val)) {
						refs = append(refs, r.URL)
					}
				}
			}
			if tok.Data == "style" && z.Next() == html.TextToken {
				for _, r := range cssref.Scan(z.Raw()) {
					refs = append(refs, r.URL)
				}
			}
		}
	}
}

// TestSheetRequisitesPoliteAndScoped: the references of a style sheet go
// through the same checks and pace as any requisite: robots.txt keeps one
// out (logged), a scope.exclude pattern another, the rest are fetched one
// pace apart after robots.txt; and a sheet that declares no encoding is
// read in its page's (here windows-1252: "café" is requested as a browser
// requests it).
func TestSheetRequisitesPoliteAndScoped(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nDisallow: /private\n")
	h.serveTyped("/", "text/html", `<html><head><meta charset="windows-1252"><link rel="stylesheet" href="/s.css"><link rel=stylesheet href="/w.css"></head><body>x</body></html>`)
	h.serveTyped("/s.css", "text/css", `@import "/t.css"; a{background:url(/private/p.png)} b{background:url(/i.png)} c{background:url(/excluded.png)}`)
	h.serveTyped("/t.css", "text/css", `a{background:url(/j.png)}`)
	h.serveTyped("/w.css", "text/css", "a{background:url(/caf\xe9.png)}")
	for _, p := range []string{"/i.png", "/j.png", "/caf%C3%A9.png"} {
		h.serveTyped(p, "image/png", "PNG")
	}
	cfg := testConfig(t)
	cfg.Fetch.Requisites = true
	cfg.Scope.Exclude = []string{"/excluded"}
	crawlFor(t, cfg, h.URL("/"))
	got := h.paths()
	for _, want := range []string{"/s.css", "/t.css", "/w.css", "/i.png", "/j.png", "/caf%C3%A9.png"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s not fetched; requests: %s", want, strings.Join(got, " "))
		}
	}
	h.assertNever("/private", "/excluded")
	h.assertRobotsFirst()
	h.assertMinGap(cfg.Politeness.DefaultDelay)
	if sk := skipsFor(t, cfg, scheduler.ReasonRobotsDisallowed); len(sk) != 1 || !strings.HasSuffix(sk[0].URL, "/private/p.png") || sk[0].Parent != h.URL("/s.css") {
		t.Errorf("robots skips %+v, want /private/p.png found on /s.css", sk)
	}
	if sk := skipsFor(t, cfg, scheduler.ReasonOutOfScope); len(sk) != 1 || !strings.HasSuffix(sk[0].URL, "/excluded.png") {
		t.Errorf("out-of-scope skips %+v, want /excluded.png", sk)
	}
}
