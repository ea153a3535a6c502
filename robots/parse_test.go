package robots

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParse_LineEndsAndBOM(t *testing.T) {
	for name, body := range map[string]string{
		"LF":           "User-agent: FooBot\nDisallow: /x\nAllow: /x/y\n",
		"CRLF":         "User-agent: FooBot\r\nDisallow: /x\r\nAllow: /x/y\r\n",
		"CR":           "User-agent: FooBot\rDisallow: /x\rAllow: /x/y\r",
		"mixed":        "User-agent: FooBot\r\nDisallow: /x\rAllow: /x/y",
		"BOM":          "\xEF\xBB\xBFUser-agent: FooBot\nDisallow: /x\nAllow: /x/y\n",
		"partial BOM":  "\xEF\xBBUser-agent: FooBot\nDisallow: /x\nAllow: /x/y\n",
		"no final EOL": "User-agent: FooBot\nDisallow: /x\nAllow: /x/y",
	} {
		t.Run(name, func(t *testing.T) {
			r := Parse([]byte(body))
			v := r.Group("FooBot").Allowed("/x/z")
			if v.Allowed || v.Line != 2 {
				t.Errorf("/x/z: %v, want disallowed by line 2", v)
			}
			if v := r.Group("FooBot").Allowed("/x/y"); !v.Allowed || v.Line != 3 {
				t.Errorf("/x/y: %v, want allowed by line 3", v)
			}
			if len(r.Warnings()) != 0 {
				t.Errorf("warnings: %v", r.Warnings())
			}
		})
	}
	r := Parse([]byte("User-agent: FooBot\n\xEF\xBB\xBFDisallow: /x\n"))
	if !r.Allowed("FooBot", "/x").Allowed || len(r.Warnings()) != 1 {
		t.Errorf("a BOM inside the file must spoil its line: %v", r.Warnings())
	}
}

func TestParse_PostelSyntax(t *testing.T) {
	cases := []struct {
		name, body string
		allowed    bool
		warnings   int
	}{
		{"keys in any case", "USER-AGENT: FooBot\ndisALLOW: /x\n", false, 0},
		{"white space around ':'", "User-agent   :   FooBot  \n  Disallow\t:\t/x \t\n", false, 0},
		{"comment after value", "User-agent: FooBot # me\nDisallow: /x # not /x#y\n", false, 0},
		{"missing colon, two words (Google)", "user-agent FooBot\ndisallow /x\n", false, 2},
		{"missing colon, three words", "user-agent FooBot\ndisallow /x /y\n", true, 2},
		{"unknown keys", "foo: FooBot\nbar: /x\n", true, 2},
		{"misspelt disallow", "User-agent: FooBot\nDissallow: /x\n", false, 1},
		{"misspelt user-agent", "Useragent: FooBot\nDisallow: /x\n", false, 1},
		{"user agent with space", "User agent: FooBot\nDisallow: /x\n", false, 1},
		{"value case sensitive", "User-agent: FooBot\nDisallow: /X\n", true, 0},
		{"rule before user-agent", "Disallow: /x\nUser-agent: FooBot\n", true, 1},
		{"version suffix in robots.txt", "User-agent: FooBot/1.2\nDisallow: /x\n", false, 0},
		{"agent is a prefix of the value", "User-agent: FooBotter\nDisallow: /x\n", true, 0},
		{"star followed by text is not a token", "User-agent: *FooBot\nDisallow: /x\n", true, 0},
		{"star with trailing word is global", "User-agent: * FooBot\nDisallow: /x\n", false, 0},
		{"empty disallow still ends the agent list", "User-agent: BarBot\nDisallow:\nUser-agent: FooBot\nDisallow: /x\n", false, 0},
		{"empty disallow is no rule", "User-agent: FooBot\nDisallow:\n", true, 0},
		{"pattern without slash matches nothing", "User-agent: FooBot\nDisallow: x\n", true, 1},
		{"Allow: /$ only allows the root", "User-agent: FooBot\nAllow: /$\nDisallow: /\n", false, 0},
		{"extensions do not end the agent list", "User-agent: BarBot\nCrawl-delay: 1\nUser-agent: FooBot\nDisallow: /x\n", false, 0},
		{"NUL bytes and junk", "\x00\x01\nUser-agent: FooBot\n\x7f\nDisallow: /x\n", false, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Parse([]byte(c.body))
			if got := r.Allowed("FooBot", "/x").Allowed; got != c.allowed {
				t.Errorf("allowed(/x) = %v, want %v", got, c.allowed)
			}
			if got := len(r.Warnings()); got != c.warnings {
				t.Errorf("%d warnings, want %d: %v", got, c.warnings, r.Warnings())
			}
		})
	}
	if !allowedFor("User-agent: FooBot\nAllow: /$\nDisallow: /\n", "FooBot", "http://h/") {
		t.Error("Allow: /$ must allow /")
	}
}

func TestParse_LineNumbers(t *testing.T) {
	body := "# c\r\n\r\nUser-agent: FooBot\r\n# c\rDisallow: /a\n\n\nDisallow: /b # c\r\nAllow: /b/c"
	r := Parse([]byte(body))
	for _, c := range []struct {
		url  string
		line int
		rule string
	}{{"/a", 5, "Disallow: /a"}, {"/b", 8, "Disallow: /b"}, {"/b/c", 9, "Allow: /b/c"}} {
		v := r.Allowed("foobot", c.url)
		if v.Line != c.line || v.Rule != c.rule {
			t.Errorf("%s: line %d %q, want line %d %q", c.url, v.Line, v.Rule, c.line, c.rule)
		}
	}
}

// TestParse_Warnings pins every warning Parse gives for a file with one
// problem per line: its line number, the line as written and the message,
// for the whole file and for the group the lines are in.
func TestParse_Warnings(t *testing.T) {
	body := "Allow: /early\nUser-agent: FooBot\nDisallow /x\nCrawl-delay: soon\nnonsense\nUser-agent: BarBot\nRequest-rate: 10\n"
	r := Parse([]byte(body))
	want := []Warning{
		{1, "Allow: /early", "rule before the first user-agent line; ignored (RFC 9309 2.2.2)"},
		{3, "Disallow /x", `missing ':' after the key; read as "Disallow: /x"`},
		{4, "Crawl-delay: soon", "Crawl-delay is not a number of seconds; read as 10 s"},
		{5, "nonsense", `not a "key: value" line; ignored`},
		{7, "Request-rate: 10", "no period; read as one document per that many seconds"},
	}
	if got := r.Warnings(); !slices.Equal(got, want) {
		t.Errorf("Warnings:\n%q\nwant\n%q", got, want)
	}
	if got := r.Group("FooBot").Warnings(); !slices.Equal(got, want[1:4]) {
		t.Errorf("FooBot group warnings:\n%q\nwant\n%q", got, want[1:4])
	}
	if got := r.Group("BarBot").Warnings(); !slices.Equal(got, want[4:]) {
		t.Errorf("BarBot group warnings:\n%q\nwant\n%q", got, want[4:])
	}
	if got, want := want[1].String(), `line 3: missing ':' after the key; read as "Disallow: /x": "Disallow /x"`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestParse_ManyGroups(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		b.WriteString("User-agent: bot")
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteByte(byte('a' + i%26))
		b.WriteString("\nDisallow: /p\n\n")
	}
	b.WriteString("User-agent: Target\nDisallow: /t\n")
	r := Parse([]byte(b.String()))
	if v := r.Allowed("target", "/t"); v.Allowed || v.Line != 15002 {
		t.Errorf("target: %v", v)
	}
	if got := len(r.Groups()); got != 5001 {
		t.Errorf("%d groups", got)
	}
}

func TestParse_GroupNeverNil(t *testing.T) {
	var nilRobots *Robots
	for _, r := range []*Robots{Parse(nil), nilRobots, AllowAll()} {
		if v := r.Allowed("bot", "/x"); !v.Allowed || v.Reason != ReasonNoRule {
			t.Errorf("%v", v)
		}
	}
	if Parse(nil).Group("bot") == nil {
		t.Error("Group returned nil")
	}
	// Robots.Group's doc: nil only for a nil *Robots, and that nil
	// *Group allows everything.
	if g := nilRobots.Group("bot"); g != nil || !g.Allowed("/x").Allowed || g.Rules() != nil {
		t.Errorf("nil *Robots: Group = %v", g)
	}
}

// TestTokenLowerAgreesWithProductToken: the index lower-cases product
// tokens with a table; it must keep exactly the octets ProductToken keeps
// (RFC 9309 2.2.1: [a-zA-Z_-]) and fold only their case.
func TestTokenLowerAgreesWithProductToken(t *testing.T) {
	for c := 0; c < 256; c++ {
		s := string([]byte{byte(c)})
		want := byte(0)
		if ProductToken(s) != "" {
			want = strings.ToLower(s)[0]
		}
		if got := tokenLower[c]; got != want {
			t.Errorf("tokenLower[%#x] = %#x, want %#x", c, got, want)
		}
	}
}

// TestParse_KeepsBody pins Parse's contract: it keeps the caller's buffer
// (no copy) and reads a group's lines from it on first use, so a copy is
// the caller's to make when the buffer is reused.
func TestParse_KeepsBody(t *testing.T) {
	body := []byte("User-agent: a\nDisallow: /x\n")
	r := Parse(body)
	if got := r.Body(); stringAddr(&got) != reflect.ValueOf(body).Pointer() || len(got) != len(body) {
		t.Fatalf("Body() does not share the caller's buffer")
	}
	if v := r.Group("a").Allowed("/x"); v.Allowed || v.Line != 2 {
		t.Errorf("/x: %v, want disallowed by line 2", v)
	}
}
