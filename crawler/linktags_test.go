package crawler

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/scheduler"
)

// attrs reads the attributes kv (name, value, name, value...) as an
// element's attr function does: the first of a name, "" for one absent.
func attrs(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

// TestPageRefAndRequisiteRefs: which attributes of which elements are
// links to pages and which are requisites of the page.
func TestPageRefAndRequisiteRefs(t *testing.T) {
	pages := []struct {
		tag  string
		attr func(string) string
		want string
	}{
		{"a", attrs("href", "/a"), "/a"},
		{"area", attrs("href", "/m"), "/m"},
		{"frame", attrs("src", "menu.html"), "menu.html"},
		{"iframe", attrs("src", "ifr.html"), "ifr.html"},
		{"meta", attrs("http-equiv", "Refresh", "content", "0; URL=moved.html"), "moved.html"},
		{"meta", attrs("http-equiv", "content-type", "content", "text/html; url=x"), ""},
		{"meta", attrs("name", "robots", "content", "nofollow"), ""},
		{"img", attrs("src", "/i.png"), ""},
		{"a", attrs("name", "top"), ""},
		{"link", attrs("rel", "search", "type", "application/opensearchdescription+xml", "href", "_static/opensearch.xml"), "_static/opensearch.xml"},
		{"link", attrs("rel", "Alternate", "href", "/fr/"), "/fr/"},
		{"link", attrs("rel", "next", "href", "p2.html"), "p2.html"},
		{"link", attrs("rel", "stylesheet", "href", "s.css"), ""},
		{"link", attrs("rel", "shortcut icon", "href", "f.ico"), ""},
		{"link", attrs("rel", "preload", "as", "font", "href", "f.woff2"), ""},
		{"link", attrs("rel", "dns-prefetch", "href", "//cdn.example/"), ""},
		{"link", attrs("rel", "pingback", "href", "/xmlrpc.php"), ""},
		{"link", attrs("href", "/no-rel"), ""},
	}
	for _, c := range pages {
		got, ok := pageRef(c.tag, c.attr)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("pageRef(%s) = %q, %v; want %q", c.tag, got, ok, c.want)
		}
	}
	reqs := []struct {
		tag  string
		attr func(string) string
		want []string
	}{
		{"img", attrs("src", "/hi.gif", "lowsrc", "/lo.gif"), []string{"/hi.gif", "/lo.gif"}},
		{"body", attrs("background", "/bg.gif"), []string{"/bg.gif"}},
		{"td", attrs("background", "/td.gif"), []string{"/td.gif"}},
		{"embed", attrs("src", "/song.mid"), []string{"/song.mid"}},
		{"object", attrs("data", "/flash.swf"), []string{"/flash.swf"}},
		{"input", attrs("type", "IMAGE", "src", "/button.gif"), []string{"/button.gif"}},
		{"input", attrs("type", "text", "src", "/no.gif"), nil},
		{"video", attrs("src", "/v.mp4", "poster", "/v.jpg"), []string{"/v.mp4", "/v.jpg"}},
		{"link", attrs("rel", "StyleSheet", "href", "/s.css"), []string{"/s.css"}},
		{"link", attrs("rel", "next", "href", "/p2"), nil},
		{"script", attrs("src", " "), nil},
		{"a", attrs("href", "/a"), nil},
		{"img", attrs("src", "/a.png", "srcset", "/a-1x.png 1x, /a-2x.png 2x"), []string{"/a.png", "/a-1x.png", "/a-2x.png"}},
		{"source", attrs("srcset", "/wide.png 800w,/narrow.png 400w"), []string{"/wide.png", "/narrow.png"}},
		{"source", attrs("src", "/clip.webm"), []string{"/clip.webm"}},
		{"link", attrs("rel", "preload", "as", "Font", "href", "/f.woff2"), []string{"/f.woff2"}},
		{"link", attrs("rel", "preload", "as", "style", "href", "/s.css"), []string{"/s.css"}},
		{"link", attrs("rel", "preload", "as", "image", "href", "/h.png", "imagesrcset", "/h1.png 1x, /h2.png 2x"), []string{"/h.png", "/h1.png", "/h2.png"}},
		{"link", attrs("rel", "preload", "href", "/no-as.js"), nil},
		{"link", attrs("rel", "preload", "as", "nonsense", "href", "/bad-as.js"), nil},
		{"link", attrs("rel", "modulepreload", "href", "/app.mjs"), []string{"/app.mjs"}},
		{"link", attrs("rel", "modulepreload", "as", "worker", "href", "/w.mjs"), []string{"/w.mjs"}},
		{"link", attrs("rel", "modulepreload", "as", "style", "href", "/m.css"), nil},
		{"link", attrs("rel", "prefetch", "href", "/later.html"), nil},
	}
	for _, c := range reqs {
		if got := requisiteRefs(c.tag, c.attr); !slices.Equal(got, c.want) {
			t.Errorf("requisiteRefs(%s) = %q, want %q", c.tag, got, c.want)
		}
	}
}

// TestOldSiteLinks crawls a site written the way small sites were around
// 2000: a frame set, an iframe, a meta refresh for a moved page, a link
// an editor wrapped over two lines, Windows back-slashed paths, and
// table backgrounds and a low-resolution image with fetch.requisites.
// Each is fetched at the URL a browser requests, and a link that is not
// a URL at all is logged as invalid-url instead of vanishing.
func TestOldSiteLinks(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nDisallow:\n")
	page := func(path, body string) {
		h.pages[path] = func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(body))
		}
	}
	page("/", `<HTML><FRAMESET COLS="20%,80%"><FRAME SRC="menu.html"><FRAME SRC="main.html"></FRAMESET></HTML>`)
	page("/menu.html", "<html><body><iframe src=\"ifr.html\"></iframe>"+
		"<a href=\"/docs/chapter1/\n  intro.html\">wrapped</a><a href=\"/pics/\tphoto.html\">tab</a>"+
		`<a href="dir\page.html">back</a><a href="/bad%zz">bad</a></body></html>`)
	page("/main.html", `<html><head><meta http-equiv="refresh" content="0; URL=moved.html"></head>`+
		`<body background="bg.gif"><table background="/tbl.gif"><tr><td>`+
		`<img src="hi.gif" lowsrc="lo.gif"></td></tr></table></body></html>`)
	for _, p := range []string{"/ifr.html", "/moved.html", "/docs/chapter1/%20%20intro.html", "/pics/photo.html", "/dir/page.html"} {
		h.html(p)
	}
	for _, p := range []string{"/bg.gif", "/tbl.gif", "/hi.gif", "/lo.gif"} {
		h.pages[p] = func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "image/gif")
			w.Write([]byte("GIF89a"))
		}
	}
	cfg := testConfig(t)
	cfg.Fetch.Requisites = true
	crawlFor(t, cfg, h.URL("/"))
	got := h.paths()
	for _, want := range []string{"/menu.html", "/main.html", "/ifr.html", "/moved.html",
		"/docs/chapter1/%20%20intro.html", "/pics/photo.html", "/dir/page.html",
		"/bg.gif", "/tbl.gif", "/hi.gif", "/lo.gif"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s not fetched; requests: %s", want, strings.Join(got, " "))
		}
	}
	for _, p := range got {
		if strings.Contains(p, "%5C") || strings.Contains(p, `\`) {
			t.Errorf("requested %q: a back-slash is a path separator to a browser", p)
		}
	}
	invalid := skipsFor(t, cfg, scheduler.ReasonInvalidURL)
	if len(invalid) != 1 || !strings.Contains(invalid[0].URL, "/bad%zz") || !strings.Contains(invalid[0].Detail, "escape") {
		t.Errorf("invalid-url skips = %+v, want one for /bad%%zz saying why", invalid)
	}
}

// TestBadEscapeInAFragmentOrPath: a link whose fragment holds a bad escape
// ("b.html#%_sec", as links to R5RS have it) is fetched without its
// fragment, which is no part of the request (RFC 3986 3.5); a link whose
// path holds one is logged as invalid-url under the absolute URL it was
// meant to be, with its page as parent.
func TestBadEscapeInAFragmentOrPath(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nDisallow:\n")
	h.pages["/doc/"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><body><a href="b.html#%_sec">b</a> <a href="c%zz.html">c</a></body></html>`))
	}
	h.html("/doc/b.html")
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/doc/"))
	if got := h.paths(); !slices.Contains(got, "/doc/b.html") {
		t.Errorf("requests %v; want /doc/b.html, the link without its fragment", got)
	}
	invalid := skipsFor(t, cfg, scheduler.ReasonInvalidURL)
	if len(invalid) != 1 || invalid[0].URL != h.URL("/doc/c%zz.html") || invalid[0].Parent != h.URL("/doc/") {
		t.Errorf("invalid-url skips %+v; want one, for %s, parent %s", invalid, h.URL("/doc/c%zz.html"), h.URL("/doc/"))
	}
}

// TestStyleRefs: the CSS of a <style> element (a sheet, its @import
// included) and of a style attribute (declarations, where an @import is
// no rule), and nothing from a <style> in another language.
func TestStyleRefs(t *testing.T) {
	cases := []struct {
		tag  string
		attr func(string) string
		text string
		want string
	}{
		{"style", attrs(), `@import "a.css"; /* url(no.png) */ p{background:url(b.png)}`, "a.css(import) b.png"},
		{"style", attrs("type", "TEXT/CSS"), `p{background:url(b.png)}`, "b.png"},
		{"style", attrs("type", "text/less"), `p{background:url(b.png)}`, ""},
		{"div", attrs("style", `background: url('d.png'); @import "no.css"`), "", "d.png"},
		{"style", attrs("style", `color: red; background-image: url(e.png)`), `p{background:url(f.png)}`, "f.png e.png"},
		{"p", attrs(), "", ""},
	}
	for _, c := range cases {
		var got []string
		for _, r := range styleRefs(c.tag, c.attr, c.text) {
			s := r.URL
			if r.Import {
				s += "(import)"
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("styleRefs(%s, %q) = %q, want %q", c.tag, c.text, got, c.want)
		}
	}
}

// TestLinkToRelatedDocumentIsFollowed: a <link href> naming a related
// document (rel=search, as every Sphinx page has for its OpenSearch
// description) is fetched as a page is, so the mirror and the archive
// hold it; a style sheet link without fetch.requisites is not.
func TestLinkToRelatedDocumentIsFollowed(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nDisallow:\n")
	h.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><head><link rel="search" type="application/opensearchdescription+xml" href="/os.xml">` +
			`<link rel="stylesheet" href="/s.css"></head><body>x</body></html>`))
	}
	h.html("/os.xml")
	h.html("/s.css")
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/"))
	got := h.paths()
	if !slices.Contains(got, "/os.xml") || slices.Contains(got, "/s.css") {
		t.Errorf("requests %v; want /os.xml (a related document) and not /s.css (a requisite, off)", got)
	}
}
