package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRobotsAgentAsTheCrawlTakesIt: RFC 9309 2.2.1, "The product token
// MUST contain only a-zA-Z_- characters"; the crawl refuses "--agent
// MyBot/1.0" (exit 2), so check and explain, which say what the crawl
// does, refuse it with the crawl's very line and exit code rather than
// answering for a group the crawl would never use (review 28 finding 3).
func TestRobotsAgentAsTheCrawlTakesIt(t *testing.T) {
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seeds, []byte("http://127.0.0.1:1/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := writeRobotsFile(t, "User-agent: *\nDisallow: /\n\nUser-agent: MYBOT/9.9\nDisallow: /m\n")
	for _, agent := range []string{"MyBot/1.0", "MyBot2"} {
		crawlCode, crawlOut, crawlErr := runCLI(t, "--seed", seeds, "--out", filepath.Join(dir, "out"), "--agent", agent, "--progress", "never")
		if crawlCode != exitUsage || crawlOut != "" || crawlErr == "" {
			t.Fatalf("crawl --agent %q: exit %d, stdout %q, stderr %q", agent, crawlCode, crawlOut, crawlErr)
		}
		for _, args := range [][]string{
			{"robots", "check", "--file", file, "--agent", agent, "/m1"},
			{"robots", "explain", "--file", file, "--agent", agent},
		} {
			code, out, stderr := runCLI(t, args...)
			if code != crawlCode || out != "" || stderr != crawlErr {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; the crawl: exit %d, %q", args[:2], code, out, stderr, crawlCode, crawlErr)
			}
		}
	}
	// The token alone is taken, and gets the group of "MYBOT/9.9" (the
	// file's own version is read off, RFC 9309 2.2.1).
	code, out, stderr := runCLI(t, "robots", "check", "--file", file, "--agent", "MyBot", "/m1")
	if want := "DISALLOWED /m1  (line 5: Disallow: /m)\n"; code != exitOK || len(out) < len(want) || out[:len(want)] != want {
		t.Errorf("--agent MyBot: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}
