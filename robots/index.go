package robots

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
	if len(x.slots) == 0 {
		return 0, false
	}
	if s := x.find(tok, foldHash(tok)); s.n != 0 {
		return s.group, true
	}
	return 0, false
}
