package main

import (
	"fmt"
	"os"
	"path/filepath"
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

// TestRobotsAgentNames: a site owner asks about any robot a robots.txt
// can name. A name with digits (MJ12bot, 360Spider, Rule1TestBot: each
// once a usage error, exit 2) gets the groups that name it, digits
// included and case folded, and not the group of a name that shares its
// letters ("Bot2" is not "Bot1", which it once got); a whole User-Agent
// header is reduced to the robot's product token, which the output
// names; a product token gets the group a crawl of that name obeys.
// What is neither a name nor a User-Agent is a one-line usage error.
func TestRobotsAgentNames(t *testing.T) {
	file := writeRobotsFile(t, "User-agent: Bot1\nDisallow: /\n\nUser-agent: MJ12bot\nDisallow: /mj\n\n"+
		"User-agent: 360spider\nDisallow: /360\n\nUser-agent: Rule1TestBot\nDisallow: /rule\n\nUser-agent: *\nAllow: /\n")
	for _, agent := range []string{"my bot", "/1.0", "bot\x1b[2J", "bötbot", "Bot/", "Bot/1.0/2", "a.b", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36"} {
		for _, sub := range []string{"check", "explain"} {
			args := []string{"robots", sub, "--file", file, "--agent", agent}
			if sub == "check" {
				args = append(args, "/x")
			}
			code, out, stderr := runCLI(t, args...)
			if code != exitUsage || out != "" || !strings.Contains(stderr, "--agent") || strings.Count(stderr, "\n") != 1 || strings.ContainsRune(stderr, 0x1b) {
				t.Errorf("%s --agent %q: exit %d, stdout %q, stderr %q", sub, agent, code, out, stderr)
			}
		}
	}
	const mj12 = "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; +http://mj12bot.com/)"
	for _, c := range []struct{ agent, target, want string }{
		{"Other", "/x", "ALLOWED    /x  (line 14: Allow: /)\nthe * group"},
		{"Foo_Bar-baz", "/x", "ALLOWED    /x  (line 14: Allow: /)\nthe * group"},
		{"Other/2.1", "/x", "agent: Other (the product token of \"Other/2.1\")\nALLOWED    /x  (line 14: Allow: /)\nthe * group"},
		// The file's "Bot1" is the token "Bot" (doc.go of package robots).
		{"Bot", "/x", "DISALLOWED /x  (line 2: Disallow: /)\ngroup User-agent: Bot1"},
		{"Bot2", "/x", "ALLOWED    /x  (line 14: Allow: /)\nthe * group"},
		{"bot1", "/x", "DISALLOWED /x  (line 2: Disallow: /)\ngroup User-agent: Bot1"},
		{"MJ12bot", "/mj", "DISALLOWED /mj  (line 5: Disallow: /mj)\ngroup User-agent: MJ12bot"},
		{"mj12BOT/v1.4", "/mj", "agent: mj12BOT (the product token of \"mj12BOT/v1.4\")\nDISALLOWED /mj  (line 5: Disallow: /mj)\ngroup User-agent: MJ12bot"},
		{"MJ99bot", "/mj", "ALLOWED    /mj  (line 14: Allow: /)\nthe * group"},
		{"360Spider", "/360", "DISALLOWED /360  (line 8: Disallow: /360)\ngroup User-agent: 360spider"},
		{"Rule1TestBot", "/rule", "DISALLOWED /rule  (line 11: Disallow: /rule)\ngroup User-agent: Rule1TestBot"},
		{mj12, "/mj", "agent: MJ12bot (the robot's product token in the User-Agent \"" + mj12 + "\")\nDISALLOWED /mj  (line 5: Disallow: /mj)\ngroup User-agent: MJ12bot"},
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120 Mobile Safari/537.36 (compatible; 360Spider/2.1; +http://x.example/)",
			"/360", "agent: 360Spider (the robot's product token in the User-Agent \"Mozilla/5.0 (Linux;"},
		{"Rule1TestBot/3 (+http://rule1.example/bot.html)", "/rule",
			"agent: Rule1TestBot (the robot's product token in the User-Agent \"Rule1TestBot/3 (+http://rule1.example/bot.html)\")\nDISALLOWED /rule  (line 11"},
	} {
		code, out, stderr := runCLI(t, "robots", "check", "--file", file, "--agent", c.agent, c.target)
		if code != exitOK || !strings.HasPrefix(out, c.want) {
			t.Errorf("--agent %q: exit %d, stdout %q, stderr %q", c.agent, code, out, stderr)
		}
	}
	code, out, _ := runCLI(t, "robots", "explain", "--file", file, "--agent", mj12, "--json")
	if code != exitOK || !strings.Contains(out, `"agent":"MJ12bot","group":["MJ12bot"]`) {
		t.Errorf("explain --json: exit %d, stdout %q", code, out)
	}
}

// TestRobotsAgentDefaultsToTheCrawls: without --agent, check and explain
// ask about the robot a crawl would be, agent.token (config default
// "crawl", or the --config file's), and the output says so; --agent was
// once required (exit 2).
func TestRobotsAgentDefaultsToTheCrawls(t *testing.T) {
	file := writeRobotsFile(t, "User-agent: crawl\nDisallow: /c\n\nUser-agent: mybot\nDisallow: /m\n")
	code, out, stderr := runCLI(t, "robots", "check", "--file", file, "/c/x")
	want := "agent: crawl (agent.token of the crawl's config, as no --agent was given)\nDISALLOWED /c/x  (line 2: Disallow: /c)\ngroup User-agent: crawl"
	if code != exitOK || !strings.HasPrefix(out, want) {
		t.Errorf("check: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(cfg, []byte("agent:\n  token: mybot\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = runCLI(t, "robots", "explain", "--file", file, "--config", cfg)
	if code != exitOK || !strings.HasPrefix(out, "agent: mybot (agent.token of the crawl's config, as no --agent was given)\n") ||
		!strings.Contains(out, "agent \"mybot\" -> group User-agent: mybot\n") {
		t.Errorf("explain: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, _ = runCLI(t, "robots", "explain", "--file", file, "--json")
	if code != exitOK || !strings.Contains(out, `"agent":"crawl","group":["crawl"]`) {
		t.Errorf("explain --json: exit %d, stdout %q", code, out)
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
