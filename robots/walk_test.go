package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// rawPiece returns a piece of path for the raw-walk tests: plain octets,
// escapes in either case (of reserved and unreserved octets alike), bare
// and broken '%', octets that need encoding, and the octets that end or
// split a path.
func rawPiece(rng *rand.Rand) string {
	pieces := []string{
		"a", "b", "/", "w", "ab", "/a/", "x.", "~",
		"%3A", "%3a", ":", "%2F", "%2f", "%41", "%61", "%7E", "%7e", "%25",
		"%", "%4", "%zz", "%%31", "%4%31",
		"*", "$", "%2A", "%24", " ", "\"", "é", "\xff", "\x00",
		"?", "?q=1", "#", "#frag", "&",
	}
	return pieces[rng.IntN(len(pieces))]
}

// rawPath builds a path that follows one of lits part of the way, as
// written or with octets re-encoded, then goes on at random.
func rawPath(rng *rand.Rand, lits []string) string {
	var b strings.Builder
	b.WriteByte('/')
	if len(lits) > 0 && rng.IntN(4) != 0 {
		lit := lits[rng.IntN(len(lits))]
		lit = lit[:rng.IntN(len(lit)+1)]
		for i := 0; i < len(lit); i++ {
			switch c := lit[i]; {
			case i == 0 && c == '/':
			case rng.IntN(8) == 0 && isUnreserved(c):
				fmt.Fprintf(&b, "%%%02x", c) // decodes to c
			case rng.IntN(8) == 0 && c == '%' && i+2 < len(lit):
				b.WriteString(strings.ToLower(lit[i : i+3])) // the same escape, lower case
				i += 2
			default:
				b.WriteByte(c)
			}
		}
	}
	for range rng.IntN(4) {
		b.WriteString(rawPiece(rng))
	}
	return b.String()
}

// TestRawWalk checks that matching a path as written (matcher.check, the
// fast path of Allowed) decides as matching its normal form does, and
// that it answers often: for rule sets with escapes, '%' and
// wildcards in their patterns and paths that follow them with escapes in
// either case, fragments and octets that need encoding.
func TestRawWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var answered, asked int
	for round := range 300 {
		var body strings.Builder
		var lits []string
		body.WriteString("User-agent: *\n")
		for range 1 + rng.IntN(60) {
			var p strings.Builder
			p.WriteByte('/')
			for range rng.IntN(6) {
				p.WriteString(rawPiece(rng))
			}
			pat := strings.NewReplacer("#", "", "\x00", "", " ", "%20").Replace(p.String())
			lits = append(lits, pat)
			switch rng.IntN(10) {
			case 0:
				pat += "*" + rawPiece(rng)
			case 1:
				pat += "$"
			}
			verb := "Disallow"
			if rng.IntN(3) == 0 {
				verb = "Allow"
			}
			fmt.Fprintf(&body, "%s: %s\n", verb, pat)
		}
		g := Parse([]byte(body.String())).Group("bot")
		g.Allowed("/")
		g.Allowed("/") // the second check makes the matcher hot
		for range 60 {
			u := rawPath(rng, lits)
			want := g.verdict(g.decide(normalForm(u), new(int)))
			if got := g.Allowed(u); got != want {
				t.Fatalf("round %d: Allowed(%q) = %v, its normal form %q gives %v\n%s", round, u, got, normalForm(u), want, body.String())
			}
			if len(u) > 1 && u[1] == '/' {
				continue // a scheme-relative URL: check takes paths only
			}
			asked++
			if m := g.matcher(); !m.hot {
				t.Fatalf("round %d: the matcher is cold after a check", round)
			} else if i, ok := m.check(u); ok {
				answered++
				if got := m.verdict[i]; got != want {
					t.Fatalf("round %d: check(%q) = %v, its normal form %q gives %v\n%s", round, u, got, normalForm(u), want, body.String())
				}
			}
		}
	}
	t.Logf("the path as written decided %d of %d checks", answered, asked)
	if answered < asked/4 {
		t.Fatalf("the path as written decided only %d of %d checks: the test does not exercise the fast path", answered, asked)
	}
}

// normalForm returns the normal form of the path, parameters and query of
// the target u (see pathOf).
func normalForm(u string) string {
	path, slash := pathOf(u)
	if slash {
		path = "/" + path
	}
	return string(appendNormal(nil, path, false))
}

// FuzzRawWalk checks that Allowed, which matches paths as written where
// it can, decides as matching the path's normal form does, with the
// group's matcher cold and hot.
func FuzzRawWalk(f *testing.F) {
	f.Add("Disallow: /wiki/Special%3A\nDisallow: /wiki/Special:\nAllow: /w/load.php?\n", "/wiki/Special%3aRandom")
	f.Add("Disallow: /a%41\nDisallow: /%4%31\nAllow: /aA\n", "/a%41")
	f.Add("Disallow: /%zz\nAllow: /%zz/x$\n", "/%zz/x#y")
	f.Add("Disallow: /caf%C3%A9\nAllow: /*%C3\n", "/café")
	f.Add("Disallow: /x\nAllow: /x*y$\n", "/x%79")
	f.Fuzz(func(t *testing.T, rules, target string) {
		g := Parse([]byte("User-agent: *\n" + rules)).Group("bot")
		var got [3]Verdict // with the matcher cold, warm and hot (see matcher.hot)
		for i := range got {
			got[i] = g.Allowed(target)
		}
		u := normalForm(target)
		want := g.verdict(g.decide(u, new(int)))
		for i, v := range got {
			if v != want {
				t.Fatalf("Allowed(%q) (call %d) = %v, its normal form %q gives %v", target, i+1, v, u, want)
			}
		}
	})
}
