package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDryRunEscapesRobotsText: a robots.txt's Comment: lines and rules are
// the server's text; the dry run shows them escaped, so escape sequences
// in them (colour, window title) never reach the operator's terminal.
func TestDryRunEscapesRobotsText(t *testing.T) {
	site := startLogSite(t, "User-agent: *\nComment: \x1b[31mred\x1b[0m \x1b]0;TITLE\x07\nDisallow: /x\x1b[2J\n", 1)
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seeds, []byte(site.url+"/x%1B%5B2J\n"+site.url+"/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "--seed", seeds, "--out", filepath.Join(dir, "out"), "--dry-run", "--progress", "never")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.ContainsAny(stdout+stderr, "\x1b\x07") {
		t.Errorf("raw controls reached the terminal:\nstdout %q\nstderr %q", stdout, stderr)
	}
	if !strings.Contains(stdout, `the site says: \x1b[31mred\x1b[0m \x1b]0;TITLE\a`) {
		t.Errorf("comment not shown escaped:\n%s", stdout)
	}
}
