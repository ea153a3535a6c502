package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileRobots is the reviewer's esc.txt, plus a user-agent line, DEL, a
// C1 control (CSI), a bidi override, a backslash and an octet that is not
// UTF-8.
const hostileRobots = "User-agent: *\n" +
	"User-agent: evil\x1b[31m\n" +
	"Comment: hello \x1b[2J\x1b[31mRED\x1b[0m\n" +
	"Comment: del\x7f csi\u009b2J rlo\u202egnp.exe back\\slash bad\xff\n" +
	"Disallow: /a\x1b]0;pwned\x07\n" +
	"Sitemap: http://x/\x1b[1mS\n" +
	"Robot-version: 2.0\x1b[5m\n"

// unsafeForTerminal reports the first rune of s a terminal could act on or
// not show: a control other than '\n', DEL, C1, a format character such as
// a bidi override, or an octet that is not UTF-8.
func unsafeForTerminal(s string) (rune, bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return r, true
		case r == '\n':
		case r < 0x20, r == 0x7f, 0x80 <= r && r < 0xa0, r == 0x202e, r == 0x200b:
			return r, true
		}
	}
	return 0, false
}

// TestRobotsTextEscapesControls: explain and check print what a remote
// robots.txt says (rules, comments, sitemaps, agent names, warnings); a
// terminal control in it is printed as a visible Go escape, never raw.
func TestRobotsTextEscapesControls(t *testing.T) {
	file := writeRobotsFile(t, hostileRobots)
	out, err := runRobotsCmd(t, robotsOptions{}, "explain", "--file", file, "--agent", "bot")
	if err != nil {
		t.Fatal(err)
	}
	if r, bad := unsafeForTerminal(out); bad {
		t.Errorf("explain printed %U raw:\n%q", r, out)
	}
	for _, want := range []string{
		`-> group User-agent: *, evil\x1b[31m`,
		`  line 5: Disallow: /a\x1b]0;pwned\a`,
		`comment: hello \x1b[2J\x1b[31mRED\x1b[0m`,
		`comment: del\x7f csi\u009b2J rlo\u202egnp.exe back\\slash bad\xff`,
		`sitemap: http://x/\x1b[1mS`,
		`robot-version: 2.0\x1b[5m (informational`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %s:\n%s", want, out)
		}
	}

	out, err = runRobotsCmd(t, robotsOptions{}, "check", "--file", file, "--agent", "bot", "/a\x1b]0;pwned\x07/x", "/\u202ex")
	if err != nil {
		t.Fatal(err)
	}
	if r, bad := unsafeForTerminal(out); bad {
		t.Errorf("check printed %U raw:\n%q", r, out)
	}
	// The crawl would not request a URL with a raw control octet: it is
	// judged as typed, and the line says so.
	want := "DISALLOWED /a\\x1b]0;pwned\\a/x  (judged as typed: the crawl would not request this URL; line 5: Disallow: /a\\x1b]0;pwned\\a)\n" +
		"ALLOWED    /\\u202ex  (no rule matches)\n" +
		"group User-agent: *, evil\\x1b[31m; pace now: no pace asked for (a crawl keeps its politeness.default_delay, 10s unless configured)\n"
	if out != want {
		t.Errorf("check:\n%s\nwant\n%s", out, want)
	}
}

// TestRobotsJSONEscapesControls: the JSON of explain and check holds no
// raw terminal control either (encoding/json leaves DEL, C1 and format
// characters as they are), and still decodes to the file's text.
func TestRobotsJSONEscapesControls(t *testing.T) {
	file := writeRobotsFile(t, hostileRobots)
	out, err := runRobotsCmd(t, robotsOptions{}, "explain", "--file", file, "--agent", "bot", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if r, bad := unsafeForTerminal(out); bad {
		t.Errorf("explain --json printed %U raw:\n%q", r, out)
	}
	var got struct{ Comments []string }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Comments) != 2 || got.Comments[1] != "del\x7f csi\u009b2J rlo\u202egnp.exe back\\slash bad\uFFFD" {
		t.Errorf("comments decode to %q", got.Comments)
	}
	out, err = runRobotsCmd(t, robotsOptions{}, "check", "--file", file, "--agent", "bot", "--json", "/\u202ex\U000E0001")
	if err != nil {
		t.Fatal(err)
	}
	var line checkLine
	if r, bad := unsafeForTerminal(out); bad || json.Unmarshal([]byte(out), &line) != nil || line.URL != "/\u202ex\U000E0001" {
		t.Errorf("check --json: %q (raw %U), decodes to %q", out, r, line.URL)
	}
}
