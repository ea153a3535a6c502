package config

import (
	"errors"
	"strings"
	"testing"
)

// TestFetchRetries: fetch.retries defaults to 2, is set from the file or
// CRAWL_FETCH_RETRIES, and is refused outside 0 to 10 with an error that
// names the key.
func TestFetchRetries(t *testing.T) {
	if d := Default().Fetch.Retries; d != 2 {
		t.Errorf("default fetch.retries %d, want 2", d)
	}
	cfg, err := Loader{Environ: []string{"CRAWL_FETCH_RETRIES=0"}}.Load()
	if err != nil || cfg.Fetch.Retries != 0 {
		t.Errorf("CRAWL_FETCH_RETRIES=0: %d %v, want 0", cfg.Fetch.Retries, err)
	}
	cfg, _, err = loadFile(t, "c.yaml", "fetch:\n  retries: 10\n")
	if err != nil || cfg.Fetch.Retries != 10 {
		t.Errorf("fetch.retries: 10 in the file: %d %v, want 10", cfg.Fetch.Retries, err)
	}
	for _, v := range []string{"-1", "11"} {
		_, err := Loader{Environ: []string{"CRAWL_FETCH_RETRIES=" + v}}.Load()
		var ce *Error
		if !errors.As(err, &ce) || ce.Key != "fetch.retries" || !strings.Contains(err.Error(), "0 to 10") {
			t.Errorf("CRAWL_FETCH_RETRIES=%s: %v, want an error naming fetch.retries and its range", v, err)
		}
	}
}
