package mirror

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/crawlproject/crawl/archive"
)

// typed is page with the Content-Type ctype.
func typed(url, path, ctype, body string) archive.Exchange {
	e := page(url, path, body)
	e.Response = []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s", ctype, len(body), body))
	return e
}

// TestMirrorRewritesCSSAndSrcset: the references a browser loads to render
// a page lead to the mirrored files: every srcset candidate (<img>,
// <picture>'s <source>, a preload's imagesrcset), the url()s of a style
// attribute and of a <style> element and its @import, and in a style
// sheet its @import and url()s, read in the sheet's own encoding. Only
// the URL text changes: comments, the quotes around a URL and the text
// around it stay, and a reference to what was not mirrored becomes
// absolute.
func TestMirrorRewritesCSSAndSrcset(t *testing.T) {
	dir, w, must := openMirrorWriter(t)
	root := filepath.Join(dir, "mirror")
	const site = "http://example.com"
	pageURL := site + "/dir/index.html"
	pageHTML := `<html><head><style>@import "../css/a.css"; /* url(../img/b.png) */ p { background: url( '../img/b.png' ) }</style>` +
		`<link rel=preload as=image href="/img/g.png" imagesrcset="/img/g.png 1x, /img/nf.png 2x"></head>` +
		`<body><img src="../img/c.png" srcset="../img/c.png 1x,../img/d.png   2x" style="background:url(&quot;../img/e.png&quot;)">` +
		`<picture><source srcset="/img/f.png 800w" media="(min-width: 800px)"><img src="/img/c.png"></picture></body></html>`
	must(page(pageURL, "/dir/index.html", pageHTML))
	must(typed(site+"/css/a.css", "/css/a.css", "text/css",
		`@import url(b.css); .x{background:url("../img/b.png")} /* url(../img/b.png) */ .y{background:url(nf.png)}`))
	must(typed(site+"/css/b.css", "/css/b.css", "text/css; charset=iso-8859-1", ".z{background:url(../img/caf\xe9.png)}"))
	for _, p := range []string{"b", "c", "d", "e", "f", "g", "caf%C3%A9"} {
		must(typed(site+"/img/"+p+".png", "/img/"+p+".png", "image/png", "PNG "+p))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// link is the relative link from the file of one URL to another's.
	link := func(from, to string) string {
		t.Helper()
		rel, err := filepath.Rel(filepath.Dir(mustMirrorPath(t, root, from)), mustMirrorPath(t, root, to))
		if err != nil {
			t.Fatal(err)
		}
		return (&url.URL{Path: filepath.ToSlash(rel)}).String()
	}
	read := func(u string) string {
		t.Helper()
		b, err := os.ReadFile(mustMirrorPath(t, root, u))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	img := func(name string) string { return link(pageURL, site+"/img/"+name) }
	wantPage := `<html><head><style>@import "` + link(pageURL, site+"/css/a.css") + `"; /* url(../img/b.png) */ p { background: url( '` + img("b.png") + `' ) }</style>` +
		`<link rel=preload as=image href="` + img("g.png") + `" imagesrcset="` + img("g.png") + ` 1x, http://example.com/img/nf.png 2x"></head>` +
		`<body><img src="` + img("c.png") + `" srcset="` + img("c.png") + ` 1x,` + img("d.png") + `   2x" style="background:url(&quot;` + img("e.png") + `&quot;)">` +
		`<picture><source srcset="` + img("f.png") + ` 800w" media="(min-width: 800px)"><img src="` + img("c.png") + `"></picture></body></html>`
	if got := read(pageURL); got != wantPage {
		t.Errorf("page mirrored as\n%s\nwant\n%s", got, wantPage)
	}
	sheet := site + "/css/a.css"
	wantSheet := `@import url(` + link(sheet, site+"/css/b.css") + `); .x{background:url("` + link(sheet, site+"/img/b.png") +
		`")} /* url(../img/b.png) */ .y{background:url(http://example.com/css/nf.png)}`
	if got := read(sheet); got != wantSheet {
		t.Errorf("a.css mirrored as\n%s\nwant\n%s", got, wantSheet)
	}
	// The windows-1252 sheet names café.png, which a browser requests as
	// /img/caf%C3%A9.png; its other octets stay.
	sheet = site + "/css/b.css"
	if got, want := read(sheet), ".z{background:url("+link(sheet, site+"/img/caf%C3%A9.png")+")}"; got != want {
		t.Errorf("b.css mirrored as %q, want %q", got, want)
	}
}

// TestMirrorStyleAttrAndElement: a style attribute's url() is rewritten
// and its quoting kept; an @import in a style attribute is no rule and
// stays; a <style> whose type is not CSS is left as it is.
func TestMirrorStyleAttrAndElement(t *testing.T) {
	dir, w, must := openMirrorWriter(t)
	body := `<p style='@import "/x.png"; background: url(/x.png)'>a</p><style type="text/less">a{b:url(/x.png)}</style><style TYPE=" text/CSS ">a{b:url(/x.png)}</style>`
	must(page("http://example.com/p", "/p", body))
	must(typed("http://example.com/x.png", "/x.png", "image/png", "PNG"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "mirror", "example.com", "p"))
	if err != nil {
		t.Fatal(err)
	}
	want := `<p style='@import "/x.png"; background: url(x.png)'>a</p><style type="text/less">a{b:url(/x.png)}</style><style TYPE=" text/CSS ">a{b:url(x.png)}</style>`
	if string(got) != want {
		t.Errorf("mirrored as\n%s\nwant\n%s", got, want)
	}
}
