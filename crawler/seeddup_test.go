package crawler

import (
	"path/filepath"
	"testing"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

// TestDuplicateSeedIsLogged: README's skips.jsonl promise, "a duplicate
// seed ... is logged as duplicate", for a seed listed twice in another
// form; a resume does not log the seeds an earlier run already took.
func TestDuplicateSeedIsLogged(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nAllow: /\n")
	h.html("/")
	h.html("/a")
	cfg := testConfig(t)
	seeds := []string{h.URL("/"), h.URL("/a"), h.URL("/./#top")}
	dups := func() []crawllog.SkipEntry {
		var out []crawllog.SkipEntry
		for _, s := range readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile)) {
			if s.Reason == string(scheduler.ReasonDuplicate) {
				out = append(out, s)
			}
		}
		return out
	}
	crawlFor(t, cfg, seeds...)
	got := dups()
	if len(got) != 1 || got[0].URL != h.URL("/") || got[0].Host == "" {
		t.Fatalf("duplicate skips after the first run = %+v, want one for %s", got, h.URL("/"))
	}
	crawlFor(t, cfg, seeds...)
	if got := dups(); len(got) != 2 {
		t.Errorf("after a resume: %d duplicate skips, want 2 (the seed listed twice, once per run, and not the seeds the first run took)", len(got))
	}
}
