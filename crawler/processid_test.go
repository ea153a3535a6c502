package crawler

import (
	"strings"
	"testing"
)

// TestWarcinfoNamesProcessAndRedactedFrontier: with frontier.url set,
// the WARC file is named for the process and its warcinfo record names
// the process and the frontier with its password replaced.
func TestWarcinfoNamesProcessAndRedactedFrontier(t *testing.T) {
	cfg := testConfig(t)
	cfg.Frontier.URL = "redis://crawl:s3cret@127.0.0.1:6379/0"
	w, err := openArchive(cfg, "w1-42-a1b2c3")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rec := onlyWarcinfo(t, w.Dir(), "crawl-w1-42-a1b2c3-*.warc.gz")
	block := string(rec.Block)
	for _, want := range []string{"frontier: redis://crawl:xxxxx@127.0.0.1:6379/0\r\n", "crawl-process: w1-42-a1b2c3\r\n"} {
		if !strings.Contains(block, want) {
			t.Errorf("warcinfo lacks %q:\n%s", want, block)
		}
	}
	if strings.Contains(block, "s3cret") {
		t.Errorf("warcinfo shows the password:\n%s", block)
	}
}
