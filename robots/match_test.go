package robots

import (
	"fmt"
	"math/bits"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestPathOf(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "/"},
		{"http://www.example.com", "/"},
		{"http://www.example.com/", "/"},
		{"http://www.example.com/a", "/a"},
		{"http://www.example.com/a/", "/a/"},
		{"http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"},
		{"http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"example.com", "/"},
		{"example.com/", "/"},
		{"example.com/a", "/a"},
		{"example.com/a/b?c=d", "/a/b?c=d"},
		{"a", "/"},
		{"a/", "/"},
		{"/a", "/a"},
		{"a/b", "/b"},
		{"example.com?a", "/?a"},
		{"example.com/a;b#c", "/a;b"},
		{"//a/b/c", "/b/c"},
		{"http://h#frag/x", "/"},
		{"/p?q#f", "/p?q"},
	} {
		p, slash := pathOf(c.in)
		if slash {
			p = "/" + p
		}
		if p != c.want {
			t.Errorf("pathOf(%q) = %q, want %q", c.in, p, c.want)
		}
	}
}

func TestRFC9309_2_2_2_Normalisation(t *testing.T) {
	for _, c := range []struct{ in, url, pattern string }{
		{"/a b", "/a%20b", "/a%20b"},
		{"/%7e", "/~", "/~"},
		{"/%7E%41", "/~A", "/~A"},
		{"/%2f", "/%2F", "/%2F"},
		{"/%zz%4", "/%zz%4", "/%zz%4"},
		{"/\u00e9", "/%C3%A9", "/%C3%A9"},
		{"/a*b", "/a%2Ab", "/a*b"},
		{"/a$b", "/a%24b", "/a%24b"},
		{"/<>\"{}|\\^`", "/%3C%3E%22%7B%7D%7C%5C%5E%60", "/%3C%3E%22%7B%7D%7C%5C%5E%60"},
		{"/:@!&'()+,;=?[]", "/:@!&'()+,;=?[]", "/:@!&'()+,;=?[]"},
	} {
		if got := string(appendNormal(nil, c.in, false)); got != c.url {
			t.Errorf("URL %q -> %q, want %q", c.in, got, c.url)
		}
		if got, _ := normalPattern(c.in); got != c.pattern {
			t.Errorf("pattern %q -> %q, want %q", c.in, got, c.pattern)
		}
		if urlIsNormal(c.in) && c.in != c.url {
			t.Errorf("urlIsNormal(%q) = %v", c.in, urlIsNormal(c.in))
		}
	}
}

// TestRFC9309_2_2_2_Wildcards mirrors the special-character and longest-match
// cases of Google's robotstxt test suite (read by RFC 9309 where they differ).
func TestRFC9309_2_2_2_Wildcards(t *testing.T) {
	cases := []struct {
		body    string
		url     string
		allowed bool
	}{
		{"Disallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "/foo/bar/quz", false},
		{"Disallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "/foo/quz", true},
		{"Disallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "/foo//quz", true},
		{"Disallow: /foo/bar/quz\nAllow: /foo/*/qux\n", "/foo/bax/quz", true},
		{"Disallow: /foo/bar$\nAllow: /foo/bar/qux\n", "/foo/bar", false},
		{"Disallow: /foo/bar$\nAllow: /foo/bar/qux\n", "/foo/bar/qux", true},
		{"Disallow: /foo/bar$\nAllow: /foo/bar/qux\n", "/foo/bar/", true},
		{"Disallow: /foo/bar$\nAllow: /foo/bar/qux\n", "/foo/bar/baz", true},
		{"Disallow: /x/page.html\nAllow: /x/page.\n", "/x/page.html", false},
		{"Allow: /page\nDisallow: /*.html\n", "/page.html", false},
		{"Allow: /page\nDisallow: /*.html\n", "/page", true},
		{"Allow: /x/page.\nDisallow: /*.html\n", "/x/page.html", true},
		{"Allow: /x/page.\nDisallow: /*.html\n", "/x/y.html", false},
		{"Disallow: /\nAllow: /$\n", "/", true},
		{"Disallow: /\nAllow: /$\n", "/x", false},
		{"Disallow: /*.php$\n", "/a.php", false},
		{"Disallow: /*.php$\n", "/a.php?x", true},
		{"Disallow: /*.php$\n", "/a.php5", true},
		{"Disallow: /*.php\n", "/a.php5", false},
		{"Disallow: /fish*.php\n", "/fishheads/catfish.php?parameters", false},
		{"Disallow: /fish*.php\n", "/Fish.PHP", true},
		{"Disallow: /*\n", "/", false},
		{"Disallow: *\n", "/anything", false},
		{"Disallow: /a**b\n", "/axxb", false},
		{"Disallow: /a*b*c$\n", "/abcbc", false},
		{"Disallow: /a*b*c$\n", "/abcbcd", true},
		{"Disallow: /a*$\n", "/a", false},
		{"Disallow: /*ab*ab\n", "/aab", true},
		{"Disallow: /*aab$\n", "/aaab", false},
		{"Disallow: /*abab$\n", "/abababab", false},
		{"Disallow: /*abcabd\n", "/abcabcabd", false},
		{"Allow: /a*\nDisallow: /ab\n", "/ab", true}, // same length (3): allow wins
		{"Disallow: /a*\nAllow: /ab\n", "/ab", true},
		{"Disallow: /a*\nAllow: /a\n", "/ab", false}, // "/a*" is longer
	}
	for _, c := range cases {
		body := "User-agent: FooBot\n" + c.body
		if got := allowedFor(body, "FooBot", c.url); got != c.allowed {
			t.Errorf("%q %s: allowed = %v, want %v", c.body, c.url, got, c.allowed)
		}
	}
}

// TestMatchLinearSteps checks the matcher's step count, not wall time:
// adversarial patterns cost at most a constant times the URL length per rule.
func TestMatchLinearSteps(t *testing.T) {
	patterns := []string{
		"/" + strings.Repeat("*a", 100) + "*b",
		"/*" + strings.Repeat("a", 50) + "b",
		"/*" + strings.Repeat("ab", 40) + "c$",
		"/" + strings.Repeat("a*", 200) + "$",
	}
	body := "User-agent: *\n"
	for _, p := range patterns {
		body += "Disallow: " + p + "\nAllow: " + p + "x\n"
	}
	g := Parse([]byte(body)).Group("bot")
	for _, n := range []int{1 << 10, 1 << 13, 1 << 16} {
		for _, u := range []string{"/" + strings.Repeat("a", n), "/" + strings.Repeat("ab", n/2)} {
			steps := 0
			g.verdict(g.decide(u, &steps))
			if bound := 8 * len(patterns) * (len(u) + 600); steps > bound {
				t.Errorf("len %d: %d steps > %d", len(u), steps, bound)
			}
		}
	}
}

func TestAllowedDoesNotAllocate(t *testing.T) {
	r := Parse(readTestdata(t, "shop-like.txt"))
	g := r.Group("anybot")
	for _, u := range []string{"https://shop.example.com/products/shoe-1/reviews/page-2", "/a/b?sort=x", "/caf%C3%A9?q=%7e", "/\u00e9t\u00e9"} {
		g.Allowed(u)
		if n := testing.AllocsPerRun(100, func() { g.Allowed(u) }); n != 0 {
			t.Errorf("Allowed(%q): %v allocs", u, n)
		}
	}
	if n := testing.AllocsPerRun(100, func() { r.Group("Googlebot/2.1") }); n != 0 {
		t.Errorf("Group: %v allocs", n)
	}
}

// TestAllowedAllocationBound pins the bound Group.Allowed documents: no
// allocation for a path and query of up to 341 octets, however many need
// escaping, nor for one already in normal form, however long; a path
// whose normal form is longer than 1 KiB is normalised on the heap.
func TestAllowedAllocationBound(t *testing.T) {
	g := Parse([]byte("User-agent: *\nDisallow: /x*y\nAllow: /a\nDisallow: /b/c\n")).Group("bot")
	g.Allowed("/x")
	g.Allowed("/x")
	for _, c := range []struct {
		name   string
		target string
		allocs bool
	}{
		{"341 octets, all escaped", "/" + strings.Repeat("\xff", 340), false},
		{"342 octets, all escaped: normal form exactly 1 KiB", "/" + strings.Repeat("\xff", 341), false},
		{"URL whose path is 341 octets", "http://h/" + strings.Repeat("\xff", 340), false},
		{"4 KiB already normal", "/" + strings.Repeat("a", 4096), false},
		{"3 KiB of escapes whose normal form is 1001 octets", "/" + strings.Repeat("%7e", 1000), false},
		{"343 octets, all escaped: normal form over 1 KiB", "/" + strings.Repeat("\xff", 342), true},
		{"601 octets of é", "/" + strings.Repeat("\u00e9", 300), true},
	} {
		n := testing.AllocsPerRun(20, func() { g.Allowed(c.target) })
		if (n != 0) != c.allocs {
			t.Errorf("%s (%d octets): %v allocs, want allocations = %v", c.name, len(c.target), n, c.allocs)
		}
	}
}

func TestShopLike(t *testing.T) {
	runVerdicts(t, Parse(readTestdata(t, "shop-like.txt")), []verdictCase{
		{"sitemap allowed exactly", "anybot", "/sitemap.xml", true, 16},
		{"other xml", "anybot", "/feed.xml", false, 15},
		{"first review page", "anybot", "/products/shoe/reviews/page-1", true, 19},
		{"later review page", "anybot", "/products/shoe/reviews/page-2", false, 18},
		{"sort parameter", "anybot", "/c/shoes?sort=price", false, 8},
		{"second sort parameter", "anybot", "/c/shoes?a=1&sort=price", false, 9},
		{"static", "anybot", "/static/app.js", true, 22},
		{"private static", "anybot", "/static/private/x", false, 21},
		{"googlebot allowed cart-less", "Googlebot", "/c/shoes?sort=price", true, 36},
		{"googlebot session", "Googlebot", "/c?sessionid=1", false, 35},
		{"adsbot", "AdsBot-Google", "/checkout/x", false, 39},
	})
}

// TestConcurrentUse checks, under -race, that the lazy compilation of a
// group's rules is safe when many goroutines make their first check at once.
func TestConcurrentUse(t *testing.T) {
	r := Parse(readTestdata(t, "shop-like.txt"))
	want := r.Allowed("anybot", "/c/shoes?sort=price")
	r = Parse(readTestdata(t, "shop-like.txt"))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if got := r.Group("anybot").Allowed("/c/shoes?sort=price"); got != want {
					t.Errorf("got %v, want %v", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestGroupLastAgent checks that the remembered last agent never answers
// for another agent, also when goroutines alternate agents concurrently.
func TestGroupLastAgent(t *testing.T) {
	r := Parse(readTestdata(t, "shop-like.txt"))
	agents := []string{"Googlebot/2.1", "AdsBot-Google", "bingbot", "anybot", "GOOGLEBOT", "", "Bingbot/2"}
	want := make([]*Group, len(agents))
	for i, a := range agents {
		want[i] = r.lookup(a)
	}
	if want[0] == want[1] || want[0] == want[3] || want[2] != want[6] {
		t.Fatalf("test file does not separate the agents")
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for k := range 500 {
				i := (k + w) % len(agents)
				a := string([]byte(agents[i])) // a fresh copy: compared by content
				if got := r.Group(a); got != want[i] {
					t.Errorf("Group(%q) = %v, want %v", a, got.Agents(), want[i].Agents())
					return
				}
			}
		})
	}
	wg.Wait()
	if n := testing.AllocsPerRun(100, func() { r.Group("bingbot"); r.Group("anybot") }); n != 0 {
		t.Errorf("alternating Group: %v allocs", n)
	}
}

// TestBuildTree checks the radix tree newMatcher builds by inserting the
// literals one by one: every node's children are in order of their first
// octets, a node without rules branches, and every rule hangs at the node
// whose path is its literal prefix (the part before its first '*'), a
// pure prefix rule as the node's best one.
func TestBuildTree(t *testing.T) {
	rnd := rand.New(rand.NewSource(2))
	for round := range 500 {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		octets := "ab/%*"
		if round%2 == 1 { // enough first octets for nodes with 8 and more children
			octets = "ab/%*cdefghijklmn"
		}
		for range rnd.Intn(80) {
			b := []byte("/")
			for range rnd.Intn(7) {
				b = append(b, octets[rnd.Intn(len(octets))])
			}
			if rnd.Intn(3) == 0 {
				b = append([]byte("/common/prefix/"), b...)
			}
			if rnd.Intn(6) == 0 {
				b = append(b, '$')
			}
			verb := "Disallow"
			if rnd.Intn(2) == 0 {
				verb = "Allow"
			}
			fmt.Fprintf(&body, "%s: %s\n", verb, b)
		}
		g := Parse([]byte(body.String())).Group("bot")
		m := g.matcher()
		paths := map[string]int32{}
		var visit func(n int32, path string)
		visit = func(n int32, path string) {
			paths[path] = n
			kids := treeKids(m, n)
			nd := &m.nodes[n]
			if n != 0 && len(kids) < 2 && nd.lab&(nodeSimple<<labBits) == 0 && nd.lab&(nodeWild<<labBits) == 0 {
				t.Fatalf("round %d: node %q has %d children and no rules", round, path, len(kids))
			}
			for i, c := range kids {
				cn := &m.nodes[c]
				lab := m.labels[cn.labOff : int(cn.labOff)+int(cn.lab&labMask)]
				if i > 0 && m.labels[m.nodes[kids[i-1]].labOff] >= lab[0] {
					t.Fatalf("round %d: children of %q out of order", round, path)
				}
				if got := treeChild(m, n, lab[0]); got != c {
					t.Fatalf("round %d: the child of %q for %q is %d, want %d", round, path, lab[0], got, c)
				}
				visit(c, path+lab)
			}
		}
		visit(0, "")
		rules := g.ruleList()
		for i := range rules {
			r := &rules[i]
			p := g.txt.str(r.pattern)
			lit := p
			if k := strings.IndexByte(p, '*'); k >= 0 {
				lit = p[:k]
			}
			n, ok := paths[lit]
			if !ok {
				t.Fatalf("round %d: no node for the literal %q", round, lit)
			}
			a := 0
			if r.allow {
				a = 1
			}
			key := ruleKey(r.priority(), a, int32(i))
			if r.anchored || lit != p {
				found := false
				for j := m.wildFrom[n]; j < m.wildFrom[n+1]; j++ {
					found = found || m.wild[j].key == key
					if j > m.wildFrom[n] && m.wild[j-1].key <= m.wild[j].key {
						t.Fatalf("round %d: wildcard rules of %q out of order", round, lit)
					}
				}
				if !found {
					t.Fatalf("round %d: rule %q is not among the wildcard rules of its node", round, p)
				}
			} else if m.nodes[n].lab&(nodeSimple<<labBits) == 0 || m.simple[n] < key {
				t.Fatalf("round %d: rule %q is not the best pure prefix rule of its node", round, p)
			}
		}
	}
}

// treeChild returns the child of node n whose label starts with o, as the
// walk finds it, or -1.
func treeChild(m *matcher, n int32, o byte) int32 {
	nd := &m.nodes[n]
	switch fl := nd.lab >> labBits; {
	case fl&nodeLeaf != 0:
		return -1
	case fl&nodeWide != 0:
		return nd.first + int32(m.wide[nd.kids].index[o]) - 1
	}
	x := nd.kids ^ uint64(o)*lowOctets
	z := (x - lowOctets) &^ x & highOctets
	if z == 0 {
		return -1
	}
	return nd.first + int32(bits.TrailingZeros64(z)>>3)
}

// treeKids returns the children of node n.
func treeKids(m *matcher, n int32) []int32 {
	nd := &m.nodes[n]
	fl := nd.lab >> labBits
	var k int32
	switch {
	case fl&nodeLeaf != 0:
	case fl&nodeWide != 0:
		for _, i := range &m.wide[nd.kids].index {
			k = max(k, int32(i))
		}
	default:
		k = 1
		for i := 1; i < 8; i++ {
			if byte(nd.kids>>(8*i)) != byte(nd.kids>>(8*i-8)) {
				k++
			}
		}
	}
	var kids []int32
	for c := nd.first; c < nd.first+k; c++ {
		kids = append(kids, c)
	}
	return kids
}

// TestAgentIndex checks the product-token index against a scan of every
// group (RFC 9309 2.2.1: case-insensitive product tokens, groups naming
// the same token merged, else the "*" groups, else none).
func TestAgentIndex(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	names := []string{"FooBot", "foobot", "FOOBOT/2", "Bar", "bar-x", "Bar_x", "*", "* x", "MJ12bot", "mj", "Q", "", "9bot"}
	for range 500 {
		var b strings.Builder
		for range 1 + rnd.Intn(8) {
			for range 1 + rnd.Intn(3) {
				b.WriteString("User-agent: " + names[rnd.Intn(len(names))] + "\n")
			}
			b.WriteString("Disallow: /" + string(rune('a'+rnd.Intn(26))) + "\n")
		}
		r := Parse([]byte(b.String()))
		for _, agent := range append(names, "foobot/1.0", "BAR", "nobody") {
			var want []string
			var matched []*Group
			seen := map[string]bool{}
			add := func(g *Group) { // a single group keeps its agents as written
				matched = append(matched, g)
				if len(matched) == 2 {
					want, seen = nil, map[string]bool{}
					for _, a := range matched[0].Agents() {
						if !seen[a] {
							seen[a] = true
							want = append(want, a)
						}
					}
				}
				for _, a := range g.Agents() {
					if len(matched) == 1 || !seen[a] {
						seen[a] = true
						want = append(want, a)
					}
				}
			}
			tok := strings.ToLower(ProductToken(agent))
			for _, g := range r.Groups() {
				for _, a := range g.Agents() {
					if tok != "" && a != "*" && !strings.HasPrefix(a, "* ") && strings.ToLower(ProductToken(a)) == tok {
						add(g)
						break
					}
				}
			}
			if want == nil {
				for _, g := range r.Groups() {
					for _, a := range g.Agents() {
						if a == "*" || strings.HasPrefix(a, "* ") {
							add(g)
							break
						}
					}
				}
			}
			if got := r.Group(agent).Agents(); !slices.Equal(got, want) {
				t.Fatalf("%q in\n%s: Group agents %q, want %q", agent, b.String(), got, want)
			}
		}
	}
}

// normalPattern returns the normal form of a rule's path pattern without
// its final '$' anchor, and whether it had one, as parser.rule stores it.
func normalPattern(value string) (pattern string, anchored bool) {
	clean, anchored := patternIsNormal(value)
	body := strings.TrimSuffix(value, "$")
	if clean {
		return body, anchored
	}
	return string(appendNormal(nil, body, true)), anchored
}
