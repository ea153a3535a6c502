package main

import (
	"strings"
	"testing"
)

// TestRobotsCheckRFC9309_2_2_2_OnlyTheRobotsTxtURI: `crawl robots check`
// says what the crawler does with RFC 9309 2.2.2's "The /robots.txt URI is
// implicitly allowed": the URI itself is, a query on it is matched like any
// URL (else, on a Disallow: / site, a crawl would fetch
// /robots.txt?page=1..N as pages).
func TestRobotsCheckRFC9309_2_2_2_OnlyTheRobotsTxtURI(t *testing.T) {
	file := writeRobotsFile(t, "User-agent: *\nDisallow: /\nCrawl-delay: 0.2\n")
	out, err := runRobotsCmd(t, robotsOptions{}, "check", "--file", file, "--agent", "bot",
		"/robots.txt", "/robots.txt?page=7", "http://h.example/robots.txt?start")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"ALLOWED    /robots.txt  (/robots.txt is always allowed)",
		"DISALLOWED /robots.txt?page=7  (line 2: Disallow: /)",
		"DISALLOWED http://h.example/robots.txt?start  (line 2: Disallow: /)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
