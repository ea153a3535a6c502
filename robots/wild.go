package robots

import "strings"

// wildRule is the part of a rule after its literal prefix: segments to find
// in order, left to right, then an optional suffix anchored at the end.
type wildRule struct {
	key       int64 // see ruleKey
	rule      int32
	prio      int32
	allow     bool
	exact     bool // "prefix$": the path must end right after the prefix
	hasSuffix bool
	suffix    string
	find      []string
	fails     [][]int32 // KMP failure tables for find
	need      uint64    // octets (mod 64) the path must contain to match
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

func compileWild(r *rule, pattern string, idx int32, litLen int) wildRule {
	w := wildRule{rule: idx, prio: int32(r.priority()), allow: r.allow}
	a := 0
	if r.allow {
		a = 1
	}
	w.key = ruleKey(r.priority(), a, idx)
	rest := pattern[litLen:]
	if rest == "" {
		w.exact = true // anchored, no '*'
		return w
	}
	endsFree := strings.HasSuffix(rest, "*")
	for seg := range strings.SplitSeq(rest, "*") {
		if seg != "" {
			w.find = append(w.find, seg)
		}
	}
	if r.anchored && !endsFree && len(w.find) > 0 {
		w.hasSuffix, w.suffix = true, w.find[len(w.find)-1]
		w.find = w.find[:len(w.find)-1]
	}
	w.fails = make([][]int32, len(w.find))
	for i, seg := range w.find {
		w.fails[i] = kmpTable(seg)
		w.need = octetSet(w.need, seg)
	}
	w.need = octetSet(w.need, w.suffix)
	return w
}

// kmpTable returns the Knuth-Morris-Pratt failure function of pat.
func kmpTable(pat string) []int32 {
	f := make([]int32, len(pat))
	k := int32(0)
	for i := 1; i < len(pat); i++ {
		for k > 0 && pat[i] != pat[k] {
			k = f[k-1]
		}
		if pat[i] == pat[k] {
			k++
		}
		f[i] = k
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
	for i, seg := range w.find {
		j := kmpIndex(u[p:], seg, w.fails[i], steps)
		if j < 0 {
			return false
		}
		p += j + len(seg)
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
	m.allNeed = make([]uint64, len(m.wildIdx))
	for n := 0; n+1 < len(m.wildFrom); n++ {
		acc := ^uint64(0)
		for j := m.wildFrom[n+1] - 1; j >= m.wildFrom[n]; j-- {
			acc &= m.wild[m.wildIdx[j]].need
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
		w := &m.wild[m.wildIdx[j]]
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
