package crawler

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMirrorKeepsTheSitesPaths crawls a site with the kinds of names the
// Python docs had renamed in the mirror (index.html in a subdirectory, a
// name with '-' and an upper-case letter, a style sheet with a version
// query that @imports another) and serves the mirror with a static file
// server: every file lies at its URL's own path, the sheet with the query
// at that path with its extension repeated, and the page's link to it
// (percent-encoding the '?') is answered with the sheet as text/css.
func TestMirrorKeepsTheSitesPaths(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	home := `<!DOCTYPE html><html><head><link rel="stylesheet" href="_static/pydoctheme.css?2022.1"></head>` +
		`<body><a href="tutorial/index.html">t</a> <a href="genindex-A.html">A</a> <a href="index.html">home</a></body></html>`
	h.serveTyped("/3/", "text/html", home)
	h.serveTyped("/3/index.html", "text/html", home)
	h.serveTyped("/3/tutorial/index.html", "text/html", `<a href="../genindex-A.html">A</a><link rel=stylesheet href="../_static/pydoctheme.css?2022.1">`)
	h.serveTyped("/3/genindex-A.html", "text/html", `<a href="tutorial/index.html">t</a>`)
	h.serveTyped("/3/_static/pydoctheme.css?2022.1", "text/css", `@import url("basic.css"); body { background: url(file.png) }`)
	h.serveTyped("/3/_static/basic.css", "text/css", `div { color: red }`)
	h.serveTyped("/3/_static/file.png", "image/png", "PNG")
	cfg := testConfig(t)
	cfg.Fetch.Requisites = true
	cfg.Archive.Mirror = true
	crawlFor(t, cfg, h.URL("/3/"))

	root := filepath.Join(cfg.Out, "archive", "mirror")
	su, _ := url.Parse(h.URL("/"))
	hostDir := filepath.Join(root, su.Hostname()+"_"+su.Port())
	for _, own := range []string{"3/index.html", "3/tutorial/index.html", "3/genindex-A.html",
		"3/_static/pydoctheme.css?2022.1.css", "3/_static/basic.css", "3/_static/file.png"} {
		if _, err := os.Stat(filepath.Join(hostDir, filepath.FromSlash(own))); err != nil {
			t.Errorf("%s: %v", own, err)
		}
	}
	for _, u := range []string{"/3/", "/3/index.html", "/3/tutorial/index.html", "/3/genindex-A.html", "/3/_static/pydoctheme.css?2022.1"} {
		checkMirrorRefs(t, root, h.URL(""), h.URL(u))
	}

	srv := httptest.NewServer(http.FileServer(http.Dir(hostDir)))
	defer srv.Close()
	page, err := os.ReadFile(filepath.Join(hostDir, "3", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	const link = "_static/pydoctheme.css%3F2022.1.css"
	if !strings.Contains(string(page), `href="`+link+`"`) {
		t.Fatalf("3/index.html links the sheet otherwise than %q: %s", link, page)
	}
	resp, err := http.Get(srv.URL + "/3/" + link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || !strings.HasPrefix(ct, "text/css") {
		t.Errorf("the sheet served from the mirror: %s, %q; want 200 text/css", resp.Status, ct)
	}
}
