package main

import (
	"strings"
	"testing"
)

// TestRobotsSubcommandErrors: "crawl robots" needs a subcommand. An
// unknown one is an "unknown command" usage error (exit 2) with a
// suggestion, not help and exit 0; a bare "crawl robots" prints its usage
// to stderr and exits 2, since nobody asked for help; "--help" still
// prints help and exits 0.
func TestRobotsSubcommandErrors(t *testing.T) {
	code, out, stderr := runCLI(t, "robots", "chek", "--agent", "x", "/a")
	if code != exitUsage || out != "" || strings.TrimSpace(stderr) != `crawl: unknown command "chek" for "crawl robots"; did you mean "check"?` {
		t.Errorf("robots chek: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "robots", "nonsense")
	if code != exitUsage || out != "" || strings.TrimSpace(stderr) != `crawl: unknown command "nonsense" for "crawl robots"` {
		t.Errorf("robots nonsense: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "robots")
	if code != exitUsage || out != "" || !strings.Contains(stderr, "Available Commands:") ||
		!strings.HasSuffix(stderr, "crawl: robots: give a subcommand: check or explain\n") {
		t.Errorf("bare robots: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, _ = runCLI(t, "robots", "--help")
	if code != exitOK || !strings.Contains(out, "Available Commands:") {
		t.Errorf("robots --help: exit %d, stdout %q", code, out)
	}
	if code, _, stderr = runCLI(t, "robots", "--nope"); code != exitUsage || !strings.Contains(stderr, "give a subcommand") {
		t.Errorf("robots --nope: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr = runCLI(t, "robots", "check", "--nope"); code != exitUsage || !strings.Contains(stderr, "unknown flag: --nope") {
		t.Errorf("robots check --nope: exit %d, stderr %q", code, stderr)
	}
}
