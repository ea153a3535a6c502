package config

import (
	"strings"
	"testing"
)

// TestFileKeyTypoSuggestsTheKey: a key of the config file that names none
// but is a small typo away from one is told which, as an environment
// variable's typo is; a key far from every key gets no guess.
func TestFileKeyTypoSuggestsTheKey(t *testing.T) {
	for _, tc := range []struct{ body, key, want string }{
		{"politeness:\n  defualt_delay: 3s\n", "politeness.defualt_delay", "unknown key; did you mean politeness.default_delay?"},
		{"fetch:\n  worker: 3\n  timout: 5s\n", "fetch.timout, fetch.worker", "did you mean fetch.timeout for fetch.timout, fetch.workers for fetch.worker?"},
	} {
		_, _, err := loadFile(t, "typo.yaml", tc.body)
		wantOneLine(t, err, tc.key, "typo.yaml", tc.want)
	}
	_, _, err := loadFile(t, "far.yaml", "fetch:\n  zzzzzzzz: 3\n")
	if err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("%v: a key far from every key gets no guess", err)
	}
}

// TestFileKeysDifferingInCaseAreRefused: two keys of the config file that
// differ only in case would set one key, the other dropped without a
// word: both are named, with their lines. One key in upper case alone is
// read as its key.
func TestFileKeysDifferingInCaseAreRefused(t *testing.T) {
	for _, tc := range []struct{ body, key string }{
		{"fetch:\n  Workers: 1\n  workers: 2\n", "fetch.Workers (line 2), fetch.workers (line 3)"},
		{"Fetch:\n  workers: 1\nfetch:\n  timeout: 5s\n", "Fetch (line 1), fetch (line 3)"},
	} {
		_, _, err := loadFile(t, "case.yaml", tc.body)
		wantOneLine(t, err, tc.key, "case.yaml", "differ only in case")
	}
	cfg, _, err := loadFile(t, "upper.yaml", "Fetch:\n  Workers: 3\n")
	if err != nil || cfg.Fetch.Workers != 3 {
		t.Errorf("one upper-case key: workers %d, %v; want 3", cfg.Fetch.Workers, err)
	}
}
