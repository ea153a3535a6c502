package robots

import (
	"math/bits"
	"slices"
	"strings"
)

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
	labels := make([]byte, 0, size+8)
	kidCount := make([]int32, len(bn))
	for i, id := range order {
		b := &bn[id]
		pn := newID[b.parent]
		p := &m.nodes[pn]
		if kidCount[pn] == 0 {
			p.first = int32(i + 1)
		}
		kidCount[pn]++
		c := &m.nodes[i+1]
		c.labOff = int32(len(labels))
		lab := b.lit[bn[b.parent].depth:b.depth]
		labels = append(labels, lab...)
		c.lab = uint32(len(lab))
		h := min(len(lab), 8)
		for k := h - 1; k >= 0; k-- {
			c.head = c.head<<8 | uint64(lab[k])
		}
		c.shift = uint8(64 - 8*h)
		if strings.IndexByte(lab, '%') >= 0 {
			c.lab |= nodePct << labBits
		}
	}
	m.labels = string(append(labels, 0, 0, 0, 0, 0, 0, 0, 0))[:len(labels)] // see sameRest
	m.simple = make([]int64, len(bn))
	for id := range m.nodes {
		if s := simple[id]; s >= 0 {
			a := 0
			if rules[s].allow {
				a = 1
			}
			m.simple[newID[id]] = ruleKey(int(bn[id].depth), a, s)
			m.nodes[newID[id]].lab |= nodeSimple << labBits
		}
	}
	m.layoutKids(kidCount)
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
	if len(wilds) > 0 {
		m.wildIdx = make([]int32, len(wilds))
		m.wildFrom = make([]int32, len(m.nodes)+1)
		for i, w := range wilds {
			m.wildIdx[i] = w.idx
			m.wildFrom[w.node+1]++
			m.nodes[w.node].lab |= nodeWild << labBits
		}
		for i := 1; i < len(m.wildFrom); i++ {
			m.wildFrom[i] += m.wildFrom[i-1]
		}
		m.fillAllNeed()
	}
	if len(bn) >= jumpMinNodes {
		depth := make([]int32, len(bn))
		for id := range bn {
			depth[newID[id]] = bn[id].depth
		}
		m.fillJump(depth)
	}
	return m
}

// layoutKids fills in how each node finds its children, whose number is
// count[n]: their first octets packed into kids, or for nodes with more
// than eight children a set in m.wide.
func (m *matcher) layoutKids(count []int32) {
	for n := range m.nodes {
		nd := &m.nodes[n]
		k := int(count[n])
		switch {
		case k == 0:
			nd.lab |= nodeLeaf << labBits
		case k <= 8:
			// Pad with the last child's octet: a match there is also
			// found at the child's own, lower, position.
			var last uint64
			for i := range 8 {
				if i < k {
					last = m.nodes[int(nd.first)+i].head & 0xFF
				}
				nd.kids |= last << (8 * i)
			}
		default:
			var w wideKids
			for i := range k {
				w.index[m.nodes[int(nd.first)+i].head&0xFF] = uint8(i + 1)
			}
			nd.kids = uint64(len(m.wide))
			nd.lab |= nodeWide << labBits
			m.wide = append(m.wide, w)
		}
	}
}

// kidCount returns the number of children of node n.
func (m *matcher) kidCount(n int32) int32 {
	nd := &m.nodes[n]
	switch fl := nd.lab >> labBits; {
	case fl&nodeLeaf != 0:
		return 0
	case fl&nodeWide != 0:
		k := int32(0)
		for _, i := range &m.wide[nd.kids].index {
			k = max(k, int32(i))
		}
		return k
	}
	k := int32(1)
	for i := 1; i < 8; i++ {
		if byte(nd.kids>>(8*i)) != byte(nd.kids>>(8*i-8)) {
			k++
		}
	}
	return k
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
