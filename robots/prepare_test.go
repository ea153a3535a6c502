package robots

import (
	"strings"
	"testing"
)

// TestPrepare: Prepare does what a group's first two checks do (compile
// the rules, then make the fast copy): the same verdicts and the same
// Footprint as a group checked twice, and a nil Group is a no-op.
func TestPrepare(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /private/\nAllow: /private/open$\nDisallow: /*.pdf$\nDisallow: /shop/*?\n")
	prepared, checked := Parse(body), Parse(body)
	gp, gc := prepared.Group("crawl"), checked.Group("crawl")
	gp.Prepare()
	gc.Allowed("/")
	gc.Allowed("/")
	if m := gp.m.Load(); m == nil || !m.hot {
		t.Fatal("Prepare left the matcher cold")
	}
	if p, c := prepared.Footprint(), checked.Footprint(); p != c {
		t.Errorf("Footprint %d after Prepare, %d after two checks", p, c)
	}
	for _, u := range []string{"/", "/private/x", "/private/open", "/a.pdf", "/shop/x?y=1", "/shop/x", "/%70rivate/x", strings.Repeat("/a", 100)} {
		if p, c := gp.Allowed(u), gc.Allowed(u); p != c {
			t.Errorf("%s: %+v after Prepare, %+v after two checks", u, p, c)
		}
	}
	var none *Group
	none.Prepare()
}
