package robots

import "math/bits"

// jumpLen is the number of leading path octets a jumpTable is keyed by.
const jumpLen = 8

// jumpTable lets a walk of the radix tree start below the root: for the
// first jumpLen octets of a path, the deepest node at most jumpLen deep
// that the walk would reach, with the best pure prefix rule it would have
// met on the way. Only walks that meet no wildcard rule before that node
// get an entry; a path without one is walked from the root. The table is
// open addressing over the eight octets as one word (a key is never 0:
// paths start with '/').
type jumpTable struct {
	keys  []uint64 // a power of two of them; 0: empty slot
	vals  []jumpVal
	shift uint8 // 64 - log2(len(keys))
}

type jumpVal struct {
	node, depth int32
	best, prio  int32 // the best pure prefix rule passed (-1 if none) and its length
	allow       bool  // whether it allows
}

// slot returns the first slot to probe for key k.
func (j *jumpTable) slot(k uint64) uint64 {
	return (k * 0x9E3779B97F4A7C15) >> j.shift
}

// lookup returns the entry for the first jumpLen octets of u, which must
// have that many.
func (j *jumpTable) lookup(u string) (jumpVal, bool) {
	k := load64(u)
	mask := uint64(len(j.keys) - 1)
	for s := j.slot(k); ; s = (s + 1) & mask {
		switch j.keys[s] {
		case k:
			return j.vals[s], true
		case 0:
			return jumpVal{}, false
		}
	}
}

// fillJump builds m.jump from the laid-out tree.
func (m *matcher) fillJump() {
	type entry struct {
		key uint64
		val jumpVal
	}
	var entries []entry
	var path [jumpLen]byte
	// visit goes down from node n at depth d (its label ends there); best
	// and allow describe the pure prefix rules of n's proper ancestors.
	var visit func(n int32, d int, best, prio int32, allow bool)
	visit = func(n int32, d int, best, prio int32, allow bool) {
		nd := &m.nodes[n]
		if nd.wLen > 0 {
			return // a walk below n must try n's wildcard rules
		}
		below, belowPrio, belowAllow := best, prio, allow // for walks that go on below n
		if s := nd.simple; s >= 0 {
			below, belowPrio, belowAllow = s, int32(d), nd.simpleAllow // longer than any ancestor's
		}
		kids := 0
		for w := range nd.kids {
			kids += bits.OnesCount64(nd.kids[w])
		}
		for c := nd.first; c < nd.first+int32(kids); c++ {
			cn := &m.nodes[c]
			lab := m.labels[cn.labOff : cn.labOff+cn.labLen]
			cd := d + len(lab)
			if cd < jumpLen {
				copy(path[d:], lab)
				visit(c, cd, below, belowPrio, belowAllow)
				continue
			}
			copy(path[d:], lab[:jumpLen-d])
			v := jumpVal{node: n, depth: int32(d), best: best, prio: prio, allow: allow}
			if cd == jumpLen && cn.wLen == 0 {
				v = jumpVal{node: c, depth: jumpLen, best: below, prio: belowPrio, allow: belowAllow}
			}
			if v.depth == 0 {
				continue // no better than starting at the root
			}
			entries = append(entries, entry{load64(string(path[:])), v})
		}
	}
	// The root's own rules are looked at by every walk, so the root is
	// never skipped: start below it.
	root := &m.nodes[0]
	if root.wLen > 0 || root.simple >= 0 {
		return
	}
	visit(0, 0, -1, -1, false)
	if len(entries) == 0 {
		return
	}
	size := 2
	for size < 2*len(entries) {
		size *= 2
	}
	j := &m.jump
	j.keys = make([]uint64, size)
	j.vals = make([]jumpVal, size)
	j.shift = uint8(64 - bits.TrailingZeros(uint(size)))
	for _, e := range entries {
		s := j.slot(e.key)
		for j.keys[s] != 0 {
			s = (s + 1) & uint64(size-1)
		}
		j.keys[s], j.vals[s] = e.key, e.val
	}
}
