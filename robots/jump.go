package robots

import "math/bits"

// jumpLen is the number of path octets a jump of the radix walk covers.
const jumpLen = 8

// jumpMinNodes is the smallest tree that gets a jump table: walks of
// smaller ones are short, and a lookup that misses costs about a step.
const jumpMinNodes = 32

// jumpTable lets a walk of the radix tree cover eight octets of the path
// in one step. From an anchor node (the root, and every node a jump lands
// on), the next eight octets of the path, read as one word, lead to the
// deepest node at most eight octets below the anchor that the walk would
// reach, if no wildcard rule lies strictly between the two, together with
// the best pure prefix rule on the way. A path without an entry goes on
// one node at a time. It is open addressing over (anchor, word); a word
// is never 0, as a normalised path holds no NUL octets.
type jumpTable struct {
	slots []jumpSlot // a power of two of them; word 0: empty slot
	shift uint8      // 64 - log2(len(slots))
}

type jumpSlot struct {
	word       uint64
	from, to   int32 // the anchor and the node the jump lands on
	depth      int32 // the depth of to: the path octets matched so far
	best, prio int32 // the best pure prefix rule skipped (-1 if none) and its length
	allow      bool  // whether it allows
	_          [3]byte
}

// hash returns the first slot to probe for a jump from node from over w.
func (j *jumpTable) hash(from int32, w uint64) uint64 {
	return ((w + uint64(from)*0x9E3779B97F4A7C15) * 0xBF58476D1CE4E5B9) >> j.shift
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

// jumpBuilder holds the state of fillJump.
type jumpBuilder struct {
	m     *matcher
	depth []int32 // depth[n]: the octets from the root to the end of node n's label
	slots []jumpSlot
	queue []int32 // anchors whose jumps are still to be found
	from  int32   // the anchor being filled
	path  [jumpLen]byte
	limit int
}

// fillJump builds m.jump from the laid-out tree, marking its anchors;
// depth[n] is the depth of node n. It stops adding jumps past a few per
// node, so that compiling stays linear; the walk is correct with any
// subset of the jumps.
func (m *matcher) fillJump(depth []int32) {
	b := jumpBuilder{m: m, depth: depth, limit: 4*len(m.nodes) + 16,
		slots: make([]jumpSlot, 0, 32), queue: make([]int32, 1, 16)}
	m.nodes[0].anchor = true
	for len(b.queue) > 0 && len(b.slots) < b.limit {
		b.from, b.queue = b.queue[0], b.queue[1:]
		b.visit(b.from, 0, -1, -1, false)
	}
	if len(b.slots) == 0 {
		m.nodes[0].anchor = false
		return
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

// visit adds the jumps from b.from that pass through node n, rel octets
// below it; best, prio and allow describe the pure prefix rules strictly
// between b.from and n.
func (b *jumpBuilder) visit(n int32, rel int, best, prio int32, allow bool) {
	nodes := b.m.nodes
	nd := &nodes[n]
	below, belowPrio, belowAllow := best, prio, allow
	if n != b.from {
		if nd.wLen > 0 {
			return // a jump must not skip n's wildcard rules
		}
		if s := nd.simple; s >= 0 {
			below, belowPrio, belowAllow = s, b.depth[n], nd.simpleAllow
		}
	}
	for c := nd.first; c < nd.first+nd.n; c++ {
		if len(b.slots) >= b.limit {
			return
		}
		cn := &nodes[c]
		lab := b.m.labels[cn.labOff : cn.labOff+cn.labLen]
		if cr := rel + len(lab); cr < jumpLen {
			copy(b.path[rel:], lab)
			b.visit(c, cr, below, belowPrio, belowAllow)
			continue
		}
		copy(b.path[rel:], lab[:jumpLen-rel])
		s := jumpSlot{word: load64(string(b.path[:])), from: b.from, to: n, best: best, prio: prio, allow: allow}
		if rel+len(lab) == jumpLen {
			s.to, s.best, s.prio, s.allow = c, below, belowPrio, belowAllow
		}
		if s.to == b.from {
			continue // no progress
		}
		s.depth = b.depth[s.to]
		b.slots = append(b.slots, s)
		if !nodes[s.to].anchor {
			nodes[s.to].anchor = true
			b.queue = append(b.queue, s.to)
		}
	}
}
