package crawler

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/internal/wiretest"
	"github.com/crawlproject/crawl/scheduler"
)

// fillingArchive passes exchanges to the archive writer until room is
// used up; from then on every write fails with ENOSPC naming the WARC
// file, as the real writer does on a full disk, and nothing is written.
type fillingArchive struct {
	archiver
	path string

	mu   sync.Mutex
	room int
}

func (a *fillingArchive) WriteExchange(e archive.Exchange) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.room == 0 {
		return fmt.Errorf("archive: %w", &os.PathError{Op: "write", Path: a.path, Err: syscall.ENOSPC})
	}
	a.room--
	return a.archiver.WriteExchange(e)
}

// pagesSite serves n pages on each of two hosts, every one linked from the
// host's home page, with a pace of 5 ms.
func pagesSite(t *testing.T, n int) []*testHost {
	var hosts []*testHost
	for range 2 {
		h := newTestHost(t)
		h.robotsText("User-agent: *\nCrawl-delay: 0.005\n")
		links := make([]string, n)
		for i := range n {
			links[i] = fmt.Sprintf("/p%d", i)
			h.html(links[i], "/")
		}
		h.html("/", links...)
		hosts = append(hosts, h)
	}
	return hosts
}

// archivedPages counts the response and revisit records of pages
// (robots.txt left out) in the WARC files of out, by URL; reading them
// fails on any partial record.
func archivedPages(t *testing.T, out string) map[string]int {
	t.Helper()
	got := map[string]int{}
	for _, rec := range wiretest.WARCRecords(t, out) {
		if u := rec.Get("WARC-Target-URI"); (rec.Type() == "response" || rec.Type() == "revisit") && !strings.HasSuffix(u, "/robots.txt") {
			got[u]++
		}
	}
	return got
}

// pageRequests counts the requests each host received for pages, by URL,
// from the n-th request on.
func pageRequests(hosts []*testHost, from map[*testHost]int) map[string]int {
	got := map[string]int{}
	for _, h := range hosts {
		for _, r := range h.requests()[from[h]:] {
			if r.Path != "/robots.txt" {
				got[h.URL(r.Path)]++
			}
		}
	}
	return got
}

func fastConfig(t *testing.T) config.Config {
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 5 * time.Millisecond
	cfg.Fetch.Workers = 4
	return cfg
}

// TestArchiveWriteFailureStopsTheCrawl protects "a write that fails stops
// the crawl, and loses nothing": the first failed archive write stops
// the crawl with an error naming the WARC file; the pages whose records
// were not written have no crawl log line and stay queued; the same crawl
// run again fetches exactly those pages (the servers' request logs say
// so), and afterwards every page is in the WARC files once.
func TestArchiveWriteFailureStopsTheCrawl(t *testing.T) {
	hosts := pagesSite(t, 12)
	cfg := fastConfig(t)
	seeds := []string{hosts[0].URL("/"), hosts[1].URL("/")}
	warc := filepath.Join(cfg.Out, ArchiveDir, "crawl-20260101000000-00001.warc.gz")
	opts := Options{Seeds: seeds, wrapArchive: func(w archiver) archiver {
		return &fillingArchive{archiver: w, path: warc, room: 10} // 2 robots.txt and 8 pages
	}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sum, err := Run(ctx, cfg, opts)
	var we *WriteError
	if !errors.As(err, &we) || we.What != WroteArchive || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), warc) {
		t.Fatalf("first run: %v, want the archive's ENOSPC naming %s", err, warc)
	}
	if sum == nil || sum.ExitCode != 1 {
		t.Errorf("summary of the stopped run: %+v, want exit code 1", sum)
	}
	first := archivedPages(t, cfg.Out)
	if len(first) != 8 {
		t.Errorf("first run archived %d pages, want 8: %v", len(first), first)
	}
	logged := map[string]int{}
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if e.Kind == "page" {
			logged[e.URL]++
		}
	}
	for u, n := range logged {
		if first[u] != n {
			t.Errorf("%s: %d crawl log lines, %d records: a page is logged once its records are written", u, n, first[u])
		}
	}
	seen := map[*testHost]int{}
	for _, h := range hosts {
		seen[h] = len(h.requests())
	}

	if _, err := Run(ctx, cfg, Options{Seeds: seeds}); err != nil {
		t.Fatalf("second run: %v", err)
	}
	all := map[string]bool{}
	for _, h := range hosts {
		all[h.URL("/")] = true
		for i := range 12 {
			all[h.URL(fmt.Sprintf("/p%d", i))] = true
		}
	}
	second := pageRequests(hosts, seen)
	for u := range all {
		want := 1
		if first[u] > 0 {
			want = 0
		}
		if second[u] != want {
			t.Errorf("%s: requested %d times by the second run, want %d (archived by the first: %d)", u, second[u], want, first[u])
		}
	}
	for u := range second {
		if !all[u] {
			t.Errorf("second run requested %s, which is no page of the site", u)
		}
	}
	final := archivedPages(t, cfg.Out)
	for u := range all {
		if final[u] != 1 {
			t.Errorf("%s is in the WARC files %d times, want once", u, final[u])
		}
	}
}

// fillingStore is a frontier store whose disk fills up once room lease
// ends (dequeues) are committed: from the commit that would pass that on,
// Apply fails with ENOSPC naming the frontier file and writes nothing.
type fillingStore struct {
	scheduler.Store
	path string

	mu   sync.Mutex
	room int
}

func (s *fillingStore) Apply(ops []scheduler.Op) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ends := 0
	for _, op := range ops {
		if op.Code == scheduler.OpDequeue {
			ends++
		}
	}
	if ends > s.room {
		s.room = 0
		return &os.PathError{Op: "write", Path: s.path, Err: syscall.ENOSPC}
	}
	s.room -= ends
	return s.Store.Apply(ops)
}

// TestFrontierWriteFailureStopsTheCrawl protects the frontier's share of
// "a write that fails stops the crawl, and loses nothing": a commit that
// fails stops the crawl with an error naming the frontier file, no URL
// is logged as skipped for it, and the same crawl run again fetches every
// page not archived, once; the pages archived just before the failure,
// whose ends the frontier did not record, may be fetched once more (as
// pages in flight at a kill -9), and no other.
func TestFrontierWriteFailureStopsTheCrawl(t *testing.T) {
	hosts := pagesSite(t, 12)
	cfg := fastConfig(t)
	seeds := []string{hosts[0].URL("/"), hosts[1].URL("/")}
	db := filepath.Join(cfg.Out, FrontierFile)
	opts := Options{Seeds: seeds, wrapStore: func(s scheduler.Store) scheduler.Store {
		return &fillingStore{Store: s, path: db, room: 8}
	}}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := Run(ctx, cfg, opts)
	var we *WriteError
	if !errors.As(err, &we) || we.What != WroteFrontier || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), db) {
		t.Fatalf("first run: %v, want the frontier's ENOSPC naming %s", err, db)
	}
	for _, s := range readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile)) {
		t.Errorf("skip logged by the stopped run: %+v", s)
	}
	first := archivedPages(t, cfg.Out)
	if len(first) == 0 || len(first) >= 26 {
		t.Fatalf("first run archived %d of 26 pages: the frontier did not fail part way", len(first))
	}
	seen := map[*testHost]int{}
	for _, h := range hosts {
		seen[h] = len(h.requests())
	}

	if _, err := Run(ctx, cfg, Options{Seeds: seeds}); err != nil {
		t.Fatalf("second run: %v", err)
	}
	second := pageRequests(hosts, seen)
	final := archivedPages(t, cfg.Out)
	again := 0
	for _, h := range hosts {
		for i := -1; i < 12; i++ {
			u := h.URL("/")
			if i >= 0 {
				u = h.URL(fmt.Sprintf("/p%d", i))
			}
			switch {
			case first[u] == 0 && second[u] != 1:
				t.Errorf("%s: not archived by the first run, requested %d times by the second, want once", u, second[u])
			case first[u] > 0 && second[u] > 1:
				t.Errorf("%s: archived by the first run, requested %d times by the second, want at most once more", u, second[u])
			case first[u] > 0 && second[u] == 1:
				again++
			}
			if final[u] != 1+first[u]*second[u] {
				t.Errorf("%s is in the WARC files %d times (first run %d, second run's requests %d)", u, final[u], first[u], second[u])
			}
		}
	}
	t.Logf("first run archived %d pages; the second fetched %d of them again", len(first), again)
}

// TestLogWriteFailureIsFinal protects the logs from holes and torn lines:
// a line whose write fails leaves nothing in the file, the error names the
// file, and every later line is refused with the same error.
func TestLogWriteFailureIsFinal(t *testing.T) {
	dir := t.TempDir()
	j, err := openJSONL(dir, crawllog.CrawlLogFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.write(map[string]int{"line": 1}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, crawllog.CrawlLogFile)
	// A read-only handle on the same file: the next write fails.
	ro, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	j.f.Close()
	j.f = ro
	err = j.write(map[string]int{"line": 2})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.HasPrefix(err.Error(), "crawler: ") {
		t.Fatalf("failed write: %v, want an error naming %s", err, path)
	}
	if again := j.write(map[string]int{"line": 3}); again == nil || again.Error() != err.Error() {
		t.Errorf("write after the failure: %v, want %v", again, err)
	}
	j.close()
	if data, _ := os.ReadFile(path); string(data) != "{\"line\":1}\n" {
		t.Errorf("log after the failure: %q, want the first line alone", data)
	}
}

// TestCrawlLogWriteFailureKeepsThePageQueued protects "a write that fails
// loses nothing" for the crawl log: a page whose crawl.jsonl line could
// not be written (the log on a full device) stops the crawl with the
// log's ENOSPC and stays queued, so that the same crawl run again, with
// room, ends with a line for every page of the site.
func TestCrawlLogWriteFailureKeepsThePageQueued(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	hosts := pagesSite(t, 6)
	cfg := fastConfig(t)
	// A request in flight when the crawl stopped holds its host this long
	// in the next run.
	cfg.Fetch.Timeout = time.Second
	seeds := []string{hosts[0].URL("/"), hosts[1].URL("/")}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// A first crawl reads both robots.txt (logged) and a missing page;
	// the next finds robots.txt in its cache, so its first line is a page.
	if _, err := Run(ctx, cfg, Options{Seeds: []string{hosts[0].URL("/none"), hosts[1].URL("/none")}}); err != nil {
		t.Fatalf("crawl reading robots.txt: %v", err)
	}
	_, err = Run(ctx, cfg, Options{Seeds: seeds, openedLogs: func(l *logs) {
		l.crawl.f.Close()
		l.crawl.f = full
	}})
	var we *WriteError
	if !errors.As(err, &we) || we.What != WroteLog || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("run with the log on a full device: %v, want the log's ENOSPC", err)
	}
	if _, err := Run(ctx, cfg, Options{Seeds: seeds}); err != nil {
		t.Fatalf("run with room: %v", err)
	}
	logged := map[string]bool{}
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		logged[e.URL] = true
	}
	for _, h := range hosts {
		for _, p := range []string{"/", "/p0", "/p1", "/p2", "/p3", "/p4", "/p5"} {
			if !logged[h.URL(p)] {
				t.Errorf("%s has no crawl log line after the run with room", h.URL(p))
			}
		}
	}
}
