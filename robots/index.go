package robots

import "strings"

// agentIndex maps lower-cased product tokens to their (merged) groups. It
// is an open-addressing hash table whose slots hold no pointers, so it
// costs the garbage collector nothing to scan, and a lookup folds the case
// of the token as it hashes it, without a lower-cased copy.
type agentIndex struct {
	keys   string      // the tokens, lower-cased, back to back
	slots  []agentSlot // a power of two of them, at most three quarters full
	merged []*Group    // the groups of tokens named by several groups
}

type agentSlot struct {
	hash   uint32
	off, n uint32 // the token is keys[off : off+n]; n == 0: empty slot
	group  int32  // >= 0: the index of the group in Robots.recs; else merged[-1-group]
}

// foldHash is 32-bit FNV-1a over s with ASCII letters lower-cased.
func foldHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h = (h ^ uint32(c)) * 16777619
	}
	return h
}

// equalLower reports whether s equals lower, a lower-cased token, ignoring
// the case of ASCII letters in s.
func equalLower(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// find returns the slot for tok (in any case): the slot holding it, or the
// empty slot where it belongs.
func (x *agentIndex) find(tok string, h uint32) *agentSlot {
	mask := uint32(len(x.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &x.slots[i]
		if s.n == 0 || s.hash == h && equalLower(tok, x.keys[s.off:s.off+s.n]) {
			return s
		}
	}
}

// get returns the group for tok, a non-empty product token in any case
// (see agentSlot.group), and whether there is one.
func (x *agentIndex) get(tok string) (int32, bool) {
	if s := x.slot(tok); s != nil {
		return s.group, true
	}
	return 0, false
}

// slot returns the slot holding tok, a non-empty product token in any
// case, or nil if there is none.
func (x *agentIndex) slot(tok string) *agentSlot {
	if len(x.slots) == 0 {
		return nil
	}
	if s := x.find(tok, foldHash(tok)); s.n != 0 {
		return s
	}
	return nil
}

// indexAgents fills the index with every group's product tokens,
// lower-cased (RFC 9309 2.2.1). It returns the groups of each token that
// several groups name, by the offset of the token's key, and the groups
// that name "*".
func (p *parser) indexAgents() (dups map[uint32][]int32, stars []int32) {
	keys, ends := p.agentKeys()
	nslots := 2 // at most three quarters full, so a probe always ends
	for 3*nslots < 4*len(p.agents) {
		nslots *= 2
	}
	x := &p.r.index
	x.keys, x.slots = keys, make([]agentSlot, nslots)
	recs := p.r.recs
	for gi := range recs {
		for i := recs[gi].agentFrom; i < recs[gi].agentTo; i++ {
			start := int32(0)
			if i > 0 {
				start = ends[i-1]
			}
			key := keys[start:ends[i]]
			switch {
			case key == "":
				continue
			case key == "*":
				if len(stars) == 0 || stars[len(stars)-1] != int32(gi) {
					stars = append(stars, int32(gi))
				}
				continue
			}
			h := foldHash(key)
			s := x.find(key, h)
			if s.n == 0 {
				*s = agentSlot{hash: h, off: uint32(start), n: uint32(len(key)), group: int32(gi)}
				continue
			}
			if s.group == int32(gi) {
				continue
			}
			if dups == nil {
				dups = map[uint32][]int32{}
			}
			if dups[s.off] == nil {
				dups[s.off] = []int32{s.group}
			}
			if l := dups[s.off]; l[len(l)-1] != int32(gi) {
				dups[s.off] = append(l, int32(gi))
			}
		}
	}
	return dups, stars
}

// agentKeys returns the product tokens of p.agents, lower-cased, back to
// back in one string ("*" for a "*" value), and where each ends in it.
func (p *parser) agentKeys() (string, []int32) {
	size := 0
	for _, s := range p.agents {
		size += int(s.n)
	}
	var keys strings.Builder
	keys.Grow(size)
	ends := make([]int32, len(p.agents))
	for i, s := range p.agents {
		a := p.body[s.off : s.off+s.n]
		if isStar(a) {
			keys.WriteByte('*')
		} else {
			// The product token, lower-cased (RFC 9309 2.2.1).
			for j := 0; j < len(a); j++ {
				c := tokenLower[a[j]]
				if c == 0 {
					break
				}
				keys.WriteByte(c)
			}
		}
		ends[i] = int32(keys.Len())
	}
	return keys.String(), ends
}
