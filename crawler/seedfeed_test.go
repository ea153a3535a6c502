package crawler

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

// A seed list read as the crawl runs: the crawl fetches the first seeds
// while the rest of the list is still to come, reports bad lines with
// their numbers as it meets them, and a link to the host of a seed not
// read yet is held, then followed once that seed makes its host a seed
// host, not refused as out of scope.
func TestSeedStreamCrawlsWhileReading(t *testing.T) {
	a, b := newTestHost(t), newTestHost(t)
	for _, h := range []*testHost{a, b} {
		h.robotsText("User-agent: *\nAllow: /\n")
	}
	a.html("/", b.URL("/x"))
	b.html("/")
	b.html("/x")
	cfg := testConfig(t)
	pr, pw := io.Pipe()
	var mu sync.Mutex
	var bad []int
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		_, err := Run(ctx, cfg, Options{SeedStream: NewSeedReader(pr, cfg.Scope.MaxURLLength), BadSeed: func(e *SeedError) {
			mu.Lock()
			bad = append(bad, e.Line)
			mu.Unlock()
		}})
		done <- err
	}()
	io.WriteString(pw, a.URL("/")+"\nnot a url\n")
	deadline := time.Now().Add(30 * time.Second)
	for !slices.Contains(a.paths(), "/") {
		if time.Now().After(deadline) {
			t.Fatal("the first seed was not fetched while the seed list was still being read")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // the link to b/x is found meanwhile
	io.WriteString(pw, "# b comes late\n"+b.URL("/")+"\n")
	pw.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := b.paths(); !slices.Contains(got, "/") || !slices.Contains(got, "/x") {
		t.Errorf("b got %v, want its seed and the page a links to", got)
	}
	for _, s := range readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile)) {
		if s.Reason == "out-of-scope" {
			t.Errorf("skip logged: %+v", s)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(bad, []int{2}) {
		t.Errorf("bad lines reported %v, want [2]", bad)
	}
}
