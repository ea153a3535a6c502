package main

import (
	"fmt"
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

// TestRobotsAgentMustBeProductToken: RFC 9309 2.2.1, "The product token
// MUST contain only a-zA-Z_- characters." robots.Group reads an agent up
// to its first other character, so "--agent Bot2" was checked as "Bot"
// and got the group of "User-agent: Bot1" (the reviewer's tok.txt). Such
// an agent is a usage error (exit 2) that says which characters are
// allowed; a token with a "/version" is fine.
func TestRobotsAgentMustBeProductToken(t *testing.T) {
	file := writeRobotsFile(t, "User-agent: Bot1\nDisallow: /\n\nUser-agent: *\nAllow: /\n")
	for _, agent := range []string{"Bot2", "Bot2/1.0", "MJ12bot", "my bot", "/1.0", "bot\x1b[2J", "bötbot", "Bot/2 x", "Bot/", "Bot/1.0/2"} {
		for _, sub := range []string{"check", "explain"} {
			args := []string{"robots", sub, "--file", file, "--agent", agent}
			if sub == "check" {
				args = append(args, "/x")
			}
			code, out, stderr := runCLI(t, args...)
			want := "RFC 9309 section 2.2.1 allows only the letters a-z and A-Z, '_' and '-'"
			if code != exitUsage || out != "" || !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 || strings.ContainsRune(stderr, 0x1b) {
				t.Errorf("%s --agent %q: exit %d, stdout %q, stderr %q", sub, agent, code, out, stderr)
			}
		}
	}
	for agent, want := range map[string]string{
		"Other":       "ALLOWED    /x  (line 5: Allow: /)\nthe * group",
		"Foo_Bar-baz": "ALLOWED    /x  (line 5: Allow: /)\nthe * group",
		"Other/2.1":   "ALLOWED    /x  (line 5: Allow: /)\nthe * group",
		// The file's "Bot1" is the token "Bot" (doc.go of package robots).
		"Bot": "DISALLOWED /x  (line 2: Disallow: /)\ngroup User-agent: Bot1",
	} {
		code, out, stderr := runCLI(t, "robots", "check", "--file", file, "--agent", agent, "/x")
		if code != exitOK || !strings.HasPrefix(out, want) {
			t.Errorf("--agent %q: exit %d, stdout %q, stderr %q", agent, code, out, stderr)
		}
	}
}

// TestRobotsCheckRejectsBadTargets: a target that is neither an absolute
// http(s) URL nor a path starting with "/" is a usage error naming it,
// before anything is printed; it used to be answered for as "/" or "/ok".
func TestRobotsCheckRejectsBadTargets(t *testing.T) {
	file := writeRobotsFile(t, "User-agent: *\nDisallow: /ok\n")
	for _, bad := range []string{"", "mailto:me@x", "h/ok", "ok", "//h/ok", "ftp://h/ok", "http:///ok", "http://h/\x7f", "file:///ok"} {
		code, out, stderr := runCLI(t, "robots", "check", "--file", file, "--agent", "bot", "/fine", bad)
		want := fmt.Sprintf("crawl: robots check: %q is neither an absolute http(s) URL (http://host/path) nor a path starting with a single '/'\n", bad)
		if code != exitUsage || out != "" || stderr != want {
			t.Errorf("target %q: exit %d, stdout %q, stderr %q", bad, code, out, stderr)
		}
	}
	// Without --file each target names the site whose robots.txt to fetch.
	code, out, stderr := runCLI(t, "robots", "check", "--agent", "bot", "/ok")
	if code != exitUsage || out != "" || !strings.Contains(stderr, `"/ok" is not an absolute http(s) URL`) {
		t.Errorf("path without --file: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, _ = runCLI(t, "robots", "check", "--file", file, "--agent", "bot", "/ok", "HTTP://h/ok", "https://h/x?y#z")
	if code != exitOK || !strings.HasPrefix(out, "DISALLOWED /ok  (line 2: Disallow: /ok)\nDISALLOWED HTTP://h/ok  (line 2: Disallow: /ok)\nALLOWED    https://h/x?y#z") {
		t.Errorf("good targets: exit %d, stdout %q", code, out)
	}
}
