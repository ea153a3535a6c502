package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/crawlproject/crawl/crawllog"
)

// TestHostGivenUpExitsThreeAndTheNextRunRetriesIt: a host whose pages fail
// at the connection level (the server closes the connection without an
// answer) on five different URLs in a row is given up: the crawl exits 3
// and says why, skips.jsonl lists its URLs as host-failing and queued, and
// running the same command again, once the server answers, fetches
// exactly those URLs.
func TestHostGivenUpExitsThreeAndTheNextRunRetriesIt(t *testing.T) {
	var healthy atomic.Bool
	var mu sync.Mutex
	got := map[string]int{}
	broken := []string{"/c1", "/c2", "/c3", "/c4", "/c5"}
	good := []string{"/g1", "/g2", "/g3"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.URL.Path]++
		mu.Unlock()
		switch {
		case r.URL.Path == "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
		case r.URL.Path == "/":
			w.Header().Set("Content-Type", "text/html")
			for _, p := range append(append([]string(nil), broken...), good...) {
				fmt.Fprintf(w, `<a href="%s">%s</a>`, p, p)
			}
		case strings.HasPrefix(r.URL.Path, "/c") && !healthy.Load():
			c, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				c.Close() // no answer at all
			}
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<html>ok</html>")
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seeds, []byte(srv.URL+"/\n"), 0o644)
	cfgFile := filepath.Join(dir, "crawl.yaml")
	os.WriteFile(cfgFile, []byte("politeness:\n  default_delay: 2ms\n  backoff_base: 10ms\n  max_failures: 5\nrobots:\n  retry_base: 10ms\n"), 0o644)
	out := filepath.Join(dir, "out")
	args := []string{"--seed", seeds, "--out", out, "--config", cfgFile, "--progress", "never"}
	counts := func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		c := map[string]int{}
		for k, v := range got {
			c[k] = v
			delete(got, k)
		}
		return c
	}

	code, stdout, stderr := runCLI(t, args...)
	if code != exitGivenUp || !strings.Contains(stderr, "given up") || !strings.Contains(stderr, "run the same command again") {
		t.Fatalf("first run: exit %d, stderr %q; want exit 3 saying the host was given up", code, stderr)
	}
	if !strings.Contains(stdout, "[dropped]") || !strings.Contains(stdout, "5 different URLs") {
		t.Errorf("first run's summary does not name the dropped host and why:\n%s", stdout)
	}
	first := counts()
	for _, p := range broken {
		if first[p] != 1 {
			t.Errorf("first run: %s requested %d times, want once (each a different URL)", p, first[p])
		}
	}
	for _, p := range good {
		if first[p] != 0 {
			t.Errorf("first run: %s requested after the host was given up", p)
		}
	}
	kept := map[string]bool{}
	for _, s := range readSkips(t, out) {
		if s.Reason != "host-failing" || !s.Queued {
			t.Errorf("skip %+v, want host-failing and queued", s)
		}
		kept[strings.TrimPrefix(s.URL, srv.URL)] = true
	}
	if len(kept) != len(broken)+len(good) {
		t.Errorf("URLs kept %v, want the 5 broken and 3 good ones", kept)
	}
	var sum crawllog.Summary
	if b, err := os.ReadFile(filepath.Join(out, crawllog.SummaryFile)); err != nil || json.Unmarshal(b, &sum) != nil {
		t.Fatalf("summary.json: %v", err)
	}
	if sum.ExitCode != exitGivenUp || sum.Totals.DroppedHosts != 1 || sum.Totals.Queued != len(kept) {
		t.Errorf("summary exit %d totals %+v, want exit 3, 1 host given up, %d URLs queued", sum.ExitCode, sum.Totals, len(kept))
	}

	healthy.Store(true)
	code, _, stderr = runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("second run: exit %d, stderr %q; want 0", code, stderr)
	}
	second := counts()
	for _, p := range append(append([]string(nil), broken...), good...) {
		if second[p] != 1 {
			t.Errorf("second run: %s requested %d times, want once", p, second[p])
		}
	}
	if second["/"] != 0 {
		t.Errorf("second run fetched / again: %v", second)
	}
}

// readSkips reads skips.jsonl of out.
func readSkips(t *testing.T, out string) []crawllog.SkipEntry {
	t.Helper()
	f, err := os.Open(filepath.Join(out, crawllog.SkipLogFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var skips []crawllog.SkipEntry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var s crawllog.SkipEntry
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		skips = append(skips, s)
	}
	return skips
}
