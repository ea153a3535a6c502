package report

import "strings"

// ruleKind returns the kind of a pace rule: the label with its durations
// replaced by "D", so "adaptive 2x41.761261ms" and "adaptive 2x57ms" are
// one kind while "crawl-delay 500ms (line 3)" and "request-rate 1/1s
// (line 5)" stay apart (their line numbers and words differ).
func ruleKind(rule string) string {
	var b strings.Builder
	for i := 0; i < len(rule); {
		if isDigit(rule[i]) && durationStart(rule, i) {
			if n := durationLen(rule[i:]); n > 0 {
				b.WriteByte('D')
				i += n
				continue
			}
		}
		b.WriteByte(rule[i])
		i++
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// durationStart reports whether a duration may start at s[i]: not inside a
// number or a word ("/busy10s"), but right after a factor's "x" ("2x41ms").
func durationStart(s string, i int) bool {
	if i == 0 {
		return true
	}
	p := s[i-1]
	if p == 'x' {
		return i >= 2 && isDigit(s[i-2])
	}
	return !isDigit(p) && p != '.' && !isLetter(p)
}

// durationLen returns the length of the duration s starts with, as the
// scheduler writes them at any precision ("500ms", "1.5s", "1m30s",
// "41.761261ms"), or 0 if s does not start with one.
func durationLen(s string) int {
	n := 0
	for {
		i := n
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == n {
			break
		}
		if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
			for i++; i < len(s) && isDigit(s[i]); i++ {
			}
		}
		u := unitLen(s[i:])
		if u == 0 {
			break
		}
		n = i + u
	}
	if n > 0 && n < len(s) && isLetter(s[n]) {
		return 0
	}
	return n
}

// unitLen returns the length of the duration unit s starts with, or 0.
func unitLen(s string) int {
	for _, u := range []string{"ns", "us", "µs", "ms", "h", "m", "s"} {
		if strings.HasPrefix(s, u) {
			return len(u)
		}
	}
	return 0
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// kindText describes a kind whose labels differ only in their measured
// durations, for a list that shows the range of intervals next to it:
// "adaptive 2× fetch time", "back-off after 503 on robots.txt".
func kindText(kind string) string {
	if rest, ok := strings.CutPrefix(kind, "adaptive "); ok {
		n := 0
		for n < len(rest) && (isDigit(rest[n]) || rest[n] == '.') {
			n++
		}
		factor, tail := rest[:n], strings.TrimSpace(rest[n:])
		if factor != "" && (strings.HasPrefix(tail, "x") || strings.HasPrefix(tail, "×")) {
			return "adaptive " + factor + "× fetch time"
		}
	}
	var words []string
	for _, w := range strings.Fields(kind) {
		if w != "D" {
			words = append(words, w)
		}
	}
	return strings.Join(words, " ")
}

// paceGroup collects the requests made under one kind of pace rule.
type paceGroup struct {
	kind, rule string // rule is the first label seen
	varied     bool   // another label of the kind was seen: the kind is shown, not rule
	min, max   float64
	count      int
}

// pacesUsed groups reqs (in time order) by pace rule kind, in first-use
// order, with the range of intervals each kind set. It also returns one
// label per kind, for the robots.txt lines a rule cites.
func pacesUsed(reqs []request) (uses []paceUse, rules []string) {
	var t paceTally
	for _, r := range reqs {
		t.add(r)
	}
	return t.uses(), t.rules
}

// paceTally groups requests, taken in time order, as pacesUsed does, one
// at a time: its memory is one group per kind of pace rule.
type paceTally struct {
	groups []*paceGroup
	idx    map[string]*paceGroup
	rules  []string // one label per kind, in first-use order
}

func (t *paceTally) add(r request) {
	k := ruleKind(r.PaceRule)
	g, ok := t.idx[k]
	if !ok {
		if t.idx == nil {
			t.idx = make(map[string]*paceGroup)
		}
		g = &paceGroup{kind: k, rule: r.PaceRule, min: r.PaceSeconds, max: r.PaceSeconds}
		t.idx[k] = g
		t.groups = append(t.groups, g)
		if r.PaceRule != "" {
			t.rules = append(t.rules, r.PaceRule)
		}
	}
	g.count++
	g.min, g.max = min(g.min, r.PaceSeconds), max(g.max, r.PaceSeconds)
	if r.PaceRule != g.rule {
		g.varied = true
	}
}

// uses is the Pace used list of the requests added.
func (t *paceTally) uses() []paceUse {
	var uses []paceUse
	for _, g := range t.groups {
		u := paceUse{Pace: fmtSeconds(g.min), Rule: g.rule, Count: g.count}
		if hi := fmtSeconds(g.max); hi != u.Pace {
			u.Pace += "–" + hi
		}
		if g.varied {
			u.Rule = kindText(g.kind)
		}
		uses = append(uses, u)
	}
	return uses
}
