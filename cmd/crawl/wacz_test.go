package main

import (
	"archive/zip"
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
