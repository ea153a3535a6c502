package robots

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
	"unsafe"
)

// rule is one Allow or Disallow line of a group. It holds no pointers, so
// a file's rules cost the garbage collector nothing to scan: its strings are
// spans of the file's texts.
type rule struct {
	allow    bool
	anchored bool  // the pattern ended with '$'
	line     int32 // 1-based line number
	text     span  // the line as written, trimmed, without comment
	pattern  span  // normal form, '*' kept, final '$' removed; a '$' follows it
}

// priority is the rule's length in octets (RFC 9309 2.2.2 "most octets"),
// counting the wildcards and the final '$' as Google's matcher does.
func (r *rule) priority() int {
	if r.anchored {
		return int(r.pattern.n) + 1
	}
	return int(r.pattern.n)
}

// shown is the pattern with its final '$', as Verdict.Pattern reports it.
func (r *rule) shown() span {
	if r.anchored {
		return span{r.pattern.off, r.pattern.n + 1}
	}
	return r.pattern
}

// A span locates a string in a file's texts: in the body, or in the arena
// of rewritten patterns if off has inArena set.
type span struct{ off, n uint32 }

const inArena = 1 << 31

// texts are the strings a parsed file's spans point into.
type texts struct {
	body   string // the parsed part of the robots.txt
	arena  string // patterns that normalisation rewrote, each followed by '$', and joined group names
	agents []span // the user-agent values of all groups, as written
	rules  []rule // the rules of all groups, in file order (merged groups' at the end)
}

func (t *texts) str(s span) string {
	if s.off&inArena != 0 {
		o := s.off &^ inArena
		return t.arena[o : o+s.n]
	}
	return t.body[s.off : s.off+s.n]
}

// matcher is a group's rules compiled for matching: a compressed trie
// (radix tree) over each pattern's literal prefix, the part before the
// first '*'. Walking the normalised path down the trie finds every rule
// whose prefix matches; pure prefix rules are decided by the walk itself,
// rules with '*' or '$' then check their remainder with a linear-time
// greedy segment search. A matcher is immutable after construction.
type matcher struct {
	nodes   []node // the root first, then the children of each node together
	labels  string // every node's incoming label, back to back
	wild    []wildRule
	wildIdx []int32
	allNeed []uint64  // allNeed[j]: octets every rule in wildIdx[j:] of its node needs
	verdict []Verdict // verdict[i]: the Verdict for rule i deciding, built once
	jump    jumpTable // where walks of paths with known first octets start
}

// node is a node of the radix tree. Its children are the nodes
// first..first+n-1, sorted by the first octet of their label; the label of
// the edge into the node is labels[labOff : labOff+labLen], and head holds
// its first (up to) eight octets, mask selecting them.
type node struct {
	first, n       int32
	kids           [4]uint64 // bit b set: a child's label starts with octet b
	base           [4]uint8  // base[w]: the number of bits set in kids[:w]
	labOff, labLen int32
	head, mask     uint64
	simple         int32 // best pure prefix rule ending here, -1 if none
	simpleAllow    bool  // rules[simple].allow
	anchor         bool  // the jump table has jumps from this node
	wFirst, wLen   int32 // wild rules starting here: wildIdx[wFirst : wFirst+wLen]
}

// litEntry is a rule's literal prefix, the part before its first '*'.
type litEntry struct {
	lit  string
	rule int32
}

func newMatcher(rules []rule, t *texts) *matcher {
	type entry = litEntry
	entries := make([]entry, len(rules))
	for i := range rules {
		lit := t.str(rules[i].pattern)
		if k := strings.IndexByte(lit, '*'); k >= 0 {
			lit = lit[:k]
		}
		entries[i] = entry{lit, int32(i)}
	}
	sortLiterals(entries, 0, 2*bits.Len(uint(len(entries))))

	// Build the radix tree straight from the sorted literals, as a suffix
	// tree is built from a suffix array: keep the path to the previous
	// literal on a stack, pop below the common prefix, split an edge where
	// the new literal branches off, and hang its node below.
	type bnode struct {
		parent int32
		depth  int32
		lit    string // a literal through this node; label = lit[parent depth:depth]
	}
	bn := make([]bnode, 1, 2*len(entries)+1)
	bn[0] = bnode{parent: -1}
	simple := make([]int32, 1, 2*len(entries)+1)
	simple[0] = -1
	type wildAt struct{ node, idx int32 }
	var wilds []wildAt
	m := &matcher{}
	stack := []int32{0}
	prev := ""
	for _, e := range entries {
		l := commonPrefix(prev, e.lit)
		last := int32(-1)
		for bn[stack[len(stack)-1]].depth > int32(l) {
			last = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
		top := stack[len(stack)-1]
		if bn[top].depth < int32(l) {
			x := int32(len(bn))
			bn = append(bn, bnode{parent: top, depth: int32(l), lit: e.lit})
			simple = append(simple, -1)
			bn[last].parent = x
			stack = append(stack, x)
			top = x
		}
		if int32(len(e.lit)) > bn[top].depth {
			y := int32(len(bn))
			bn = append(bn, bnode{parent: top, depth: int32(len(e.lit)), lit: e.lit})
			simple = append(simple, -1)
			stack = append(stack, y)
			top = y
		}
		prev = e.lit
		r := &rules[e.rule]
		if !r.anchored && len(e.lit) == int(r.pattern.n) {
			if s := simple[top]; s < 0 || (r.allow && !rules[s].allow) {
				simple[top] = e.rule
			}
			continue
		}
		wilds = append(wilds, wildAt{top, int32(len(m.wild))})
		m.wild = append(m.wild, compileWild(r, t.str(r.pattern), e.rule, len(e.lit)))
	}

	// Lay the tree out: children of a node contiguous, in label order.
	// Nodes were created in the order of the sorted literals, and a node
	// splitting an edge takes the place of the newest child of its parent,
	// so a stable counting sort of the nodes by parent keeps every node's
	// children in label order.
	start := make([]int32, len(bn)+1)
	for id := 1; id < len(bn); id++ {
		start[bn[id].parent+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	order := make([]int32, len(bn)-1)
	for id := 1; id < len(bn); id++ {
		p := bn[id].parent
		order[start[p]] = int32(id)
		start[p]++
	}
	first := func(id int32) byte { return bn[id].lit[bn[bn[id].parent].depth] }
	// Number the nodes in that order, so that a node's children are the
	// nodes that follow its first one.
	newID := make([]int32, len(bn))
	for i, id := range order {
		newID[id] = int32(i + 1)
	}
	m.nodes = make([]node, len(bn))
	size := 0
	for _, id := range order {
		size += int(bn[id].depth - bn[bn[id].parent].depth)
	}
	labels := make([]byte, 0, size)
	for id := range m.nodes {
		nd := &m.nodes[newID[id]]
		nd.simple = simple[id]
		if simple[id] >= 0 {
			nd.simpleAllow = rules[simple[id]].allow
		}
	}
	for i, id := range order {
		b := &bn[id]
		p := &m.nodes[newID[b.parent]]
		if p.n == 0 {
			p.first = int32(i + 1)
		}
		p.n++
		f := first(id)
		p.kids[f>>6] |= 1 << (f & 63)
		c := &m.nodes[i+1]
		c.labOff = int32(len(labels))
		lab := b.lit[bn[b.parent].depth:b.depth]
		labels = append(labels, lab...)
		c.labLen = int32(len(lab))
		h := min(len(lab), 8)
		for k := h - 1; k >= 0; k-- {
			c.head = c.head<<8 | uint64(lab[k])
		}
		c.mask = ^uint64(0) >> (64 - 8*h)
	}
	for i := range m.nodes {
		nd := &m.nodes[i]
		for w := 1; w < 4; w++ {
			nd.base[w] = nd.base[w-1] + uint8(bits.OnesCount64(nd.kids[w-1]))
		}
	}
	m.labels = string(labels)
	for i := range wilds {
		wilds[i].node = newID[wilds[i].node]
	}
	slices.SortFunc(wilds, func(a, b wildAt) int {
		if a.node != b.node {
			return int(a.node - b.node)
		}
		wa, wb := &m.wild[a.idx], &m.wild[b.idx]
		switch {
		case wa.prio != wb.prio:
			return int(wb.prio - wa.prio)
		case wa.allow != wb.allow:
			if wa.allow {
				return -1
			}
			return 1
		}
		return int(wa.rule - wb.rule)
	})
	m.wildIdx = make([]int32, len(wilds))
	for i, w := range wilds {
		m.wildIdx[i] = w.idx
		nd := &m.nodes[w.node]
		if nd.wLen == 0 {
			nd.wFirst = int32(i)
		}
		nd.wLen++
	}
	m.fillAllNeed()
	if len(bn) >= jumpMinNodes {
		depth := make([]int32, len(bn))
		for id := range bn {
			depth[newID[id]] = bn[id].depth
		}
		m.fillJump(depth)
	}
	return m
}

// compareLiterals orders entries by literal, then by rule index.
func compareLiterals(a, b litEntry) int {
	if c := strings.Compare(a.lit, b.lit); c != 0 {
		return c
	}
	return int(a.rule - b.rule)
}

// octetAt returns s[d], or -1 if s is that short.
func octetAt(s string, d int) int {
	if d < len(s) {
		return int(s[d])
	}
	return -1
}

// sortLiterals sorts e, whose literals share their first d octets, by
// compareLiterals. It is a multikey quicksort (each octet is looked at a
// few times, not once per comparison of long common prefixes); after depth
// partitions that split e without finishing, it leaves the rest to
// slices.SortFunc, whose time is O(n log n) whatever the input. Octets all
// literals share are skipped together, comparing a word at a time.
func sortLiterals(e []litEntry, d, depth int) {
	for len(e) > 12 {
		if depth == 0 {
			slices.SortFunc(e, compareLiterals)
			return
		}
		piv := octetAt(e[len(e)/2].lit, d)
		lt, i, gt := 0, 0, len(e)
		for i < gt {
			switch c := octetAt(e[i].lit, d); {
			case c < piv:
				e[lt], e[i] = e[i], e[lt]
				lt++
				i++
			case c > piv:
				gt--
				e[i], e[gt] = e[gt], e[i]
			default:
				i++
			}
		}
		if lt == 0 && gt == len(e) && piv >= 0 {
			// All share octet d: skip every octet they all share.
			l := len(e[0].lit)
			for i := 1; i < len(e) && l > d+1; i++ {
				l = min(l, commonPrefix(e[0].lit, e[i].lit))
			}
			d = max(l, d+1)
			continue
		}
		depth--
		sortLiterals(e[:lt], d, depth)
		sortLiterals(e[gt:], d, depth)
		if piv < 0 { // equal literals
			slices.SortFunc(e[lt:gt], compareLiterals)
			return
		}
		e, d = e[lt:gt], d+1
	}
	for i := 1; i < len(e); i++ {
		for j := i; j > 0 && compareLiterals(e[j], e[j-1]) < 0; j-- {
			e[j], e[j-1] = e[j-1], e[j]
		}
	}
}

// commonPrefix returns the length of the longest common prefix of a and b,
// comparing eight octets at a time.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	l := 0
	for ; l+8 <= n; l += 8 {
		if x := load64(a[l:]) ^ load64(b[l:]); x != 0 {
			return l + bits.TrailingZeros64(x)/8
		}
	}
	for l < n && a[l] == b[l] {
		l++
	}
	return l
}

// wildRule is the part of a rule after its literal prefix: segments to find
// in order, left to right, then an optional suffix anchored at the end.
type wildRule struct {
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
	for i := range m.nodes {
		nd := &m.nodes[i]
		acc := ^uint64(0)
		for j := nd.wFirst + nd.wLen - 1; j >= nd.wFirst; j-- {
			acc &= m.wild[m.wildIdx[j]].need
			m.allNeed[j] = acc
		}
	}
}

// best returns the index of the deciding rule for the normalised path u, or
// -1 if no rule matches: the longest match in octets, Allow on a tie.
func (m *matcher) best(u string, steps *int) int {
	best, bestPrio, bestAllow := int32(-1), -1, false
	n, d, walked := int32(0), 0, 0
	var uset uint64
	haveSet := false
	nodes := m.nodes
	for {
		nd := &nodes[n]
		if s := nd.simple; s >= 0 {
			if a := nd.simpleAllow; d > bestPrio || d == bestPrio && a && !bestAllow {
				best, bestPrio, bestAllow = s, d, a
			}
		}
		if nd.wLen > 0 {
			if !haveSet {
				// A cheap filter: skip rules needing an octet u lacks.
				uset, haveSet = octetSet(uset, u), true
				walked += len(u)
			}
			for j := nd.wFirst; j < nd.wFirst+nd.wLen; j++ {
				if m.allNeed[j]&^uset != 0 {
					break // every rule left needs an octet u lacks
				}
				w := &m.wild[m.wildIdx[j]]
				p := int(w.prio)
				if !(p > bestPrio || p == bestPrio && w.allow && !bestAllow) {
					break
				}
				if w.need&^uset != 0 {
					continue
				}
				if w.match(u, d, steps) {
					best, bestPrio, bestAllow = w.rule, p, w.allow
					break
				}
			}
		}
		if d >= len(u) || nd.n == 0 {
			break
		}
		if nd.anchor && d+jumpLen <= len(u) {
			if s := m.jump.lookup(n, load64(u[d:])); s != nil {
				if p, a := int(s.prio), s.allow; s.best >= 0 && (p > bestPrio || p == bestPrio && a && !bestAllow) {
					best, bestPrio, bestAllow = s.best, p, a
				}
				walked += int(s.depth) - d
				n, d = s.to, int(s.depth)
				continue
			}
		}
		// Find the child whose label starts with u[d]: its index among
		// the siblings is the number of smaller first octets.
		b := u[d]
		w, bit := b>>6, uint64(1)<<(b&63)
		kw := nd.kids[w&3]
		if kw&bit == 0 {
			break
		}
		n = nd.first + int32(nd.base[w&3]) + int32(bits.OnesCount64(kw&(bit-1)))
		c := &nodes[n]
		l := int(c.labLen)
		walked += l
		if rest := u[d:]; len(rest) >= 8 {
			if (load64(rest)^c.head)&c.mask != 0 {
				break
			}
			if l > 8 && (len(rest) < l || !sameOctets(rest[8:l], m.labels[c.labOff+8:c.labOff+c.labLen])) {
				break
			}
		} else if len(rest) < l || rest[:l] != m.labels[c.labOff:c.labOff+c.labLen] {
			break
		}
		d += l
	}
	*steps += walked
	return int(best)
}

// sameOctets reports whether a and b, of equal length, are equal,
// comparing eight octets at a time.
func sameOctets(a, b string) bool {
	for len(a) >= 8 {
		if load64(a) != load64(b) {
			return false
		}
		a, b = a[8:], b[8:]
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// load64 returns the first eight octets of s, which must have that many,
// as one word.
func load64(s string) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s), 8))
}

// load32 returns the first four octets of s, which must have that many,
// as one word.
func load32(s string) uint32 {
	return binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s), 4))
}

// decideSlow decides a path that needs rewriting into normal form, using
// a stack buffer for paths of ordinary length.
//
//go:noinline
func (g *Group) decideSlow(path string, slash bool) (int, Reason) {
	var buf [1024]byte
	b := buf[:0]
	if slash {
		b = append(b, '/')
	}
	b = appendNormal(b, path, false)
	var steps int
	// The string is only read while deciding and never retained.
	return g.decide(unsafe.String(unsafe.SliceData(b), len(b)), &steps)
}
