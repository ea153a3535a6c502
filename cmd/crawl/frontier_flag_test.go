package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFrontierFlagPrintsRedacted: --frontier and CRAWL_FRONTIER_URL set
// frontier.url, and --print-config shows it with its password replaced.
func TestFrontierFlagPrintsRedacted(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  string
		args []string
	}{
		{"flag", "", []string{"--frontier", "redis://crawl:s3cret@127.0.0.1:6379/0", "--print-config"}},
		{"environment", "redis://crawl:s3cret@127.0.0.1:6379/0", []string{"--print-config"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("CRAWL_FRONTIER_URL", tc.env)
			}
			code, stdout, stderr := runCLI(t, tc.args...)
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, "url: redis://crawl:xxxxx@127.0.0.1:6379/0") {
				t.Errorf("--print-config does not show the redacted URL:\n%s", stdout)
			}
			if strings.Contains(stdout+stderr, "s3cret") {
				t.Errorf("the password is printed:\n%s%s", stdout, stderr)
			}
		})
	}
}

// TestFrontierFlagRefusals: a URL of another scheme is a usage error
// naming the flag; a crawl whose Redis server cannot be reached stops at
// once with one line naming the URL redacted, and a dry run, which paces
// through the embedded frontier, refuses a Redis URL.
func TestFrontierFlagRefusals(t *testing.T) {
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seeds, []byte("http://127.0.0.1:1/\n"), 0o644)
	code, _, stderr := runCLI(t, "--frontier", "http://crawl:s3cret@127.0.0.1:6379/0", "--seed", seeds, "--out", filepath.Join(dir, "a"))
	if code != exitUsage || !strings.HasPrefix(stderr, "crawl: config: flag --frontier: frontier.url: ") || strings.Contains(stderr, "s3cret") {
		t.Errorf("another scheme: exit %d, stderr %q", code, stderr)
	}
	for _, tc := range []struct {
		extra []string
		want  string
	}{
		{nil, "open frontier: redisfrontier: open redis://crawl:xxxxx@127.0.0.1:1/0: "},
		{[]string{"--dry-run"}, "frontier.url redis://crawl:xxxxx@127.0.0.1:1/0: a dry run paces through the embedded frontier"},
	} {
		extra := tc.extra
		args := append([]string{"--frontier", "redis://crawl:s3cret@127.0.0.1:1/0", "--seed", seeds, "--out", filepath.Join(dir, "b")}, extra...)
		code, stdout, stderr := runCLI(t, args...)
		if code == exitOK || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q", extra, code, stderr)
		}
		if strings.Contains(stdout+stderr, "s3cret") {
			t.Errorf("%v: the password is printed: %s%s", extra, stdout, stderr)
		}
	}
}
