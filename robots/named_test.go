package robots

import (
	"slices"
	"testing"
)

// namedBody names robots with digits in their names, one of them in two
// groups, beside a letters-only token that RFC 9309 2.2.1 reads the same
// as one of them.
const namedBody = `User-agent: MJ12bot
Disallow: /mj12/

User-agent: 360Spider
Disallow: /360/

User-agent: mj
Disallow: /mj/

User-agent: Rule1TestBot
User-agent: other
Disallow: /rule1/
Crawl-delay: 5

User-agent: rule1testbot
Disallow: /rule1b/

User-agent: *
Disallow: /star/
`

// TestGroupNamedDigits: a robot whose name holds digits gets the groups
// whose user-agent lines name it, digits included and case folded, merged
// (RFC 9309 2.2.1 merging), else the "*" group; a product token gets what
// Group gives it.
func TestGroupNamedDigits(t *testing.T) {
	r := Parse([]byte(namedBody))
	for _, c := range []struct {
		name       string
		agents     []string
		disallowed []string
		allowed    []string
	}{
		{"MJ12bot", []string{"MJ12bot"}, []string{"/mj12/x"}, []string{"/mj/x", "/star/x"}},
		{"mj12BOT/v1.4.8", []string{"MJ12bot"}, []string{"/mj12/x"}, []string{"/mj/x"}},
		{"360Spider", []string{"360Spider"}, []string{"/360/x"}, []string{"/star/x"}},
		{"Rule1TestBot", []string{"Rule1TestBot", "other", "rule1testbot"}, []string{"/rule1/x", "/rule1b/x"}, []string{"/star/x"}},
		{"MJ99bot", []string{"*"}, []string{"/star/x"}, []string{"/mj12/x", "/mj/x"}},
		{"9bot", []string{"*"}, []string{"/star/x"}, nil},
		// RFC 9309 2.2.1 reading for a product token: "MJ12bot" is read "MJ"
		{"mj", []string{"MJ12bot", "mj"}, []string{"/mj12/x", "/mj/x"}, []string{"/star/x"}},
		{"other/2.0", []string{"Rule1TestBot", "other"}, []string{"/rule1/x"}, []string{"/rule1b/x"}},
	} {
		g := r.GroupNamed(c.name)
		if got := g.Agents(); !slices.Equal(got, c.agents) {
			t.Errorf("GroupNamed(%q).Agents() = %q, want %q", c.name, got, c.agents)
		}
		for _, p := range c.disallowed {
			if v := g.Allowed(p); v.Allowed {
				t.Errorf("GroupNamed(%q) allows %s", c.name, p)
			}
		}
		for _, p := range c.allowed {
			if v := g.Allowed(p); !v.Allowed {
				t.Errorf("GroupNamed(%q) disallows %s (%v)", c.name, p, v)
			}
		}
	}
	if d, ok := r.GroupNamed("rule1testbot").CrawlDelay(); !ok || d.Seconds() != 5 {
		t.Errorf("merged group's Crawl-delay %v %v, want 5s", d, ok)
	}
	if g := r.GroupNamed("MJ"); g != r.Group("MJ") {
		t.Error("GroupNamed of a product token is not Group's answer")
	}
	var nilRobots *Robots
	if nilRobots.GroupNamed("MJ12bot") != nil {
		t.Error("nil Robots gave a group")
	}
	if v := DisallowAll().GroupNamed("MJ12bot").Allowed("/x"); v.Allowed {
		t.Error("the unreachable policy allows MJ12bot")
	}
}

func TestNameToken(t *testing.T) {
	for in, want := range map[string]string{
		"MJ12bot/v1.4.8": "MJ12bot", "360Spider": "360Spider", "Foo_Bar-2 x": "Foo_Bar-2", "*": "", "": "", "a.b": "a",
	} {
		if got := NameToken(in); got != want {
			t.Errorf("NameToken(%q) = %q, want %q", in, got, want)
		}
	}
}
