package robots

import (
	"cmp"
	"slices"
	"strings"
)

// wildRule is the part of a rule after its literal prefix: segments to find
// in order, left to right, then an optional suffix anchored at the end.
type wildRule struct {
	key       int64  // see ruleKey
	need      uint64 // octets (mod 64) the path must contain to match
	exact     bool   // "prefix$": the path must end right after the prefix
	hasSuffix bool
	suffix    string
	find      []wildSeg // a part of m.segs
}

// wildSeg is a segment of a wildcard rule with its Knuth-Morris-Pratt
// failure table (a part of the one all segments share).
type wildSeg struct {
	s    string
	fail []int32
}

// octetSet adds the octets of s, folded mod 64, to set: a cheap
// necessary condition for a wildcard rule to match a path.
func octetSet(set uint64, s string) uint64 {
	a, b := set, uint64(0)
	i := 0
	for ; i+2 <= len(s); i += 2 {
		a |= 1 << (s[i] & 63)
		b |= 1 << (s[i+1] & 63)
	}
	if i < len(s) {
		a |= 1 << (s[i] & 63)
	}
	return a | b
}

// placeWild compiles the wildcard rules into m.wild, grouped by node in
// node order and, within a node, in descending order of key, with their
// segments and failure tables in two shared slices; order maps the new
// node numbers to the builder's.
func (b *builder) placeWild(m *matcher, order []int32) {
	if len(b.wilds) == 0 {
		return
	}
	nseg, nfail := 0, 0
	for _, wa := range b.wilds {
		rest := b.rest(wa.rule)
		nseg += strings.Count(rest, "*") + 1
		nfail += len(rest)
	}
	m.wildFrom = make([]int32, len(m.nodes)+1)
	m.wild = make([]wildRule, 0, len(b.wilds))
	m.allNeed = make([]uint64, len(b.wilds))
	segs, fails := make([]wildSeg, 0, nseg), make([]int32, 0, nfail)
	for q, n := range order {
		lo := len(m.wild)
		for j := b.nodes[n].wild; j >= 0; j = b.wilds[j].next {
			i := b.wilds[j].rule
			r := &b.rules[i]
			a := 0
			if r.allow {
				a = 1
			}
			w := wildRule{key: ruleKey(r.priority(), a, i)}
			rest := b.rest(i)
			if rest == "" {
				w.exact = true // anchored, no '*'
			}
			from := len(segs)
			for seg := range strings.SplitSeq(rest, "*") {
				if seg != "" {
					f := len(fails)
					fails = kmpTable(fails, seg)
					segs = append(segs, wildSeg{seg, fails[f:len(fails):len(fails)]})
					w.need = octetSet(w.need, seg)
				}
			}
			w.find = segs[from:len(segs):len(segs)]
			if r.anchored && !strings.HasSuffix(rest, "*") && len(w.find) > 0 {
				w.hasSuffix, w.suffix = true, w.find[len(w.find)-1].s
				w.find = w.find[:len(w.find)-1]
			}
			m.wild = append(m.wild, w)
		}
		// The node's rules in descending order of key (keys are unique:
		// they hold the rule's number). Sorted once: inserting each in
		// place took time quadratic in the rules of a node, 0.65 s for a
		// hostile file of 20,000 wildcard rules under "/".
		slices.SortFunc(m.wild[lo:], func(x, y wildRule) int { return cmp.Compare(y.key, x.key) })
		if len(m.wild) > lo {
			m.nodes[q].lab |= nodeWild << labBits
		}
		m.wildFrom[q+1] = int32(len(m.wild))
	}
	m.fillAllNeed()
}

// rest returns the part of rule i's pattern after its literal.
func (b *builder) rest(i int32) string {
	return b.t.str(b.rules[i].pattern)[b.off[i+1]-b.off[i]:]
}

// kmpTable appends the Knuth-Morris-Pratt failure function of pat to f.
func kmpTable(f []int32, pat string) []int32 {
	base := len(f)
	f = slices.Grow(f, len(pat))[:base+len(pat)]
	t := f[base:]
	t[0] = 0
	k := int32(0)
	for i := 1; i < len(pat); i++ {
		for k > 0 && pat[i] != pat[k] {
			k = t[k-1]
		}
		if pat[i] == pat[k] {
			k++
		}
		t[i] = k
	}
	return f
}

// kmpIndex returns the index of the first occurrence of pat in text, or -1.
// It never moves backwards in text, so it runs in O(len(text)+len(pat)) and
// adds the octets it compares to *steps.
func kmpIndex(text, pat string, fail []int32, steps *int) int {
	k := int32(0)
	for i := 0; i < len(text); i++ {
		if k == 0 {
			j := strings.IndexByte(text[i:], pat[0])
			if j < 0 {
				*steps += len(text) - i
				return -1
			}
			*steps += j
			i += j
		}
		*steps++
		for k > 0 && text[i] != pat[k] {
			k = fail[k-1]
			*steps++
		}
		if text[i] == pat[k] {
			k++
			if int(k) == len(pat) {
				return i - len(pat) + 1
			}
		}
	}
	return -1
}

// match reports whether the rule's remainder matches u from offset p.
func (w *wildRule) match(u string, p int, steps *int) bool {
	if w.exact {
		return p == len(u)
	}
	for _, seg := range w.find {
		j := kmpIndex(u[p:], seg.s, seg.fail, steps)
		if j < 0 {
			return false
		}
		p += j + len(seg.s)
	}
	if !w.hasSuffix {
		return true
	}
	*steps += len(w.suffix)
	return len(u)-p >= len(w.suffix) && u[len(u)-len(w.suffix):] == w.suffix
}

// fillAllNeed computes allNeed, suffix intersections of the octet sets
// that the wildcard rules of each node need.
func (m *matcher) fillAllNeed() {
	for n := 0; n+1 < len(m.wildFrom); n++ {
		acc := ^uint64(0)
		for j := m.wildFrom[n+1] - 1; j >= m.wildFrom[n]; j-- {
			acc &= m.wild[j].need
			m.allNeed[j] = acc
		}
	}
}

// tryWild returns the greater of key and the keys (see ruleKey) of the
// wildcard rules of node n that match the normalised path u, whose first d
// octets reached n; set is u's octet set.
func (m *matcher) tryWild(n int32, u string, d int, key int64, set uint64, steps *int) int64 {
	for j := m.wildFrom[n]; j < m.wildFrom[n+1]; j++ {
		if m.allNeed[j]&^set != 0 {
			break // every rule left needs an octet u lacks
		}
		w := &m.wild[j]
		if w.key <= key {
			break // the rules are in descending order of key
		}
		if w.need&^set != 0 {
			continue
		}
		if w.match(u, d, steps) {
			return w.key
		}
	}
	return key
}
