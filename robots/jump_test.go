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
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte("ab/"[rng.IntN(3)])
		}
		return b.String()
	}
	tables := 0
	for round := range 300 {
		var body strings.Builder
		body.WriteString("User-agent: *\n")
		for range 1 + rng.IntN(20) {
			verb := "Disallow"
			if rng.IntN(2) == 0 {
				verb = "Allow"
			}
			pat := "/" + word(rng.IntN(14))
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
		if len(g.m.jump.keys) > 0 {
			tables++
		}
		plain := *g.m
		plain.jump = jumpTable{}
		for range 200 {
			u := "/" + word(rng.IntN(18))
			var s1, s2 int
			got, want := g.m.best(u, &s1), plain.best(u, &s2)
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
	if tables < 100 {
		t.Fatalf("only %d of 300 rule sets built a jump table: the test does not exercise it", tables)
	}
}
