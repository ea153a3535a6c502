package main

import (
	"archive/zip"
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWACZCommand runs "crawl wacz DIR" as a user would, after a crawl of a
// two-page site: it writes DIR/NAME.wacz (NAME from --name, else DIR's
// base name) and says what it holds; on a directory that holds no archive
// it is a usage error (exit 2) naming the problem; a crawl whose last run
// has no end line gets a warning.
func TestWACZCommand(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow:\n"))
		case "/":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<title>Start</title><a href="/next">next</a>`))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<title>Next</title>`))
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seeds, []byte(srv.URL+"/\n"), 0o644)
	out := filepath.Join(dir, "site-out")
	t.Setenv("CRAWL_POLITENESS_DEFAULT_DELAY", "50ms")
	if code, _, stderr := runCLI(t, "--seed", seeds, "--out", out, "--progress", "never"); code != exitOK {
		t.Fatalf("crawl exit %d: %s", code, stderr)
	}

	code, stdout, stderr := runCLI(t, "wacz", out)
	if code != exitOK || !strings.Contains(stdout, "site-out.wacz: 2 pages (1 seeds)") || stderr != "" {
		t.Fatalf("crawl wacz: exit %d\n%s\n%s", code, stdout, stderr)
	}
	zr, err := zip.OpenReader(filepath.Join(out, "site-out.wacz"))
	if err != nil {
		t.Fatal(err)
	}
	zr.Close()
	if code, _, stderr := runCLI(t, "wacz", "--name", "named", "--title", "A title", out); code != exitOK {
		t.Fatalf("crawl wacz --name: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "named.wacz")); err != nil {
		t.Error(err)
	}

	runs := filepath.Join(out, "runs.jsonl")
	f, _ := os.OpenFile(runs, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"time":"2026-01-01T00:00:00Z","event":"start","mode":"crawl"}` + "\n")
	f.Close()
	if code, _, stderr := runCLI(t, "wacz", out); code != exitOK || !strings.Contains(stderr, "has no end") {
		t.Errorf("crawl wacz after an unfinished run: exit %d, stderr %q", code, stderr)
	}

	if code, _, stderr := runCLI(t, "wacz", t.TempDir()); code != exitUsage || !strings.Contains(stderr, "no WARC file") {
		t.Errorf("crawl wacz on an empty dir: exit %d, stderr %q", code, stderr)
	}
}

// TestArchiveWACZAtCrawlEnd checks archive.wacz (CRAWL_ARCHIVE_WACZ): a crawl
// writes OUT/NAME.wacz when it ends, and a crawl resumed in the same output
// directory writes it again, whole, so the second file lists the pages of
// both runs; without archive.warc the key is refused as config (exit 2).
func TestArchiveWACZAtCrawlEnd(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow:\n"))
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<title>Page " + r.URL.Path + "</title>"))
	}))
	defer srv.Close()
	dir := t.TempDir()
	out := filepath.Join(dir, "site")
	t.Setenv("CRAWL_POLITENESS_DEFAULT_DELAY", "50ms")
	t.Setenv("CRAWL_ARCHIVE_WACZ", "true")
	crawlSeeds := func(urls ...string) string {
		seeds := filepath.Join(dir, "seeds.txt")
		os.WriteFile(seeds, []byte(strings.Join(urls, "\n")+"\n"), 0o644)
		code, stdout, stderr := runCLI(t, "--seed", seeds, "--out", out, "--progress", "never")
		if code != exitOK {
			t.Fatalf("crawl exit %d: %s", code, stderr)
		}
		return stdout
	}
	wacz := filepath.Join(out, "site.wacz")
	if stdout := crawlSeeds(srv.URL + "/a"); !strings.Contains(stdout, "WACZ: "+wacz+" (1 pages") {
		t.Fatalf("first run's output does not name the WACZ with 1 page:\n%s", stdout)
	}
	if got := waczPages(t, wacz); len(got) != 1 || got[0] != srv.URL+"/a" {
		t.Fatalf("first WACZ pages %v, want [%s/a]", got, srv.URL)
	}
	crawlSeeds(srv.URL+"/a", srv.URL+"/b")
	if got := waczPages(t, wacz); len(got) != 2 || got[0] != srv.URL+"/a" || got[1] != srv.URL+"/b" {
		t.Fatalf("resumed run's WACZ pages %v, want /a and /b", got)
	}
	entries, _ := filepath.Glob(filepath.Join(out, "*.wacz*"))
	if len(entries) != 1 {
		t.Errorf("WACZ files in the output dir: %v, want only site.wacz", entries)
	}

	t.Setenv("CRAWL_ARCHIVE_WARC", "false")
	if code, _, stderr := runCLI(t, "--seed", filepath.Join(dir, "seeds.txt"), "--out", filepath.Join(dir, "o2")); code != exitUsage || !strings.Contains(stderr, "archive.wacz") {
		t.Errorf("archive.wacz without archive.warc: exit %d, stderr %q", code, stderr)
	}
}

// waczPages returns the URLs of a WACZ's pages/pages.jsonl, after its header.
func waczPages(t *testing.T, path string) []string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var urls []string
	for _, f := range zr.File {
		if f.Name != "pages/pages.jsonl" {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(rc)
		for sc.Scan() {
			var p struct {
				URL string `json:"url"`
			}
			if json.Unmarshal(sc.Bytes(), &p) == nil && p.URL != "" {
				urls = append(urls, p.URL)
			}
		}
		rc.Close()
	}
	return urls
}
