package robots

import (
	"slices"
	"strings"
)

// builder holds the state of newMatcher: the rules' literal prefixes (the
// parts before the first '*') back to back in lits, then eight zeros, lit
// i being lits[off[i]:off[i+1]], and the radix tree over them, built by inserting
// the literals one by one. Nothing in it holds a pointer but the strings
// it reads, so building costs the garbage collector nothing.
type builder struct {
	rules []rule
	t     *texts
	lits  string
	off   []int32
	nodes []bnode
	wilds []wildAt // the rules with '*' or '$', in lists by the node where their literals end
	path  []step   // the nodes from the root to where the last literal ended
}

// step is a node on builder.path and its depth.
type step struct{ node, depth int32 }

// bnode is a node of the tree being built. Its label is lit(src)[d:depth],
// d being its parent's depth.
type bnode struct {
	first, next int32 // the first child and the next sibling, in label order; -1 if none
	src         int32 // a rule whose literal passes through the node
	depth       int32
	simple      int32 // the best pure prefix rule ending here; -1 if none
	wild        int32 // the first of the wildcard rules ending here, in builder.wilds; -1 if none
	octet       byte  // the label's first octet
	kids        uint8 // the number of children, up to 9
}

// wildAt is a wildcard rule in the list of its node.
type wildAt struct{ rule, next int32 }

// newMatcher compiles rules, whose spans point into t. It takes time
// linear in the octets of the patterns (times at most the 256 possible
// first octets of a node's children).
func newMatcher(rules []rule, t *texts) *matcher {
	b := builder{rules: rules, t: t, off: make([]int32, len(rules)+1)}
	size := 0
	for i := range rules {
		size += int(rules[i].pattern.n)
	}
	var lits strings.Builder
	lits.Grow(size + 8)
	for i := range rules {
		p := t.str(rules[i].pattern)
		if k := strings.IndexByte(p, '*'); k >= 0 {
			p = p[:k]
		}
		lits.WriteString(p)
		b.off[i+1] = int32(lits.Len())
	}
	lits.WriteString("\x00\x00\x00\x00\x00\x00\x00\x00") // see sameRest
	b.lits = lits.String()
	b.nodes = make([]bnode, 1, 2*len(rules)+1)
	b.nodes[0] = bnode{first: -1, next: -1, simple: -1, wild: -1}
	b.path = make([]step, 1, 16)
	for i := range rules {
		b.insert(int32(i))
	}
	m := &matcher{trie: trie{none: int32(len(rules))}}
	order := b.layout(m)
	b.placeWild(m, order)
	return m
}

// hotCopy returns a copy of the cold matcher m with a jump table, if its
// tree is large enough for one, and the Verdicts v.
func (m *matcher) hotCopy(v []Verdict) *matcher {
	h := &matcher{trie: m.trie, hot: true, verdict: v}
	if len(m.nodes) >= jumpMinNodes {
		h.nodes = slices.Clone(m.nodes)
		h.fillJump()
	}
	return h
}

// lit returns the literal of rule i.
func (b *builder) lit(i int32) string { return b.lits[b.off[i]:b.off[i+1]] }

// add appends x to the tree and returns its number.
func (b *builder) add(x bnode) int32 {
	b.nodes = append(b.nodes, x)
	return int32(len(b.nodes) - 1)
}

// insert adds the literal of rule i to the tree and attaches the rule to
// the node where the literal ends. Rules in a file come in families that
// share long prefixes, so it starts from the deepest node of the last
// literal's path that is a prefix of this one, and goes on into the child
// the last literal took if it can.
func (b *builder) insert(i int32) {
	lit := b.lit(i)
	hint := int32(-1) // a child of the start node, on the last literal's path
	if i > 0 {
		l := int32(commonPrefix(b.lit(i-1), lit))
		last := len(b.path)
		for b.path[len(b.path)-1].depth > l {
			b.path = b.path[:len(b.path)-1]
		}
		if len(b.path) < last {
			hint = b.path[:last][len(b.path)].node
		}
	}
	top := b.path[len(b.path)-1]
	n, d := top.node, top.depth
	for d < int32(len(lit)) {
		o := lit[d]
		c := hint
		if c < 0 || b.nodes[c].octet != o {
			// Find the child of n whose label starts with o, or where one
			// would go.
			prev := int32(-1)
			if c = b.nodes[n].first; hint >= 0 && b.nodes[hint].octet < o {
				prev, c = hint, b.nodes[hint].next
			}
			for c >= 0 && b.nodes[c].octet < o {
				prev, c = c, b.nodes[c].next
			}
			if c < 0 || b.nodes[c].octet != o {
				x := b.add(bnode{first: -1, next: c, src: i, depth: int32(len(lit)), simple: -1, wild: -1, octet: o})
				if k := &b.nodes[n].kids; *k <= 8 {
					*k++
				}
				if prev < 0 {
					b.nodes[n].first = x
				} else {
					b.nodes[prev].next = x
				}
				n = x
				b.path = append(b.path, step{n, int32(len(lit))})
				break
			}
		}
		hint = -1
		cn := b.nodes[c]
		k := int32(commonPrefix(b.lit(cn.src)[d:cn.depth], lit[d:]))
		if d+k < cn.depth {
			// The literal leaves c's label: split it, c keeping the
			// upper part and its place among its siblings.
			y := b.add(bnode{first: cn.first, next: -1, src: cn.src, depth: cn.depth, simple: cn.simple,
				wild: cn.wild, octet: b.lits[b.off[cn.src]+d+k], kids: cn.kids})
			x := &b.nodes[c]
			x.first, x.depth, x.simple, x.wild, x.kids = y, d+k, -1, -1, 1
		}
		n, d = c, d+k
		b.path = append(b.path, step{n, d})
	}
	r := &b.rules[i]
	if r.anchored || int(r.pattern.n) != len(lit) {
		b.wilds = append(b.wilds, wildAt{i, b.nodes[n].wild})
		b.nodes[n].wild = int32(len(b.wilds) - 1)
		return
	}
	// Of equal pure prefix rules, an Allow wins, then the earliest.
	if s := b.nodes[n].simple; s < 0 || r.allow && !b.rules[s].allow {
		b.nodes[n].simple = i
	}
}

// layout numbers the tree's nodes breadth first, so that the children of
// each node are consecutive and in label order, and fills m.nodes,
// m.labels, m.wide and m.simple, in one pass. It returns the builder's node
// for each new number.
func (b *builder) layout(m *matcher) []int32 {
	nn := len(b.nodes)
	order := make([]int32, 1, nn) // new number -> builder node
	m.nodes = make([]node, nn)
	m.simple = make([]int64, nn)
	wide := 0
	for i := range b.nodes {
		if b.nodes[i].kids > 8 {
			wide++
		}
	}
	m.wide = make([]wideKids, 0, wide)
	pct := strings.IndexByte(b.lits, '%') >= 0
	m.pct = pct
	for q := 0; q < len(order); q++ {
		bn := &b.nodes[order[q]]
		nd := &m.nodes[q]
		if s := bn.simple; s >= 0 {
			a := 0
			if b.rules[s].allow {
				a = 1
			}
			m.simple[q] = ruleKey(int(bn.depth), a, s)
			nd.lab |= nodeSimple << labBits
		}
		nd.first = int32(len(order))
		var kids uint64
		var w *wideKids
		k := 0
		for c := bn.first; c >= 0; c = b.nodes[c].next {
			cb := &b.nodes[c]
			cd := &m.nodes[len(order)]
			order = append(order, c)
			// The child's label.
			from, to := b.off[cb.src]+bn.depth, b.off[cb.src]+cb.depth
			lab := b.lits[from:to]
			cd.labOff = from
			cd.lab |= uint32(len(lab))
			cd.shift = uint8(64 - 8*min(len(lab), 8))
			cd.head = load64(b.lits[from:]) & (^uint64(0) >> cd.shift)
			if pct && !escapesKept(lab, strings.IndexByte(lab, '%'), len(lab)) {
				cd.lab |= nodePct << labBits // see sameEscapes
			}
			// Its first octet, among its siblings'.
			switch {
			case k < 8:
				kids |= uint64(cb.octet) << (8 * k)
			case k == 8:
				m.wide = append(m.wide, wideKids{})
				w = &m.wide[len(m.wide)-1]
				for i := range 8 {
					w.index[byte(kids>>(8*i))] = uint8(i + 1)
				}
				fallthrough
			default:
				w.index[cb.octet] = uint8(k + 1)
			}
			k++
		}
		switch {
		case k == 0:
			nd.lab |= nodeLeaf << labBits
		case k <= 8:
			// Pad with the last child's octet: a match there is also
			// found at the child's own, lower, position.
			if k < 8 {
				last := kids >> (8 * (k - 1)) & 0xFF
				kids |= last * lowOctets << (8 * k)
			}
			nd.kids = kids
		default:
			nd.kids = uint64(len(m.wide) - 1)
			nd.lab |= nodeWide << labBits
		}
	}
	// The labels are parts of the literals, which end with eight zeros
	// (see sameRest).
	m.labels = b.lits
	return order
}
