package mirror

import (
	"fmt"
	"html"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/cssref"
)

// docsFile is one URL of a documentation site shaped like the Python
// docs: its Content-Type and the references its body holds.
type docsFile struct {
	path, ctype string
	refs        []string
}

// docsSite holds the kinds of names the Python 3.11 docs had renamed:
// index.html in subdirectories, names with '-' and upper-case letters,
// style sheets and scripts with a version query; and a directory URL and
// its index.html, a page and a directory of its name, a name with '@', a
// non-ASCII one, one with a space and one with parentheses.
var docsSite = []docsFile{
	{"/3/", "text/html", docsHomeRefs},
	{"/3/index.html", "text/html", docsHomeRefs},
	{"/3/tutorial/index.html", "text/html", []string{"../index.html", "../", "../genindex-A.html", "appetite.html", "../_static/pydoctheme.css?2022.1", "../c-api/"}},
	{"/3/tutorial/appetite.html", "text/html", []string{"index.html", "../faq", "../faq/general.html", "../_static/pydoctheme.css?2022.1"}},
	{"/3/genindex-A.html", "text/html", []string{"genindex-_.html", "_static/pydoctheme.css?2022.1"}},
	{"/3/genindex-_.html", "text/html", []string{"genindex-A.html"}},
	{"/3/library/os.path.html", "text/html", []string{"../_static/pydoctheme.css?2022.1", "../_static/doctools.js?v=baaebd52"}},
	{"/3/c-api/", "text/html", []string{"../index.html", "../_static/pydoctheme.css?2022.1"}},
	{"/3/whatsnew/3.11.html", "text/html", []string{"../whatsnew/3.11.html#summary"}},
	{"/3/faq", "text/html", []string{"faq/general.html"}},
	{"/3/faq/general.html", "text/html", []string{"../faq", "../tutorial/"}},
	{"/3/tutorial/", "text/html", []string{"index.html"}},
	{"/3/download%20(1).html", "text/html", []string{"_images/logo@2x.png"}},
	{"/3/search.html?q=os", "text/html", []string{"library/os.path.html"}},
	{"/3/_static/pydoctheme.css?2022.1", "text/css", []string{"basic.css", "../_images/bg-page.png"}},
	{"/3/_static/basic.css", "text/css", []string{"file.png", "../img/caf%C3%A9.png"}},
	{"/3/_static/doctools.js?v=baaebd52", "text/javascript", nil},
	{"/3/_static/file.png", "image/png", nil},
	{"/3/_images/bg-page.png", "image/png", nil},
	{"/3/_images/logo@2x.png", "image/png", nil},
	{"/3/img/caf%C3%A9.png", "image/png", nil},
}

// docsHomeRefs are the references of the site's home page, "/3/" and
// "/3/index.html" alike.
var docsHomeRefs = []string{"index.html", "./", "tutorial/index.html", "genindex-A.html", "genindex-_.html", "library/os.path.html",
	"c-api/", "whatsnew/3.11.html", "faq", "faq/general.html", "_images/logo@2x.png", "img/caf%C3%A9.png",
	"download%20(1).html", "search.html?q=os", "_static/pydoctheme.css?2022.1", "_static/doctools.js?v=baaebd52"}

// docsMarker is the text that tells one URL's body from the others'.
func docsMarker(u string) string { return "[body of " + u + "]" }

// docsBody is a docsFile's body: its marker and its references.
func docsBody(u string, f docsFile) string {
	var b strings.Builder
	switch f.ctype {
	case "text/html":
		b.WriteString("<!DOCTYPE html><html><head><!-- " + docsMarker(u) + " -->")
		for _, r := range f.refs {
			switch {
			case strings.Contains(r, ".css"):
				fmt.Fprintf(&b, `<link rel="stylesheet" href="%s">`, html.EscapeString(r))
			case strings.Contains(r, ".js"):
				fmt.Fprintf(&b, `<script src="%s"></script>`, html.EscapeString(r))
			case strings.Contains(r, ".png"):
				fmt.Fprintf(&b, `<img src="%s">`, html.EscapeString(r))
			default:
				fmt.Fprintf(&b, `<a href="%s">x</a>`, html.EscapeString(r))
			}
		}
		b.WriteString("</head></html>")
	case "text/css":
		b.WriteString("/* " + docsMarker(u) + " */")
		for i, r := range f.refs {
			if i == 0 {
				fmt.Fprintf(&b, `@import url("%s");`, r)
			} else {
				fmt.Fprintf(&b, ` .c%d { background: url(%s) }`, i, r)
			}
		}
	default:
		b.WriteString(docsMarker(u))
	}
	return b.String()
}

// TestMirrorServedFromOriginalPaths mirrors docsSite and serves the mirror
// with a static file server (net/http's FileServer, which types a file by
// its extension as nginx does): every file of a URL without a query lies
// at the URL's own path (but "/3/" and "/3/tutorial/", which leave their
// index.html to the URL that names it, and "/3/faq", which leaves "3/faq"
// to the directory);
// every reference of every page and sheet is relative and, requested from
// the server as a browser requests it, answers 200 with the body of the
// URL it referred to; the sheet and script named with a query are served
// as text/css and text/javascript.
func TestMirrorServedFromOriginalPaths(t *testing.T) {
	dir, w, must := openMirrorWriter(t)
	const site = "http://example.com"
	for _, f := range docsSite {
		must(typed(site+f.path, f.path, f.ctype, docsBody(site+f.path, f)))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	hdir := filepath.Join(dir, "mirror", "example.com")

	for _, f := range docsSite {
		u, _ := url.Parse(site + f.path)
		if u.RawQuery != "" || f.path == "/3/" || f.path == "/3/tutorial/" || f.path == "/3/faq" {
			continue
		}
		own := filepath.FromSlash(u.Path)
		if strings.HasSuffix(u.Path, "/") {
			own += "index.html"
		}
		if b, err := os.ReadFile(filepath.Join(hdir, own)); err != nil || !strings.Contains(string(b), docsMarker(u.String())) {
			t.Errorf("%s: not at its own path %s: %v", u, own, err)
		}
	}

	srv := httptest.NewServer(http.FileServer(http.Dir(hdir)))
	defer srv.Close()
	files := filesUnder(t, hdir)
	for _, f := range docsSite {
		src := site + f.path
		name := fileOf(t, files, src)
		served := srv.URL + (&url.URL{Path: "/" + name}).EscapedPath()
		got := mirroredRefs(t, filepath.Join(hdir, filepath.FromSlash(name)), f.ctype)
		if len(got) != len(f.refs) {
			t.Errorf("%s: references %q, want %d", name, got, len(f.refs))
			continue
		}
		for i, ref := range got {
			want, _ := url.Parse(src)
			want, _ = want.Parse(f.refs[i])
			want.Fragment = ""
			r, err := url.Parse(ref)
			if err != nil || r.Scheme != "" || r.Host != "" || strings.HasPrefix(r.Path, "/") {
				t.Errorf("%s: reference %q to %s is not relative to the file", name, ref, want)
				continue
			}
			at, _ := url.Parse(served)
			body, ctype := getServed(t, at.ResolveReference(r).String())
			if !strings.Contains(body, docsMarker(want.String())) {
				t.Errorf("%s: reference %q to %s serves %.60q", name, ref, want, body)
			}
			if mt, _, _ := mime.ParseMediaType(ctype); strings.Contains(want.Path, ".css") && mt != "text/css" || strings.HasSuffix(want.Path, ".js") && mt != "text/javascript" {
				t.Errorf("%s: %s is served as %q: a browser would not apply it", name, want, ctype)
			}
		}
	}
}

// fileOf is the slash-separated name, among files (by name), of the file
// that holds the body of the URL u.
func fileOf(t *testing.T, files map[string]string, u string) string {
	t.Helper()
	for name, body := range files {
		if strings.Contains(body, docsMarker(u)) {
			return name
		}
	}
	t.Fatalf("%s: no mirror file", u)
	return ""
}

// mirroredRefs returns the references of the mirrored file p in order:
// the href and src of a page, the @import and url()s of a sheet.
func mirroredRefs(t *testing.T, p, ctype string) []string {
	t.Helper()
	switch ctype {
	case "text/html":
		refs, _ := linkValues(t, p)
		return refs
	case "text/css":
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var refs []string
		for _, r := range cssref.Scan(b) {
			refs = append(refs, r.URL)
		}
		return refs
	}
	return nil
}

// getServed requests u from the mirror's server, following its
// redirects ("/3/index.html" to "/3/"), and returns the body and the
// Content-Type of a 200 answer; it fails the test on any other.
func getServed(t *testing.T, u string) (body, ctype string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET %s: %s", u, resp.Status)
	}
	return string(b), resp.Header.Get("Content-Type")
}
