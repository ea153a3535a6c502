package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/crawlproject/crawl/config"
)

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestExitCodesAndOneLineErrors(t *testing.T) {
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seeds, []byte("# nothing usable\nnot a url\nftp://x/\n"), 0o644)
	badcfg := filepath.Join(dir, "bad.yaml")
	os.WriteFile(badcfg, []byte("politeness:\n  default_dleay: 1s\n"), 0o644)
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o644)
	good := filepath.Join(dir, "good.txt")
	os.WriteFile(good, []byte("http://127.0.0.1:1/\n"), 0o644)
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown flag", []string{"--nope"}, exitUsage, "unknown flag"},
		{"no seeds", []string{}, exitUsage, "no seeds"},
		{"missing seed file", []string{"--seed", filepath.Join(dir, "missing.txt")}, exitUsage, "seed file"},
		{"no usable seed", []string{"--seed", seeds, "--out", filepath.Join(dir, "o1")}, exitUsage, "no usable URL"},
		{"unknown config key", []string{"--seed", good, "--config", badcfg}, exitUsage, "politeness.default_dleay"},
		{"bad flag value", []string{"--seed", good, "--workers", "0"}, exitUsage, "fetch.workers"},
		{"unwritable out", []string{"--seed", good, "--out", filepath.Join(blocker, "sub")}, exitUsage, "output dir"},
		{"bad agent", []string{"--seed", good, "--agent", "bad agent!"}, exitUsage, "agent.token"},
		// A stray, missing or unknown argument is the caller's to fix like
		// a bad flag: exit 2 under every command, as --help says.
		{"stray argument", []string{"--seed", good, "extra"}, exitUsage, `unknown command "extra"`},
		{"unknown command", []string{"foo"}, exitUsage, `unknown command "foo"`},
		{"report without dir", []string{"report"}, exitUsage, "report DIR: give the --out directory of a crawl"},
		{"report of two dirs without summaries", []string{"report", "a", "b"}, exitUsage, "report: a has no summary.json"},
		{"report of a dir without summary", []string{"report", dir}, exitUsage, "summary.json"},
		{"demo with an argument", []string{"demo", "extra"}, exitUsage, `unknown command "extra"`},
		{"demo out not creatable", []string{"demo", "--out", filepath.Join(blocker, "sub")}, exitUsage, "demo output dir"},
		{"robots unknown subcommand", []string{"robots", "foo"}, exitUsage, `unknown command "foo"`},
		{"help on no command", []string{"help", "extra"}, exitUsage, `help: no command "extra"`},
		{"help on a subcommand with a stray word", []string{"help", "robots", "extra"}, exitUsage, `help: no command "robots extra"`},
		{"completion with a stray argument", []string{"completion", "bash", "extra"}, exitUsage, `unknown command "extra"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q does not mention %q", stderr, tc.want)
			}
			if strings.Contains(stderr, "goroutine ") || strings.Count(strings.TrimSpace(stderr), "\n") > 3 {
				t.Errorf("want a short error, got %q", stderr)
			}
		})
	}
}

// TestManyBadSeedLinesShownInPart: a file of thousands of bad lines (a
// binary given as --seed) prints the first few with their numbers and a
// count of the rest, then the usual one-line refusal.
func TestManyBadSeedLinesShownInPart(t *testing.T) {
	seeds := filepath.Join(t.TempDir(), "seeds.txt")
	os.WriteFile(seeds, []byte(strings.Repeat("not a url\n", 5000)), 0o644)
	code, _, stderr := runCLI(t, "--seed", seeds, "--out", filepath.Join(t.TempDir(), "o"))
	if code != exitUsage || !strings.Contains(stderr, "no usable URL") {
		t.Errorf("exit %d, stderr ends %q; want exit 2, no usable URL", code, stderr[max(0, len(stderr)-200):])
	}
	if n := strings.Count(stderr, "\n"); n != maxSeedErrorsShown+2 || !strings.Contains(stderr, "4980 more bad lines not shown") {
		t.Errorf("%d lines of stderr: want %d shown, a count of the other 4980, and the error", n, maxSeedErrorsShown)
	}
}

func TestBadSeedLinesReportedWithLineNumbers(t *testing.T) {
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seeds, []byte("# comment\n\nhttp://127.0.0.1:1/\nmailto:x@y\n"), 0o644)
	// The unreachable seed host makes the crawl end quickly (robots.txt
	// refused, then the host given up for the run, its URL kept: exit 3).
	t.Setenv("CRAWL_ROBOTS_RETRY_BASE", "10ms")
	t.Setenv("CRAWL_POLITENESS_MAX_FAILURES", "1")
	t.Setenv("CRAWL_POLITENESS_BACKOFF_BASE", "10ms")
	t.Setenv("CRAWL_POLITENESS_DEFAULT_DELAY", "10ms")
	code, _, stderr := runCLI(t, "--seed", seeds, "--out", filepath.Join(dir, "out"), "--progress", "never", "--log-format", "json")
	if code != exitGivenUp {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "seed line 4") {
		t.Errorf("bad line 4 not reported: %s", stderr)
	}
}

func TestPrintConfigShowsEffectiveValues(t *testing.T) {
	t.Setenv("CRAWL_POLITENESS_DEFAULT_DELAY", "200ms")
	code, out, stderr := runCLI(t, "--print-config", "--agent", "mybot")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var m struct {
		Politeness map[string]any `yaml:"politeness"`
		Agent      map[string]any `yaml:"agent"`
	}
	if err := yaml.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("--print-config is not YAML: %v\n%s", err, out)
	}
	if m.Politeness["default_delay"] != "200ms" || m.Agent["token"] != "mybot" {
		t.Errorf("effective config wrong: %v %v", m.Politeness, m.Agent)
	}
}

func TestHelpDocumentsExitCodes(t *testing.T) {
	code, out, _ := runCLI(t, "--help")
	if code != exitOK || !strings.Contains(out, "130") || !strings.Contains(out, "Exit codes") {
		t.Errorf("--help must document exit codes, got %d:\n%s", code, out)
	}
}

// TestVersionFlag: --version prints "crawl VERSION", the version the
// User-Agent and warcinfo carry, and exits 0.
func TestVersionFlag(t *testing.T) {
	code, out, stderr := runCLI(t, "--version")
	if code != exitOK || out != "crawl "+config.Version+"\n" || stderr != "" {
		t.Errorf("--version: exit %d, stdout %q, stderr %q; want crawl %s", code, out, stderr, config.Version)
	}
}
