package crawler

import (
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/crawlproject/crawl/crawllog"
)

// TestRequestAfterRetryAfterLogsIt: the request that a Retry-After held
// back is logged with that wait as its pace and the Retry-After as its
// rule (crawl.jsonl "pace_seconds: interval in force for this host at
// request time"), not with the back-off or pace it would have had.
func TestRequestAfterRetryAfterLogsIt(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\n")
	var busy atomic.Int32
	h.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
		if busy.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "slow down", http.StatusTooManyRequests)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html></html>"))
	}
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/"))
	var pages []crawllog.CrawlEntry
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if e.Kind == "page" {
			pages = append(pages, e)
		}
	}
	if len(pages) != 2 || pages[0].Status != 429 || pages[1].Status != 200 {
		t.Fatalf("pages %+v: want a 429 and then a 200", pages)
	}
	if got := pages[1]; !strings.HasPrefix(got.PaceRule, "retry-after") || got.PaceSeconds < 0.9 {
		t.Errorf("the retried request logged pace %.3fs by %q; want about 1s by the Retry-After", got.PaceSeconds, got.PaceRule)
	}
}
