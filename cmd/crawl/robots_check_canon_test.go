package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRobotsCheckJudgesTheCrawlersURL: check judges each URL in the form
// the crawl requests it (scheduler.Canonicalize: RFC 3986 5.2.4 dot
// segments, "%2e%2e" among them, and an empty query dropped), so that its
// verdict is the crawl's; RFC 9309 2.2.2 matches "the path" of the URI the
// crawler accesses. It says so when that form differs from what was typed.
func TestRobotsCheckJudgesTheCrawlersURL(t *testing.T) {
	file := writeRobotsFile(t, "User-agent: *\nDisallow: /a$\nAllow: /b?\nDisallow: /b\nDisallow: /private\nDisallow: /dir/../x\n")
	out, err := runRobotsCmd(t, robotsOptions{}, "check", "--file", file, "--agent", "bot",
		"/a?", "/b?", "/c/../a", "/x/%2e%2e/private/a", "/x/.%2E/private/c", "/%2e%2e/private/d",
		"/dir/../x", "http://h.example/./private/2", "/caf\u00e9", "/p#frag")
	if err != nil {
		t.Fatal(err)
	}
	want := "" +
		"DISALLOWED /a?  (checked as /a, the URL the crawler requests; line 2: Disallow: /a$)\n" +
		"DISALLOWED /b?  (checked as /b, the URL the crawler requests; line 4: Disallow: /b)\n" +
		"DISALLOWED /c/../a  (checked as /a, the URL the crawler requests; line 2: Disallow: /a$)\n" +
		"DISALLOWED /x/%2e%2e/private/a  (checked as /private/a, the URL the crawler requests; line 5: Disallow: /private)\n" +
		"DISALLOWED /x/.%2E/private/c  (checked as /private/c, the URL the crawler requests; line 5: Disallow: /private)\n" +
		"DISALLOWED /%2e%2e/private/d  (checked as /private/d, the URL the crawler requests; line 5: Disallow: /private)\n" +
		"ALLOWED    /dir/../x  (checked as /x, the URL the crawler requests; no rule matches)\n" +
		"DISALLOWED http://h.example/./private/2  (checked as http://h.example/private/2, the URL the crawler requests; line 5: Disallow: /private)\n" +
		"ALLOWED    /caf\u00e9  (no rule matches)\n" +
		"ALLOWED    /p#frag  (no rule matches)\n"
	if !strings.HasPrefix(out, want) {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}

	out, err = runRobotsCmd(t, robotsOptions{}, "check", "--file", file, "--agent", "bot", "--json", "/c/../a", "/ok")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(out))
	for _, w := range []struct {
		url, as string
		allowed bool
	}{{"/c/../a", "/a", false}, {"/ok", "/ok", true}} {
		var got struct {
			URL       string  `json:"url"`
			CheckedAs *string `json:"checked_as"`
			Allowed   bool    `json:"allowed"`
		}
		if err := dec.Decode(&got); err != nil {
			t.Fatal(err)
		}
		if got.URL != w.url || got.CheckedAs == nil || *got.CheckedAs != w.as || got.Allowed != w.allowed {
			t.Errorf("%s: %+v, want checked_as %s allowed %v", w.url, got, w.as, w.allowed)
		}
	}
}
