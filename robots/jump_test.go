package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestJumpTable checks that walks starting from the jump table decide as
// walks from the root and as the reference matcher do, for rule sets whose
// literal prefixes branch around the table's key length, with and without
// wildcard rules on the way.
func TestJumpTable(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte("ab/"[rng.IntN(3)])
		}
		return b.String()
	}
	tables := 0
	for round := range 400 {
		var body strings.Builder
		var lits []string // the rules' literal prefixes, which paths start from
		body.WriteString("User-agent: *\n")
		for range 20 + rng.IntN(40) {
			verb := "Disallow"
			if rng.IntN(2) == 0 {
				verb = "Allow"
			}
			pat := "/" + word(rng.IntN(30))
			lits = append(lits, pat)
			switch rng.IntN(8) {
			case 0:
				pat += "*" + word(rng.IntN(3))
			case 1:
				pat += "$"
			}
			fmt.Fprintf(&body, "%s: %s\n", verb, pat)
		}
		g := Parse([]byte(body.String())).Group("bot")
		g.Allowed("/")
		plain := g.matcher() // cold: without jump table
		g.Allowed("/")
		hot := g.matcher()
		if !hot.hot || plain.hot {
			t.Fatalf("the second check did not make the matcher hot")
		}
		if len(hot.jump.slots) > 0 {
			tables++
		}
		for range 100 {
			u := "/" + word(rng.IntN(34))
			if rng.IntN(2) == 0 { // a path that follows a rule part of the way
				lit := lits[rng.IntN(len(lits))]
				u = lit[:rng.IntN(len(lit)+1)] + word(rng.IntN(10))
				if !strings.HasPrefix(u, "/") {
					u = "/" + u
				}
			}
			var s1, s2 int
			got, want := hot.best(u, &s1), plain.best(u, &s2)
			if got != want {
				t.Fatalf("round %d, %q:\n%s\njump decides by rule %d, the walk from the root by %d", round, u, body.String(), got, want)
			}
			var steps int
			if v := g.verdict(g.decide(u, &steps)); v.Reason == ReasonRule { // u is a path, even "//x"
				if allowed, prio := refDecide(g, u); v.Allowed != allowed || len(v.Pattern) != prio {
					t.Fatalf("round %d, %q:\n%s\n%v, reference: allowed %v, length %d", round, u, body.String(), v, allowed, prio)
				}
			}
		}
	}
	if tables < 120 {
		t.Fatalf("only %d of 400 rule sets built a jump table: the test does not exercise it", tables)
	}
}
