package robots

import (
	"encoding/binary"
	"math/bits"
)

// jumpLen is the most path octets a jump of the radix walk covers.
const jumpLen = 8

// jumpMinNodes is the smallest tree that gets a jump table: walks of
// smaller ones are short, and a lookup that misses costs about a step.
const jumpMinNodes = 32

// jumpMinStride is the fewest octets a jump covers: a lookup costs about
// as much as a step down the tree.
const jumpMinStride = 3

// jumpTable lets a walk of the radix tree cover several octets of the
// path in one step. An anchor node has a stride k (node.shift&7 holds k-1):
// the distance, at most jumpLen, to the nearest node below it that has
// rules. Every path of k octets down the tree from the anchor has a jump,
// keyed by the anchor and the k octets read as one word, to the node
// whose label holds the k-th octet; the walk compares the rest of that
// label and goes on from there. No rule lies strictly inside a jump, so
// the jump skips nothing the walk must see; a path whose k octets have no
// jump leaves the tree within them, and the walk goes on one node at a
// time. It is open addressing over (anchor, word); a word is never 0, as
// labels hold no NUL octets.
type jumpTable struct {
	slots []jumpSlot // a power of two of them; word 0: empty slot
	shift uint8      // 64 - log2(len(slots))
}

type jumpSlot struct {
	word     uint64
	from, to int32 // the anchor and the node the jump lands on
	depth    int32 // the depth of to
	rest     int32 // the octets of to's label past the jump's word
	restOff  int32 // where they start in m.labels
	next     uint8 // to's stride, if to is an anchor
	flags    uint8 // to's flags, and nodePct if a node passed has it
}

// hash returns the first slot to probe for a jump from node from over w.
func (j *jumpTable) hash(from int32, w uint64) uint64 {
	return ((w ^ uint64(from)<<40) * 0x9E3779B97F4A7C15) >> (j.shift & 63)
}

// lookup returns the jump from anchor from over the octets w, or nil.
func (j *jumpTable) lookup(from int32, w uint64) *jumpSlot {
	mask := uint64(len(j.slots) - 1)
	for i := j.hash(from, w); ; i = (i + 1) & mask {
		s := &j.slots[i]
		if s.word == w && s.from == from {
			return s
		}
		if s.word == 0 {
			return nil
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
	// The octets are distinct and in order, padded by repeating the last.
	k := int32(1)
	for x := nd.kids; x>>8 != 0 && byte(x>>8) != byte(x); x >>= 8 {
		k++
	}
	return k
}

// jumpBuilder holds the state of fillJump.
type jumpBuilder struct {
	m      *matcher
	depth  []int32 // depth[n]: the octets from the root to the end of node n's label
	count  []int32 // count[n]: the number of children of node n
	slots  []jumpSlot
	queue  []int32 // candidate anchors
	seen   []bool  // nodes queued
	from   int32   // the anchor being filled
	stride int
	path   [jumpLen]byte
	budget int // nodes the builder may still visit
}

// fillJump builds m.jump from the laid-out tree, marking its anchors. The root and every node a jump lands
// on are candidates; a candidate whose stride is too short passes its
// children on instead. The builder visits a bounded number of nodes, so
// that compiling stays linear; the walk is correct with any subset of the
// jumps.
func (m *matcher) fillJump() {
	nn := len(m.nodes)
	buf := make([]int32, 2*nn)
	depth, count := buf[:nn], buf[nn:]
	for n := range m.nodes {
		k := m.kidCount(int32(n))
		count[n] = k
		for c := m.nodes[n].first; c < m.nodes[n].first+k; c++ {
			depth[c] = depth[n] + int32(m.nodes[c].lab&labMask)
		}
	}
	b := jumpBuilder{m: m, depth: depth, count: count, budget: 8*len(m.nodes) + 64,
		slots: make([]jumpSlot, 0, 32), queue: make([]int32, 1, 16), seen: make([]bool, len(m.nodes))}
	b.seen[0] = true
	for len(b.queue) > 0 && b.budget > 0 {
		b.from, b.queue = b.queue[0], b.queue[1:]
		b.stride = b.strideBelow(b.from, 0, jumpLen)
		if b.stride < jumpMinStride {
			for c, k := m.nodes[b.from].first, b.count[b.from]; k > 0; c, k = c+1, k-1 {
				b.enqueue(c)
			}
			continue
		}
		before := len(b.slots)
		b.visit(b.from, 0, false)
		if len(b.slots) > before {
			m.nodes[b.from].lab |= nodeAnchor << labBits
			m.nodes[b.from].shift |= uint8(b.stride - 1)
		}
	}
	if len(b.slots) == 0 {
		return
	}
	for i := range b.slots {
		s := &b.slots[i]
		to := &m.nodes[s.to]
		s.flags |= uint8(to.lab >> labBits)
		s.next = to.shift&7 + 1
	}
	size := 2
	for size < 2*len(b.slots) {
		size *= 2
	}
	j := &m.jump
	j.slots = make([]jumpSlot, size)
	j.shift = uint8(64 - bits.TrailingZeros(uint(size)))
	for _, s := range b.slots {
		i := j.hash(s.from, s.word)
		for j.slots[i].word != 0 {
			i = (i + 1) & uint64(size-1)
		}
		j.slots[i] = s
	}
}

func (b *jumpBuilder) enqueue(n int32) {
	if !b.seen[n] {
		b.seen[n] = true
		b.queue = append(b.queue, n)
	}
}

// label returns the label of node n.
func (b *jumpBuilder) label(n int32) string {
	nd := &b.m.nodes[n]
	return b.m.labels[nd.labOff : int(nd.labOff)+int(nd.lab&labMask)]
}

// strideBelow returns the least of k and the distances from b.from to the
// nodes with rules below node n, which is rel octets below b.from.
func (b *jumpBuilder) strideBelow(n int32, rel, k int) int {
	for c, left := b.m.nodes[n].first, b.count[n]; left > 0 && b.budget > 0; c, left = c+1, left-1 {
		b.budget--
		cr := rel + len(b.label(c))
		if cr >= k {
			continue
		}
		if b.m.nodes[c].lab&((nodeSimple|nodeWild)<<labBits) != 0 {
			k = cr
			continue
		}
		k = b.strideBelow(c, cr, k)
	}
	return k
}

// visit adds the jumps from b.from that pass through node n, rel octets
// below it; pct reports that a node passed below b.from, n included, has
// the flag nodePct.
func (b *jumpBuilder) visit(n int32, rel int, pct bool) {
	for c, left := b.m.nodes[n].first, b.count[n]; left > 0 && b.budget > 0; c, left = c+1, left-1 {
		b.budget--
		lab := b.label(c)
		if cr := rel + len(lab); cr < b.stride {
			copy(b.path[rel:], lab)
			b.visit(c, cr, pct || b.m.nodes[c].lab&(nodePct<<labBits) != 0)
			continue
		}
		copy(b.path[rel:b.stride], lab)
		clear(b.path[b.stride:])
		rest := int32(len(lab) - (b.stride - rel))
		s := jumpSlot{word: binary.LittleEndian.Uint64(b.path[:]), from: b.from, to: c,
			depth: b.depth[c], rest: rest, restOff: b.m.nodes[c].labOff + int32(len(lab)) - rest}
		if pct {
			s.flags = nodePct
		}
		b.slots = append(b.slots, s)
		b.enqueue(c)
	}
}
