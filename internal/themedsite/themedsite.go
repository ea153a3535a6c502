// Package themedsite serves the test site testdata/themedsite on
// 127.0.0.1 for the tests of page requisites (crawler), of the mirror and
// of replay (wacz), and keeps the log of every request it answered: the
// server's own evidence of what a crawl fetched. It is imported by tests
// only.
//
// The site is a tree of static pages with a theme (see its README.md):
// css/theme.css @imports basic.css and layout.css, which use images
// through url(); index.html has a <style> that @imports css/extra.css, a
// style attribute, srcset, <picture>, preload and modulepreload links.
// The files are served as http.FileServer serves them, but for
// css/extra.css, a windows-1252 sheet that names its encoding with
// @charset, which is served in gzip under "Content-Type: text/css".
package themedsite

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// GzipSheet is the URL path of the sheet served in gzip.
const GzipSheet = "/css/extra.css"

// Site is the test site, running.
type Site struct {
	// URL is the site's root, "http://127.0.0.1:port" without a "/".
	URL string
	// Dir is the directory of the site's files.
	Dir string

	mu       sync.Mutex
	requests []string // the request URIs answered, in order
}

// Start serves the site until the test ends.
func Start(t testing.TB) *Site {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("themedsite: no source path")
	}
	s := &Site{Dir: filepath.Join(filepath.Dir(file), "..", "..", "testdata", "themedsite")}
	sheet, err := os.ReadFile(filepath.Join(s.Dir, filepath.FromSlash(GzipSheet)))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(sheet)
	zw.Close()
	files := http.FileServer(http.Dir(s.Dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.URL.RequestURI())
		s.mu.Unlock()
		if r.URL.Path == GzipSheet {
			w.Header().Set("Content-Type", "text/css")
			w.Header().Set("Content-Encoding", "gzip")
			w.Write(gz.Bytes())
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// Requests returns the request URIs the site answered, in order.
func (s *Site) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// Files returns the URL paths of the files a crawl of the site from "/"
// with page requisites fetches: every file but README.md and the decoys,
// index.html as "/", each escaped as a browser requests it, in order.
func (s *Site) Files(t testing.TB) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(s.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(s.Dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case rel == "README.md" || strings.HasPrefix(filepath.Base(rel), "decoy-"):
		case rel == "index.html":
			paths = append(paths, "/")
		default:
			paths = append(paths, (&url.URL{Path: "/" + rel}).EscapedPath())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return paths
}

// Decoys returns the URL paths of the files the site names only inside a
// CSS comment or string, which no crawl may request.
func (s *Site) Decoys() []string {
	return []string{"/img/decoy-comment.png", "/img/decoy-string.png"}
}
