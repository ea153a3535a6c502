package robots

import (
	"strings"
	"testing"
)

func TestRFC9309_2_2_1_UserAgentLine(t *testing.T) {
	body := "User-agent: ExampleBot\nDisallow: /example\n\n" +
		"user-agent: FOO BAR\nAllow: /x/\nDisallow: /\n\n" +
		"User-agent: *\nDisallow: /star\n"
	runVerdicts(t, Parse([]byte(body)), []verdictCase{
		{"product token from the HTTP header name", "ExampleBot/0.1", "/example/1", false, 2},
		{"matching is case-insensitive", "examplebot", "/example/1", false, 2},
		{"robots.txt value reduced to its product token", "foo", "/x/y", true, 5},
		{"second word of the value is not a token", "bar", "/x/y", true, 0},
		{"second word falls back to *", "bar", "/star", false, 9},
		{"specific group does not inherit *", "ExampleBot", "/star", true, 0},
		{"no matching group uses *", "OtherBot", "/star/1", false, 9},
		{"agent prefix is not a match", "Example", "/example", true, 0},
	})
}

func TestRFC9309_2_2_1_MergeGroups(t *testing.T) {
	body := "User-agent: foobot\nDisallow: /a\n\nUser-agent: barbot\nDisallow: /b\n\n" +
		"User-agent: FooBot\nDisallow: /c\n\nUser-agent: *\nDisallow: /s1\n\nUser-agent: *\nDisallow: /s2\n"
	runVerdicts(t, Parse([]byte(body)), []verdictCase{
		{"first group", "foobot", "/a", false, 2},
		{"second group with the same agent merged", "foobot", "/c", false, 8},
		{"other agent's group not merged", "foobot", "/b", true, 0},
		{"star groups merged 1", "quxbot", "/s1", false, 11},
		{"star groups merged 2", "quxbot", "/s2", false, 14},
	})
}

func TestRFC9309_2_2_1_NoGroup(t *testing.T) {
	for _, body := range []string{"", "# only a comment\n", "User-agent: foobot\nDisallow: /\n", "Sitemap: https://x/s.xml\n"} {
		if !allowedFor(body, "barbot", "/anything") {
			t.Errorf("%q: no group applies, want allowed", body)
		}
	}
}

func TestRFC9309_2_2_2_AllowDisallow(t *testing.T) {
	body := "Disallow: /before\nUser-agent: FooBot\nAllow: /p\nDisallow: /p\nDisallow: /page\nAllow: /x/page.\n" +
		"Disallow: /x/page.html\nDisallow: /CaSe\nDisallow: /robots.txt\nDisallow:\n"
	runVerdicts(t, Parse([]byte(body)), []verdictCase{
		{"rule before the first user-agent is ignored", "FooBot", "/before", true, 0},
		{"allow wins a tie", "FooBot", "/p1", true, 3},
		{"longest match wins", "FooBot", "/page1", false, 5},
		{"longest match wins over a shorter allow", "FooBot", "/x/page.html", false, 7},
		{"shorter match loses", "FooBot", "/x/page.htm", true, 6},
		{"matching is case sensitive", "FooBot", "/case", true, 0},
		{"no match means allowed", "FooBot", "/other", true, 0},
		{"/robots.txt is always allowed", "FooBot", "/robots.txt", true, 0},
		{"empty Disallow is no rule", "FooBot", "/", true, 0},
	})
}

// TestRFC9309_2_2_2_PercentEncoding checks every row of the example table
// of RFC 9309 section 2.2.2 (as in its Internet-Draft text; the published
// RFC writes "https" where the draft writes "http"):
//
//	Path                        | Encoded Path                      | Path to match
//	/foo/bar?baz=quz            | /foo/bar?baz=quz                  | /foo/bar?baz=quz
//	/foo/bar?baz=http://foo.bar | /foo/bar?baz=http%3A%2F%2Ffoo.bar | /foo/bar?baz=http%3A%2F%2Ffoo.bar
//	/foo/bar/U+E38384           | /foo/bar/%E3%83%84                | /foo/bar/%E3%83%84
//	/foo/bar/%E3%83%84          | /foo/bar/%E3%83%84                | /foo/bar/%E3%83%84
//	/foo/bar/%62%61%7A          | /foo/bar/%62%61%7A                | /foo/bar/baz
//
// Each row's three spellings must be one path to the matcher: a rule
// written in any column matches a URL written in any column. The test
// tries all nine pairs of every row, and asserts the engine's actual
// verdict for each.
//
// Row 2 is the engine's documented deviation (doc.go, "Deviations"). The
// table, like the sentence before it ("Octets in the URI and robots.txt
// paths outside the range of the US-ASCII coded character set, and those
// in the reserved range defined by [RFC3986], MUST be percent-encoded"),
// encodes the reserved ':' and '/' of the query. The engine follows the
// sentence after it instead: "If a percent-encoded US-ASCII octet is
// encountered in the URI, it MUST be unencoded prior to comparison, unless
// it is a reserved character in the URI", so an escaped reserved character
// and the character itself stay different octets, and reserved characters
// are compared as written. The rule "/foo/bar?baz=http://foo.bar"
// therefore does NOT match the URL "/foo/bar?baz=http%3A%2F%2Ffoo.bar",
// nor the other way round; only equal spellings match. This test fails if
// that behaviour changes.
func TestRFC9309_2_2_2_PercentEncoding(t *testing.T) {
	type row struct {
		path, encoded, toMatch string
		reservedAsWritten      bool // the row-2 deviation: only equal spellings match
	}
	rows := []row{
		{"/foo/bar?baz=quz", "/foo/bar?baz=quz", "/foo/bar?baz=quz", false},
		{"/foo/bar?baz=http://foo.bar", "/foo/bar?baz=http%3A%2F%2Ffoo.bar", "/foo/bar?baz=http%3A%2F%2Ffoo.bar", true},
		{"/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar", true},
		{"/foo/bar/\u30c4", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", false},
		{"/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", false},
		{"/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A", "/foo/bar/baz", false},
	}
	for _, r := range rows {
		cols := []string{r.path, r.encoded, r.toMatch}
		for _, rule := range cols {
			for _, url := range cols {
				want := !r.reservedAsWritten || rule == url
				body := "User-agent: FooBot\nDisallow: /\nAllow: " + rule + "\n"
				if got := allowedFor(body, "FooBot", "http://foo.bar"+url); got != want {
					t.Errorf("rule %q vs URL %q: match = %v, want %v", rule, url, got, want)
				}
			}
		}
	}
}

// TestNormalisation_ReservedEscapes covers the normalisation around the
// table of RFC 9309 2.2.2 that the table does not show: escapes compare
// case-insensitively ("%3a" is "%3A"), and a reserved character never
// equals its escape ("%2F" is not "/"), in rules and URLs alike.
func TestNormalisation_ReservedEscapes(t *testing.T) {
	for _, c := range []struct {
		rule, url string
		match     bool
	}{
		{"/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84", true},
		{"/foo/bar?baz=http%3a%2f%2ffoo.bar", "/foo/bar?baz=http%3A%2F%2Ffoo.bar", true},
		{"/a%2Fb", "/a/b", false},
		{"/a/b", "/a%2Fb", false},
	} {
		body := "User-agent: FooBot\nDisallow: /\nAllow: " + c.rule + "\n"
		if got := allowedFor(body, "FooBot", c.url); got != c.match {
			t.Errorf("rule %q vs URL %q: match = %v, want %v", c.rule, c.url, got, c.match)
		}
	}
}

func TestRFC9309_2_2_3_SpecialCharacters(t *testing.T) {
	body := "User-agent: FooBot # comment in line\n" +
		"Allow: /this/path/exactly$\n" + // 2
		"Allow: /this/*/exactly\n" + // 3
		"Disallow: /this/\n" + // 4
		"Disallow: /path/file-with-a-%2A.html\n" + // 5
		"Disallow: /path/foo-%24\n" + // 6
		"Disallow: /foo/quz#qux\n" + // 7
		"# comment at the end\n"
	runVerdicts(t, Parse([]byte(body)), []verdictCase{
		{"$ matches the exact path", "FooBot", "/this/path/exactly", true, 2},
		{"$ does not match a longer path", "FooBot", "/this/path/exactly/not", true, 3},
		{"* matches one segment", "FooBot", "/this/a/exactly", true, 3},
		{"* matches several segments", "FooBot", "/this/a/b/c/exactly", true, 3},
		{"* matches nothing only if the slashes fit", "FooBot", "/this/exactly", false, 4},
		{"%2A matches a literal *", "FooBot", "https://www.example.com/path/file-with-a-*.html", false, 5},
		{"%2A is not a wildcard", "FooBot", "/path/file-with-a-b.html", true, 0},
		{"%24 matches a literal $", "FooBot", "https://www.example.com/path/foo-$", false, 6},
		{"%24 is not an anchor", "FooBot", "/path/foo-", true, 0},
		{"# starts a comment inside a value", "FooBot", "/foo/quz", false, 7},
	})
}

func TestRFC9309_2_2_4_OtherLines(t *testing.T) {
	r := Parse([]byte("Sitemap: https://example.com/s.xml\nUser-agent: *\nDisallow: /x\nSitemap: https://example.com/t.xml\nDisallow: /y\n"))
	if got := r.Sitemaps(); len(got) != 2 || got[0] != "https://example.com/s.xml" || got[1] != "https://example.com/t.xml" {
		t.Errorf("Sitemaps = %q", got)
	}
	if r.Allowed("bot", "/y").Allowed {
		t.Error("a Sitemap line must not end the group")
	}
}

func TestRFC9309_2_5_Limits(t *testing.T) {
	head := "User-agent: *\nDisallow: /head\n"
	filler := strings.Repeat("# "+strings.Repeat("x", 97)+"\n", MaxSize/100)
	body := head + filler + "Disallow: /tail\n"
	r := Parse([]byte(body))
	if !r.Truncated() {
		t.Fatal("Truncated = false for a body over 500 KiB")
	}
	if r.Allowed("bot", "/head").Allowed {
		t.Error("rule inside the limit not applied")
	}
	if !r.Allowed("bot", "/tail").Allowed {
		t.Error("rule beyond the limit applied")
	}
	if len(r.Body()) > MaxSize || !strings.HasSuffix(r.Body(), "\n") {
		t.Errorf("body not cut at a whole line: %d bytes", len(r.Body()))
	}
	// Exactly at the limit: nothing is cut.
	exact := head + strings.Repeat("#", MaxSize-len(head)-1) + "\n"
	if Parse([]byte(exact)).Truncated() {
		t.Error("a body of exactly 500 KiB was cut")
	}
}

func TestRFC9309_5_1_SimpleExample(t *testing.T) {
	r := Parse(readTestdata(t, "rfc9309-simple.txt"))
	runVerdicts(t, r, []verdictCase{
		{"foobot page", "foobot", "http://example.com/example/page.html", false, 2},
		{"foobot gif", "foobot", "/example/disallowed.gif", false, 3},
		{"foobot other", "foobot", "/example/other.html", true, 0},
		{"barbot page", "barbot", "/example/page.html", true, 7},
		{"bazbot gif", "bazbot", "/example/disallowed.gif", false, 8},
		{"quxbot empty group", "quxbot", "/example/disallowed.gif", true, 0},
		{"unknown bot", "otherbot", "/example/page.html", true, 0},
	})
	if len(r.Warnings()) != 1 || r.Warnings()[0].Line != 12 {
		t.Errorf("want one warning for line 12 (/eof), got %v", r.Warnings())
	}
}

func TestRFC9309_5_2_LongestMatch(t *testing.T) {
	runVerdicts(t, Parse(readTestdata(t, "rfc9309-longest.txt")), []verdictCase{
		{"longer disallow wins", "foobot", "http://example.com/example/page/disallowed.gif", false, 3},
		{"allow applies elsewhere", "foobot", "/example/page/other.gif", true, 2},
	})
}

// TestRFC9309_2_5_LimitEdge pins the octet at which the parsing limit
// cuts. RFC 9309 2.5: "Crawlers MAY impose a parsing limit that MUST be at
// least 500 kibibytes (KiB)." A line all of whose content lies within the
// first MaxSize octets is parsed, whether or not its line end follows
// (a file that ends exactly at the limit, and one with more after it); a
// line that crosses the limit is not.
func TestRFC9309_2_5_LimitEdge(t *testing.T) {
	const rule = "Disallow: /edge"
	head := "User-agent: *\n"
	pad := func(tail string) string { // a body whose content before tail fills the limit
		return head + strings.Repeat("#", MaxSize-len(head)-len(rule)-1) + "\n" + rule + tail
	}
	for _, c := range []struct {
		name      string
		body      string
		applied   bool
		truncated bool
	}{
		{"exactly MaxSize, no final line end", pad(""), true, false},
		{"line end is the first octet past the limit", pad("\n"), true, true},
		{"CR line end past the limit", pad("\r"), true, true},
		{"CRLF past the limit", pad("\r\n"), true, true},
		{"line end past the limit, more lines after", pad("\nDisallow: /more\n"), true, true},
		{"line crosses the limit", pad("x\n"), false, true},
		{"line crosses the limit, no line end", pad("x"), false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if n := strings.Index(c.body, rule) + len(rule); n != MaxSize {
				t.Fatalf("rule ends at %d, want %d", n, MaxSize)
			}
			r := Parse([]byte(c.body))
			if v := r.Allowed("bot", "/edge"); v.Allowed == c.applied {
				t.Errorf("/edge: %v, want the rule applied = %v", v, c.applied)
			}
			if !r.Allowed("bot", "/more").Allowed {
				t.Error("a line after the limit was applied")
			}
			if r.Truncated() != c.truncated || len(r.Body()) > MaxSize {
				t.Errorf("Truncated = %v, body %d octets", r.Truncated(), len(r.Body()))
			}
		})
	}
}

// TestRFC9309_2_5_ParseLimit: RFC 9309 2.5 "Crawlers MAY impose a parsing
// limit that MUST be at least 500 kibibytes (KiB)". A crawler configured
// to read more parses what it read: ParseLimit applies a rule that Parse's
// 500 KiB leave out, cuts at a whole line within its own limit, and names
// that limit in its warning.
func TestRFC9309_2_5_ParseLimit(t *testing.T) {
	head := "User-agent: *\nDisallow: /head\n"
	filler := strings.Repeat("# "+strings.Repeat("x", 97)+"\n", 6000) // 600,000 octets
	body := []byte(head + filler + "Disallow: /late\n")

	if r := Parse(body); r.Allowed("bot", "/late").Allowed != true || !r.Truncated() {
		t.Fatalf("Parse: /late %v, truncated %v; want the rule past 500 KiB left out", r.Allowed("bot", "/late"), r.Truncated())
	}
	r := ParseLimit(body, 800_000)
	if r.Allowed("bot", "/late").Allowed || r.Truncated() {
		t.Errorf("ParseLimit 800,000: /late %v, truncated %v; want the rule applied, nothing cut", r.Allowed("bot", "/late"), r.Truncated())
	}
	small := ParseLimit(body, 10_000)
	if !small.Truncated() || small.Allowed("bot", "/head").Allowed || len(small.Body()) > 10_000 || !strings.HasSuffix(small.Body(), "\n") {
		t.Errorf("ParseLimit 10,000: truncated %v, %d octets; want a cut at a whole line within 10,000, /head applied", small.Truncated(), len(small.Body()))
	}
	if w := small.Warnings(); len(w) == 0 || !strings.Contains(w[0].Message, "longer than 10000 bytes") {
		t.Errorf("warnings %v: want one naming the 10000-byte limit", w)
	}
	if w := Parse(body).Warnings(); len(w) == 0 || !strings.Contains(w[0].Message, "longer than 500 KiB") {
		t.Errorf("warnings %v: want one naming 500 KiB", w)
	}
	huge := []byte(head + strings.Repeat("# "+strings.Repeat("x", 97)+"\n", MaxLimit/100+10) + "Disallow: /late\n")
	if r := ParseLimit(huge, 1<<30); !r.Truncated() || len(r.Body()) > MaxLimit {
		t.Errorf("a limit above MaxLimit: truncated %v, %d octets; want a cut within MaxLimit", r.Truncated(), len(r.Body()))
	}
}
