package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/crawlproject/crawl/crawler"
)

func TestConfigErrorsExitUsageNamingKeyAndFile(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, yaml, key, want string
	}{
		{"bare number duration", "politeness:\n  default_delay: 10\n", "politeness.default_delay", `"10s"`},
		{"bare float duration", "fetch:\n  timeout: 2.5\n", "fetch.timeout", "bare number"},
		{"max_wait zero", "politeness:\n  max_wait: 0s\n", "politeness.max_wait", "positive"},
		{"backoff_max below base", "politeness:\n  backoff_base: 1m\n  backoff_max: 10s\n", "politeness.backoff_max", "backoff_base"},
		{"frontier url", "frontier:\n  url: memcached://127.0.0.1:6379/0\n", "frontier.url", "leave it empty for the embedded frontier"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+".yaml")
			os.WriteFile(file, []byte(tc.yaml), 0o644)
			for _, args := range [][]string{
				{"--config", file, "--print-config"},
				{"--config", file, "--seed", filepath.Join(dir, "unread.txt")},
			} {
				code, stdout, stderr := runCLI(t, args...)
				if code != exitUsage {
					t.Errorf("%v: exit %d, want %d (stderr %q)", args, code, exitUsage, stderr)
				}
				if stdout != "" {
					t.Errorf("%v: printed a config despite the error: %q", args, stdout)
				}
				for _, w := range []string{tc.key, file, tc.want} {
					if !strings.Contains(stderr, w) {
						t.Errorf("%v: stderr %q does not mention %q", args, stderr, w)
					}
				}
				// One prefix after the command's: it read "crawl: crawler: config".
				if want := "crawl: config: " + file + ": " + tc.key + ": "; !strings.HasPrefix(stderr, want) {
					t.Errorf("%v: stderr %q, want it to start %q", args, stderr, want)
				}
			}
		})
	}
}

func TestEnvListWithCommasIsOnePattern(t *testing.T) {
	t.Setenv("CRAWL_SCOPE_EXCLUDE", `/cal/[0-9]{1,4}$`)
	code, out, stderr := runCLI(t, "--print-config")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "exclude:\n    - /cal/[0-9]{1,4}$\n") {
		t.Errorf("want one exclude pattern, got:\n%s", out)
	}
}

func TestOutDirInUseByAnotherCrawl(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	// Hold the frontier's lock as a running crawl does.
	db, err := bolt.Open(filepath.Join(out, crawler.FrontierFile), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	seeds := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seeds, []byte("http://127.0.0.1:1/\n"), 0o644)
	want := "crawl: output dir " + out + " is in use by another crawl"
	if _, err := os.Stat("/proc/self/fd"); err == nil {
		// Where /proc tells, the line names the holder: this process.
		want += fmt.Sprintf(" (pid %d)", os.Getpid())
	}
	// A crawl, and a dry run (which keeps the pace in the same frontier).
	for _, extra := range [][]string{nil, {"--dry-run"}} {
		args := append([]string{"--seed", seeds, "--out", out, "--progress", "never"}, extra...)
		code, stdout, stderr := runCLI(t, args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d (stderr %q)", extra, code, exitUsage, stderr)
		}
		if !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: want one line starting %q, got %q", extra, want, stderr)
		}
		if strings.Contains(stderr, "timeout") || stdout != "" {
			t.Errorf("%v: want no bare timeout and no summary: stdout %q stderr %q", extra, stdout, stderr)
		}
	}
}
