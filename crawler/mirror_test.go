package crawler

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRequisitesAndMirror: with fetch.requisites the page's stylesheet and
// image are fetched (paced and robots-checked like pages) for the archive,
// and with archive.mirror the pages land in a browsable mirror inside the
// output dir.
func TestRequisitesAndMirror(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nDisallow: /private\n")
	h.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><head><link rel="stylesheet" href="/s.css"></head><body><img src="/i.png"><img src="/private/p.png"><a href="/a">a</a></body></html>`))
	}
	h.html("/a")
	h.pages["/s.css"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		w.Write([]byte("body{}"))
	}
	h.pages["/i.png"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte{0x89, 'P', 'N', 'G'})
	}
	cfg := testConfig(t)
	cfg.Fetch.Requisites = true
	cfg.Archive.Mirror = true
	crawlFor(t, cfg, h.URL("/"))
	got := strings.Join(h.paths(), " ")
	for _, want := range []string{"/s.css", "/i.png", "/a"} {
		if !strings.Contains(got, want) {
			t.Errorf("requisite or page %s not fetched: %s", want, got)
		}
	}
	h.assertNever("/private")
	var files []string
	filepath.WalkDir(cfg.Out, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.Contains(p, string(filepath.Separator)+"mirror"+string(filepath.Separator)) {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 4 {
		t.Errorf("mirror files %v, want the pages and requisites", files)
	}
	for _, f := range files {
		if rel, err := filepath.Rel(cfg.Out, f); err != nil || strings.HasPrefix(rel, "..") {
			t.Errorf("mirror file %s outside the output dir", f)
		}
	}
}
