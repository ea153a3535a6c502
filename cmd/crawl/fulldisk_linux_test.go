package main

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/wiretest"
)

// bulkySite serves a home page linking n pages of about 50 KB each, text
// that compresses little, and counts the requests for each path.
type bulkySite struct {
	url  string
	mu   sync.Mutex
	hits map[string]int
}

func startBulkySite(t *testing.T, n int) *bulkySite {
	s := &bulkySite{hits: map[string]int{}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/" {
			fmt.Fprint(w, "<html><body>")
			for i := range n {
				fmt.Fprintf(w, `<a href="/p%d">p%d</a> `, i, i)
			}
			fmt.Fprint(w, "</body></html>")
			return
		}
		var seed uint64
		fmt.Sscanf(r.URL.Path, "/p%d", &seed)
		noise := make([]byte, 37<<10)
		rng := rand.New(rand.NewPCG(seed, 7))
		for i := range noise {
			noise[i] = byte(rng.Uint32())
		}
		fmt.Fprintf(w, "<html><body><p>%s</p></body></html>", base64.StdEncoding.EncodeToString(noise))
	})}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	s.url = "http://" + l.Addr().String()
	return s
}

// take returns the requests counted so far, by path, and starts counting
// afresh.
func (s *bulkySite) take() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.hits
	s.hits = map[string]int{}
	return h
}

// mountTmpfs mounts a file system of size bytes at dir, or skips the test
// where that is not permitted (not root, or no CAP_SYS_ADMIN).
func mountTmpfs(t *testing.T, dir string, size string) {
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("a real full disk needs a tmpfs, and mounting one is not permitted here (root only): %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, 0); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
}

// fillBut writes a ballast file to dir leaving about free bytes of its file
// system free, and returns its path.
func fillBut(t *testing.T, dir string, free int64) string {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	avail := int64(st.Bavail) * st.Bsize
	if avail <= free {
		t.Fatalf("%s has %d bytes free, less than the %d to leave", dir, avail, free)
	}
	path := filepath.Join(dir, "ballast")
	if err := os.WriteFile(path, make([]byte, avail-free), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// warcPages counts the response records of pages in the WARC files of
// out, by path; reading them fails on any partial record.
func warcPages(t *testing.T, out, site string) map[string]int {
	t.Helper()
	got := map[string]int{}
	for _, rec := range wiretest.WARCRecords(t, out) {
		if p := strings.TrimPrefix(rec.Get("WARC-Target-URI"), site); rec.Type() == "response" && p != "/robots.txt" {
			got[p]++
		}
	}
	return got
}

// TestFullDiskStopsAndResumes crawls a site of 61 pages (about 2.5 MB of
// WARC) into a tmpfs with about 1 MB free. The crawl must stop with exit 1
// and one line naming the file that filled up and the error; the WARC
// files must hold only whole records. Once the ballast is deleted, the
// same command must fetch, by the server's own count, each page the first
// run did not archive exactly once, and afterwards every page is in the
// WARC files once. What is allowed beyond that: when the write that
// failed first is not the archive's (the frontier filled up first), the
// pages archived in the moments before it, whose ends the frontier did
// not record, may be fetched once more, as pages in flight at a kill -9
// are; each such page is then in the WARC files twice.
func TestFullDiskStopsAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("fills a file system; skipped in -short mode")
	}
	mnt := t.TempDir()
	mountTmpfs(t, mnt, "3m")
	ballast := fillBut(t, mnt, 1<<20)
	const pages = 60
	site := startBulkySite(t, pages)
	out := filepath.Join(mnt, "out")
	seeds := filepath.Join(t.TempDir(), "seeds.txt")
	cfgFile := filepath.Join(t.TempDir(), "config.yaml")
	os.WriteFile(seeds, []byte(site.url+"/\n"), 0o644)
	os.WriteFile(cfgFile, []byte("politeness:\n  default_delay: 5ms\nfetch:\n  workers: 4\nlog:\n  progress: never\n"), 0o644)
	args := []string{"--seed", seeds, "--out", out, "--config", cfgFile}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	code, stderr := runQuiet(ctx, args)
	if code != exitFailure {
		t.Fatalf("first run on a full disk: exit %d, want %d; stderr:\n%s", code, exitFailure, stderr)
	}
	var failed []string
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if strings.Contains(line, "write failed") {
			failed = append(failed, line)
		}
	}
	if len(failed) != 1 || !strings.HasPrefix(failed[0], "crawl: ") || !strings.Contains(failed[0], out+"/") ||
		!strings.Contains(failed[0], "no space left on device") || !strings.Contains(failed[0], "run the same command again") {
		t.Fatalf("first run's stderr:\n%s\nwant one line naming the file under %s and the error", stderr, out)
	}
	archiveFirst := strings.HasPrefix(failed[0], "crawl: archive write failed: ") && strings.Contains(failed[0], ".warc.gz: ")
	t.Logf("first run: %s", failed[0])
	first := site.take()
	archived := warcPages(t, out, site.url)
	if len(archived) == 0 || len(archived) >= pages {
		t.Fatalf("first run archived %d of %d pages: the disk did not fill part way", len(archived), pages+1)
	}

	if err := os.Remove(ballast); err != nil {
		t.Fatal(err)
	}
	if code, stderr := runQuiet(ctx, args); code != exitOK {
		t.Fatalf("second run, with room: exit %d; stderr:\n%s", code, stderr)
	}
	second := site.take()
	final := warcPages(t, out, site.url)
	for i := -1; i < pages; i++ {
		p := "/"
		if i >= 0 {
			p = fmt.Sprintf("/p%d", i)
		}
		switch {
		case archived[p] == 0 && second[p] != 1:
			t.Errorf("%s: not archived by the first run (requested %d times), requested %d times by the second, want once", p, first[p], second[p])
		case archived[p] > 0 && second[p] != 0 && (archiveFirst || second[p] > 1):
			t.Errorf("%s: archived by the first run, requested %d times by the second", p, second[p])
		}
		if final[p] != 1 && (archiveFirst || final[p] != 2 || second[p] != 1) {
			t.Errorf("%s is in the WARC files %d times, want once", p, final[p])
		}
	}
	if len(second) > 0 && second["/robots.txt"] > 1 {
		t.Errorf("second run asked for robots.txt %d times", second["/robots.txt"])
	}
}

// runQuiet runs the command line and returns its exit code and stderr.
func runQuiet(ctx context.Context, args []string) (int, string) {
	var stdout, stderr strings.Builder
	code := run(ctx, args, &stdout, &stderr)
	return code, stderr.String()
}
