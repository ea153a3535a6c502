package robots

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"strings"
)

// builder holds the state of newMatcher: the rules' literal prefixes (the
// parts before the first '*') back to back in lits, lit i being
// lits[off[i]:off[i+1]], and the radix tree over them, built by inserting
// the literals one by one. Nothing in it holds a pointer but the strings
// it reads, so building costs the garbage collector nothing.
type builder struct {
	rules []rule
	t     *texts
	lits  []byte
	off   []int32
	nodes []bnode
	wilds []wildAt // the rules with '*' or '$', where their literals end
	path  []int32  // the nodes from the root to where the last literal ended
}

// bnode is a node of the tree being built. Its label is lit(src)[d:depth],
// d being its parent's depth.
type bnode struct {
	first, next int32 // the first child and the next sibling, in label order; -1 if none
	src         int32 // a rule whose literal passes through the node
	depth       int32
	simple      int32 // the best pure prefix rule ending here; -1 if none
	octet       byte  // the label's first octet
}

type wildAt struct{ node, rule int32 }

// newMatcher compiles rules, whose spans point into t. It takes time
// linear in the octets of the patterns (times at most the 256 possible
// first octets of a node's children).
func newMatcher(rules []rule, t *texts) *matcher {
	b := builder{rules: rules, t: t, off: make([]int32, len(rules)+1)}
	size := 0
	for i := range rules {
		size += int(rules[i].pattern.n)
	}
	b.lits = make([]byte, 0, size+8) // 8: see commonPrefixBytes
	for i := range rules {
		p := t.str(rules[i].pattern)
		if k := strings.IndexByte(p, '*'); k >= 0 {
			p = p[:k]
		}
		b.lits = append(b.lits, p...)
		b.off[i+1] = int32(len(b.lits))
	}
	b.lits = append(b.lits, 0, 0, 0, 0, 0, 0, 0, 0)[:len(b.lits)]
	b.nodes = make([]bnode, 1, 2*len(rules)+1)
	b.nodes[0] = bnode{first: -1, next: -1, simple: -1}
	b.path = make([]int32, 1, 16)
	for i := range rules {
		b.insert(int32(i))
	}
	m := &matcher{none: int32(len(rules))}
	b.layout(m)
	b.placeWild(m)
	return m
}

// hotCopy returns a copy of the cold matcher m with a jump table, if its
// tree is large enough for one, and the Verdicts v.
func (m *matcher) hotCopy(v []Verdict) *matcher {
	h := &matcher{nodes: m.nodes, labels: m.labels, simple: m.simple, wide: m.wide, wild: m.wild,
		wildFrom: m.wildFrom, allNeed: m.allNeed, none: m.none, deny: m.deny, hot: true, verdict: v}
	if len(m.nodes) >= jumpMinNodes {
		h.nodes = slices.Clone(m.nodes)
		h.fillJump()
	}
	return h
}

// lit returns the literal of rule i.
func (b *builder) lit(i int32) []byte { return b.lits[b.off[i]:b.off[i+1]] }

// add appends x to the tree and returns its number.
func (b *builder) add(x bnode) int32 {
	b.nodes = append(b.nodes, x)
	return int32(len(b.nodes) - 1)
}

// insert adds the literal of rule i to the tree and attaches the rule to
// the node where the literal ends. Rules in a file come in families that
// share long prefixes, so it starts from the deepest node of the last
// literal's path that is a prefix of this one.
func (b *builder) insert(i int32) {
	lit := b.lit(i)
	if i > 0 {
		l := int32(commonPrefixBytes(b.lit(i-1), lit))
		for b.nodes[b.path[len(b.path)-1]].depth > l {
			b.path = b.path[:len(b.path)-1]
		}
	}
	n := b.path[len(b.path)-1]
	d := b.nodes[n].depth
	for d < int32(len(lit)) {
		// Find the child of n whose label starts with lit[d], or where
		// one would go.
		o := lit[d]
		prev, c := int32(-1), b.nodes[n].first
		for c >= 0 && b.nodes[c].octet < o {
			prev, c = c, b.nodes[c].next
		}
		if c < 0 || b.nodes[c].octet != o {
			x := b.add(bnode{first: -1, next: c, src: i, depth: int32(len(lit)), simple: -1, octet: o})
			b.link(n, prev, x)
			n = x
			b.path = append(b.path, n)
			break
		}
		cn := b.nodes[c]
		k := int32(commonPrefixBytes(b.lit(cn.src)[d:cn.depth], lit[d:]))
		if d+k < cn.depth {
			// The literal leaves c's label: split it.
			x := b.add(bnode{first: c, next: cn.next, src: cn.src, depth: d + k, simple: -1, octet: o})
			b.nodes[c].next = -1
			b.nodes[c].octet = b.lits[b.off[cn.src]+d+k]
			b.link(n, prev, x)
			c = x
		}
		n, d = c, d+k
		b.path = append(b.path, n)
	}
	r := &b.rules[i]
	if r.anchored || int(r.pattern.n) != len(lit) {
		b.wilds = append(b.wilds, wildAt{n, i})
		return
	}
	// Of equal pure prefix rules, an Allow wins, then the earliest.
	if s := b.nodes[n].simple; s < 0 || r.allow && !b.rules[s].allow {
		b.nodes[n].simple = i
	}
}

// link makes x the child of n that follows prev (the first if prev < 0).
func (b *builder) link(n, prev, x int32) {
	if prev < 0 {
		b.nodes[n].first = x
	} else {
		b.nodes[prev].next = x
	}
}

// layout numbers the tree's nodes breadth first, so that the children of
// each node are consecutive and in label order, and fills m.nodes,
// m.labels and m.simple.
func (b *builder) layout(m *matcher) {
	nn := len(b.nodes)
	buf := make([]int32, 4*nn)
	order, depth, count, newID := buf[:0:nn], buf[nn:2*nn], buf[2*nn:3*nn], buf[3*nn:]
	order = append(order, 0)
	size := 0
	for q := 0; q < len(order); q++ {
		n := order[q]
		newID[n] = int32(q)
		for c := b.nodes[n].first; c >= 0; c = b.nodes[c].next {
			order = append(order, c)
			size += int(b.nodes[c].depth - b.nodes[n].depth)
		}
	}
	m.nodes = make([]node, nn)
	labels := make([]byte, 0, size+8)
	for q, n := range order {
		bn := &b.nodes[n]
		depth[q] = bn.depth
		nd := &m.nodes[q]
		k := 0
		for c := bn.first; c >= 0; c = b.nodes[c].next {
			cq := newID[c]
			if k == 0 {
				nd.first = cq
			}
			k++
			// The child's label.
			cd := &m.nodes[cq]
			lab := b.lit(b.nodes[c].src)[bn.depth:b.nodes[c].depth]
			cd.labOff = int32(len(labels))
			cd.lab = uint32(len(lab))
			labels = append(labels, lab...)
			h := min(len(lab), 8)
			cd.shift = uint8(64 - 8*h)
			cd.head = loadBytes(lab[:cap(lab)]) & (^uint64(0) >> cd.shift)
			if bytes.IndexByte(lab, '%') >= 0 {
				cd.lab |= nodePct << labBits
			}
		}
		count[q] = int32(k)
	}
	m.labels = string(append(labels, 0, 0, 0, 0, 0, 0, 0, 0))[:len(labels)] // see sameRest
	m.layoutKids(count)
	m.simple = make([]int64, nn)
	for q, n := range order {
		if s := b.nodes[n].simple; s >= 0 {
			a := 0
			if b.rules[s].allow {
				a = 1
			}
			m.simple[q] = ruleKey(int(depth[q]), a, s)
			m.nodes[q].lab |= nodeSimple << labBits
		}
	}
	for i := range b.wilds {
		b.wilds[i].node = newID[b.wilds[i].node]
	}
}

// layoutKids fills in how each node finds its children, whose number is
// count[n]: their first octets packed into kids, or for nodes with more
// than eight children an index in m.wide.
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

// loadBytes returns the first eight octets of s as one word.
func loadBytes(s []byte) uint64 { return binary.LittleEndian.Uint64(s) }

// commonPrefixBytes is commonPrefix for parts of builder.lits, which is
// followed by eight octets, so that their last word can be read whole.
func commonPrefixBytes(a, b []byte) int {
	n := min(len(a), len(b))
	l := 0
	for ; l+8 <= n; l += 8 {
		if x := loadBytes(a[l:]) ^ loadBytes(b[l:]); x != 0 {
			return l + bits.TrailingZeros64(x)/8
		}
	}
	if l < n {
		x := loadBytes(a[l:cap(a)]) ^ loadBytes(b[l:cap(b)])
		return min(n, l+bits.TrailingZeros64(x)/8)
	}
	return n
}
