package robots

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// refMatch is a quadratic reference matcher for one normalised pattern.
// It stops at the first pattern octet that no prefix of u can reach: a
// later '*' only carries matches that exist, so none can come back.
func refMatch(pattern string, anchored bool, u string) bool {
	// ok[j]: pattern[:i] can match u[:j].
	ok, next := make([]bool, len(u)+1), make([]bool, len(u)+1)
	ok[0] = true
	for i := 0; i < len(pattern); i++ {
		reached := false
		if pattern[i] == '*' {
			for j := range ok {
				reached = reached || ok[j]
				next[j] = reached
			}
		} else {
			next[0] = false
			for j := 0; j < len(u); j++ {
				next[j+1] = ok[j] && u[j] == pattern[i]
				reached = reached || next[j+1]
			}
		}
		if !reached {
			return false
		}
		ok, next = next, ok
	}
	if anchored {
		return ok[len(u)]
	}
	return slices.Contains(ok, true)
}

// refDecide returns whether u is allowed and the priority of the deciding
// rule (-1 if none), by trying every rule.
func refDecide(g *Group, u string) (bool, int) {
	bestPrio, bestAllow := -1, true
	rules := g.ruleList()
	for i := range rules {
		r := &rules[i]
		if !refMatch(g.txt.str(r.pattern), r.anchored, u) {
			continue
		}
		if p := r.priority(); p > bestPrio || p == bestPrio && r.allow && !bestAllow {
			bestPrio, bestAllow = p, r.allow
		}
	}
	return bestAllow, bestPrio
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "robots", "*.txt"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, "FooBot", "/a/b.html?x=1")
	}
	f.Add([]byte("User-agent: *\nDisallow: /*a*a*a*b$\nAllow: /%7e*\n"), "x", "/aaaaaaaaaaaaaaaaaab")
	f.Add([]byte("\xEF\xBBuser-agent foo\rdisallow /\r\nallow: /$"), "foo/1", "http://h/")
	// Lines of every shape the line reader takes apart: keys in any case,
	// white space of every kind around them, comments, missing colons,
	// misspelt and unknown keys, rules before the first user-agent line.
	for _, s := range []string{
		"User-agent: a\nDisallow: /a$b\nAllow: /x$ # c\nAllow:$\nDisallow: \v/y\nallow: /%7e%2f\nDISALLOW:/p\t\t#x\n",
		"Allow: /before-agent\nuser-agent:\tb # c\nDisallow: x/\nDisallow: /a b\nAllow: /%zz\nDisallow: *\nAllow:\n",
		"User-Agent : c\nDisallow : /q\n  Disallow: /lead\nCrawl-delay: 2 # s\nSitemap: \nSitemap: http://h/s.xml\nHost: h\n",
		"user-agents: a\nUSER-AGENT:b\nCrawl-delays: 3\ncrawl-DELAY :1\nallowx: /a\nAllo: /b\nDisallowed: /c\ncrawl-de: 4\nuser-agen: d\n",
		// 1996 records inside one RFC 9309 group.
		"User-agent: b\nCrawl-delay: 9\nuser agent: *\nComment: x\nUser-agent: b\nHost: h\nUser-agent: c\nCrawl-delay: 1\nDisallow: /lead\n",
	} {
		f.Add([]byte(s), "b", "/lead/x")
	}
	f.Fuzz(func(t *testing.T, body []byte, agent, target string) {
		r1, r2 := Parse(body), Parse(body)
		g1, g2 := r1.Group(agent), r2.Group(agent)
		v1, v2 := g1.Allowed(target), g2.Allowed(target)
		if v1 != v2 {
			t.Fatalf("not deterministic: %v vs %v", v1, v2)
		}
		// A group's second check runs its hot matcher (jump table,
		// Verdict table); it must agree with the first, cold one.
		if v := g1.Allowed(target); v != v1 {
			t.Fatalf("second check %v differs from the first %v", v, v1)
		}
		if !slices.Equal(r1.Warnings(), r2.Warnings()) || !slices.Equal(r1.Sitemaps(), r2.Sitemaps()) {
			t.Fatal("warnings or sitemaps not deterministic")
		}
		if d := sameParse(r1, r2); d != "" {
			t.Fatalf("two parses of one body differ: %s", d)
		}
		path, slash := pathOf(target)
		u := string(appendNormal(nil, path, false))
		if slash {
			u = "/" + u
		}
		steps := 0
		v3 := g1.verdict(g1.decide(u, &steps))
		if v3 != v1 {
			t.Fatalf("Allowed(%q) = %v but normal form %q gives %v", target, v1, u, v3)
		}
		wild, patBytes := 0, 0
		for _, rl := range g1.ruleList() {
			patBytes += int(rl.pattern.n)
			if rl.anchored || strings.Contains(g1.txt.str(rl.pattern), "*") {
				wild++
			}
		}
		if bound := 3*(len(u)+1)*(wild+1) + patBytes; steps > bound {
			t.Fatalf("%d steps for a %d-octet path and %d wild rules (bound %d)", steps, len(u), wild, bound)
		}
		if len(u)*patBytes > 1<<22 {
			return // too big for the quadratic reference
		}
		if v1.Reason == ReasonRule {
			wantAllowed, wantPrio := refDecide(g1, u)
			if v1.Allowed != wantAllowed || len(v1.Pattern) != wantPrio {
				t.Fatalf("%q: got %v (prio %d), reference allowed=%v prio %d", u, v1, len(v1.Pattern), wantAllowed, wantPrio)
			}
		} else if v1.Reason == ReasonNoRule {
			if _, prio := refDecide(g1, u); prio >= 0 {
				t.Fatalf("%q: no rule matched but the reference found one of priority %d", u, prio)
			}
		}
		for _, w := range r1.Warnings() {
			if w.Message == "" {
				t.Fatalf("warning without message: %#v", w)
			}
		}
		if line, text := g1.CrawlDelayLine(); line > 0 && !inPaceRecords(g1, line, text) {
			t.Fatalf("Crawl-delay from line %d %q, which no record of PaceRecords holds", line, text)
		}
		// Parse finds the groups of several 1996 records as reading a
		// group's lines again does.
		for i, g := range r1.Groups() {
			pr := &paceReader{collect: true}
			readRecords(g, pr)
			if g.split != (len(pr.records) > 1) {
				t.Fatalf("group %d: split %v, but its lines hold %d records", i, g.split, len(pr.records))
			}
		}
	})
}

// inPaceRecords reports whether line n, text, is an extension line of
// one of the records g's pace is read from.
func inPaceRecords(g *Group, n int, text string) bool {
	recs, _ := g.PaceRecords()
	for _, rec := range recs {
		if slices.Contains(rec.Pace, Line{N: n, Text: text}) {
			return true
		}
	}
	return false
}

// sameParse reports how a and b differ in what the API shows, or "".
func sameParse(a, b *Robots) string {
	if !slices.Equal(a.Warnings(), b.Warnings()) {
		return fmt.Sprintf("warnings %v vs %v", a.Warnings(), b.Warnings())
	}
	if !slices.Equal(a.Sitemaps(), b.Sitemaps()) {
		return fmt.Sprintf("sitemaps %v vs %v", a.Sitemaps(), b.Sitemaps())
	}
	ga, gb := a.Groups(), b.Groups()
	if len(ga) != len(gb) {
		return fmt.Sprintf("%d vs %d groups", len(ga), len(gb))
	}
	for i := range ga {
		x, y := ga[i], gb[i]
		if !slices.Equal(x.Agents(), y.Agents()) || !slices.Equal(x.Rules(), y.Rules()) ||
			!slices.Equal(x.Warnings(), y.Warnings()) || !slices.Equal(x.Comments(), y.Comments()) ||
			!slices.Equal(x.RequestRates(), y.RequestRates()) || !slices.Equal(x.VisitTimes(), y.VisitTimes()) {
			return fmt.Sprintf("group %d: %v %v vs %v %v", i, x.Agents(), x.Rules(), y.Agents(), y.Rules())
		}
		dx, okx := x.CrawlDelay()
		dy, oky := y.CrawlDelay()
		vx, okvx := x.RobotVersion()
		vy, okvy := y.RobotVersion()
		if dx != dy || okx != oky || vx != vy || okvx != okvy {
			return fmt.Sprintf("group %d: pacing differs", i)
		}
	}
	return ""
}

// FuzzPacingValues checks the readings of Request-rate and Crawl-delay
// values (doc.go, "Conservative readings") for any value: a rate has at
// least one request per a positive period, its interval is at most
// MaxDelay, it is Malformed exactly when it was warned about, and a
// Crawl-delay is between 0 and MaxDelay.
func FuzzPacingValues(f *testing.F) {
	for _, s := range []string{"100/48h", "1/2d", "1/ 0600-0700", "1/5.5.5", "100/", "1e400", "-Inf",
		"1/ 10 m 0100-0200", "-0/-0", "200000/4000000A", "0.5/1m", "10", "1/100000000000000000000s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		r, msgs := parseRate(v)
		if r.Requests < 1 || r.Per <= 0 || r.Interval() < 0 || r.Interval() > MaxDelay || r.Malformed != (len(msgs) > 0) {
			t.Fatalf("Request-rate %q: %+v, warnings %q", v, r, msgs)
		}
		if d, _ := parseDelay(v); d < 0 || d > MaxDelay {
			t.Fatalf("Crawl-delay %q: %v", v, d)
		}
	})
}
