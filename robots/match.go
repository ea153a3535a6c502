package robots

import (
	"encoding/binary"
	"math/bits"
	"strings"
	"sync"
	"sync/atomic"
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

// texts are the strings spans point into: a file's (its body, the agents
// and joined group names) or a group's (its rules and rewritten patterns).
type texts struct {
	body   string // the parsed part of the robots.txt
	arena  string // the file's: joined group names; a group's: patterns that normalisation rewrote, each followed by '$'
	agents []span // the file's: the user-agent values of all groups, as written
	rules  []rule // a group's: its rules, in file order
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
// first '*'. Walking the path down the trie finds every rule whose prefix
// matches; pure prefix rules are decided by the walk itself, rules with '*'
// or '$' then check their remainder with a linear-time greedy segment
// search. A matcher is immutable after construction, but for the cold
// matcher's warm and heat.
type matcher struct {
	trie
	// A matcher is compiled cold, without jump table and Verdicts; the
	// second check of a cold matcher replaces it with a hot copy that has
	// them (Group.coldVerdict), so that a group checked once costs less.
	hot     bool
	verdict []Verdict   // hot: verdict[i] is the Verdict for rule i deciding, verdict[none] for none
	warm    atomic.Bool // cold: checked once
	heat    sync.Once   // cold: makes the hot copy
	jump    jumpTable   // where walks of paths with known first octets start
}

// trie is what a cold matcher and its hot copy share: the compiled rules.
type trie struct {
	nodes    []node  // the root first, then the children of each node together
	labels   string  // the rules' literals, back to back, then eight zeros (see sameRest); labels are parts of them
	simple   []int64 // simple[n]: the key (see ruleKey) of the best pure prefix rule ending at node n
	wide     []wideKids
	wild     []wildRule // wild[wildFrom[n]:wildFrom[n+1]]: node n's wildcard rules, best first
	wildFrom []int32
	allNeed  []uint64 // allNeed[j]: octets every rule in wild[j:] of its node needs
	none     int32    // the rules' number: walk's answer when none matches
	deny     bool     // the group disallows everything: check leaves it to decide
	quickly  bool     // no deny, no wildcard rules: check uses quick
	pct      bool     // a label holds a '%'
}

// node is a node of the radix tree, 32 octets, so that a walk touches
// one cache line per node. Its children are the nodes first, first+1, ...,
// sorted by the first octet of their label. The label of the edge into the
// node is labels[labOff:][:lab&labMask], and head holds its first (up to)
// eight octets; the high octet of lab holds the node's flags.
type node struct {
	head   uint64 // the label's first eight octets, zero-padded
	kids   uint64 // the children's first octets, padded by repeating the last; with nodeWide an index into m.wide
	first  int32
	labOff int32
	lab    uint32 // the label's length, and the flags << labBits
	shift  uint8  // 64 - 8 * the octets of head that belong to the label | an anchor's stride - 1
}

// The flags of a node.
const (
	nodeWild   = 1 << iota // wild rules start here
	nodeAnchor             // the jump table has jumps from here
	nodeWide               // more than eight children: kids indexes m.wide
	nodeLeaf               // no children
	nodeSimple             // a pure prefix rule ends here: m.simple[n]
	nodePct                // the label holds a '%' that starts no escape normalisation keeps within it (see sameEscapes)
)

const (
	labBits = 24
	labMask = 1<<labBits - 1
	// A label is at most a pattern, which normalisation makes at most
	// three times longer than its line.
	_ = uint(labMask - 3*MaxSize)
)

// wideKids finds the children of a node with more than eight: index[b]
// is 1 + the number of the child whose label starts with octet b among
// its siblings, 0 if none does. Labels are in normal form, so they start
// with a plain octet or '%': far fewer than 255 of them.
type wideKids struct {
	index [256]uint8
}

const (
	lowOctets  = 0x0101010101010101
	highOctets = 0x8080808080808080
)

// best returns the index of the deciding rule for the normalised path u, or
// -1 if no rule matches: the longest match in octets, Allow on a tie.
func (m *matcher) best(u string, steps *int) int {
	if i, _ := m.walk(u, true, steps); i < m.none {
		return int(i)
	}
	return -1
}

// check returns the deciding rule for the path t, or m.none (see walk),
// and whether t decides as its normal form would.
func (m *matcher) check(t string) (int32, bool) {
	switch {
	case m.quickly:
		return m.quick(t)
	case m.deny:
		return 0, false
	}
	var steps int
	return m.walk(t, false, &steps)
}

// noRule returns the key (see ruleKey) that decodes to the index of the
// Verdict for no rule matching: it is less than that of every rule.
func (m *matcher) noRule() int64 {
	return int64(maxRule - m.none)
}

// walk returns the index of the deciding rule for the path t, or the index
// of the Verdict for no rule matching: the longest match in octets, Allow
// on a tie, the earliest rule among equals. If normal, t is a path in normal form; otherwise t
// is a path as requested, up to an optional '#' fragment, and walk matches
// its octets as written where that gives the answer normalising would,
// and reports false where it cannot tell: then the caller normalises t and
// asks again.
//
// Labels are in normal form, so the octets a walk matches are plain or
// '%'. Where every '%' among them starts an escape that normalisation keeps
// as written, the normal form of t starts with the octets walked, and it
// goes on with the octet that ended the walk if that is plain: both walks
// end at the same place. Wildcard rules need the whole path: before trying
// them walk checks that t is normal.
func (m *matcher) walk(t string, normal bool, steps *int) (int32, bool) {
	var pad [8]byte // short paths are walked from a copy that peek may read whole
	w := walker{u: padded(&pad, t), key: m.noRule()}
	var set uint64
	haveSet := false
	for {
		full := m.run(&w)
		if w.nw > 0 {
			// The wildcard rules of the nodes passed need the whole path
			// in normal form.
			if !normal {
				end, ok, s := normalPathSet(t)
				if !ok {
					*steps += w.d
					return -1, false
				}
				w.u, normal, set, haveSet = padded(&pad, t[:end]), true, s, true
			} else if !haveSet {
				set, haveSet = octetSet(0, w.u), true
			}
			*steps += len(w.u)
			for _, at := range w.wilds[:w.nw] {
				w.key = m.tryWild(at.n, w.u, int(at.d), w.key, set, steps)
			}
			w.nw = 0
		}
		if !full {
			break
		}
	}
	*steps += w.d
	if w.part >= 0 {
		*steps += int(m.nodes[w.part].lab & labMask)
	}
	if !normal && !m.sameEnd(t, w.d, w.part, w.leaf, w.pct) {
		return -1, false
	}
	return maxRule - int32(w.key&maxRule), true
}

// maxRule bounds the index of a rule in a group: a rule key (see walker)
// holds maxRule - index in its low 31 bits.
const maxRule = 1<<31 - 1

// ruleKey returns the key of rule i, of length prio, which allows if a is 1:
// the rule with the greatest key decides.
func ruleKey(prio, a int, i int32) int64 {
	return int64(prio<<1|a)<<31 | int64(maxRule-i)
}

// walker is the state of a walk down the tree.
type walker struct {
	u     string // the path
	n     int32  // the node reached
	d     int    // its depth: u[:d] matched
	key   int64  // the key of the best rule so far (see ruleKey)
	part  int32  // a child of n whose label the walk matched only in part; -1 if none
	leaf  bool   // the walk stopped at a leaf
	pct   bool   // a label walked has the flag nodePct
	nw    int    // the nodes with wildcard rules passed: wilds[:nw]
	wilds [4]struct{ n, d int32 }
}

// run walks w down the tree until the path leaves it, noting the nodes
// with wildcard rules it passes; it stops early, and reports true, if it
// passes more than w.wilds holds. It calls nothing, so that the walk's
// state stays in registers.
func (m *matcher) run(w *walker) bool {
	u, n, d, key := w.u, w.n, w.d, w.key
	part, leaf, full := int32(-1), false, false
	nodes := m.nodes
	for {
		nd := &nodes[n]
		fl := nd.lab >> labBits
		if fl != 0 {
			if fl&nodeSimple != 0 {
				key = max(key, m.simple[n])
			}
			if fl&nodeWild != 0 {
				if w.nw == len(w.wilds) {
					full = true
					break
				}
				w.wilds[w.nw].n, w.wilds[w.nw].d = n, int32(d)
				w.nw++
			}
			if fl&nodeLeaf != 0 {
				leaf = true
				break
			}
			if fl&nodePct != 0 {
				w.pct = true
			}
			if k := int(nd.shift&7) + 1; fl&nodeAnchor != 0 && d+k <= len(u) {
				if s := m.jump.lookup(n, peek(u, d)&(^uint64(0)>>((64-8*k)&63))); s != nil {
					if s.flags&nodePct != 0 {
						w.pct = true
					}
					if r := int(s.rest); r > 0 && (len(u)-d-k < r || !m.sameRest(u, d+k, r, int(s.restOff))) {
						part, d = s.to, int(s.depth)-int(m.nodes[s.to].lab&labMask)
						break
					}
					n, d = s.to, int(s.depth)
					continue
				}
			}
		}
		if d >= len(u) {
			break
		}
		c := m.child(nd, fl, u[d])
		if c < 0 {
			break
		}
		// Compare its label, eight octets at a time. peek pads with
		// zeros, which labels lack: a label longer than the rest of u
		// differs from it.
		cn := &nodes[c]
		if (peek(u, d)^cn.head)&(^uint64(0)>>(cn.shift&56)) != 0 {
			part = c
			break
		}
		l := int(cn.lab & labMask)
		if l > 8 && (len(u)-d < l || !m.sameRest(u, d+8, l-8, int(cn.labOff)+8)) {
			part = c
			break
		}
		n, d = c, d+l
	}
	w.n, w.d, w.key, w.part, w.leaf = n, d, key, part, leaf
	return full
}

// child returns the child of nd (whose flags are fl) whose label starts
// with b, or -1.
func (m *matcher) child(nd *node, fl uint32, b byte) int32 {
	if fl&nodeWide == 0 {
		x := nd.kids ^ uint64(b)*lowOctets
		z := (x - lowOctets) &^ x & highOctets
		if z == 0 {
			return -1
		}
		return nd.first + int32(bits.TrailingZeros64(z)>>3)
	}
	if k := m.wide[nd.kids].index[b]; k != 0 {
		return nd.first + int32(k) - 1
	}
	return -1
}

// sameRest reports whether u[e:e+r] and m.labels[o:o+r] are equal; u
// has those octets and r > 0. It compares eight octets at a time; labels
// ends with eight zeros, so that its last word can be read whole.
func (m *matcher) sameRest(u string, e, r, o int) bool {
	for ; r > 8; e, o, r = e+8, o+8, r-8 {
		if wordAt(u, e) != wordAt(m.labels, o) {
			return false
		}
	}
	return (peek(u, e)^wordAt(m.labels, o))&(^uint64(0)>>((64-8*r)&63)) == 0
}

// sameEnd reports whether a walk of the path t as written, which matched
// t[:d] and then part of the label of node part (if part >= 0), or stopped
// at a leaf, ends where the walk of its normal form would, by the rules
// given at walk; pct reports that a label walked has the flag nodePct.
func (m *matcher) sameEnd(t string, d int, part int32, leaf, pct bool) bool {
	s := d // where the walk left t
	if part >= 0 {
		c := &m.nodes[part]
		s += commonPrefix(t[d:], m.labels[c.labOff:int(c.labOff)+int(c.lab&labMask)])
		pct = pct || c.lab&(nodePct<<labBits) != 0
	}
	if !leaf && s < len(t) && !isPlain(t[s]) && t[s] != '#' {
		return false
	}
	// Without a '%' in any label, every octet walked is plain.
	return !m.pct || sameEscapes(t, s, pct)
}

// escapesKept reports whether every '%' in t[from:s] starts an escape that
// normalisation keeps as written.
func escapesKept(t string, from, s int) bool {
	for i := max(from, 0); i < s; i++ {
		if t[i] == '%' && !canonicalEscape(t, i) {
			return false
		}
	}
	return true
}

// sameEscapes reports whether every '%' in t[:s], which a walk matched
// against labels, starts an escape that normalisation keeps as written;
// pct reports that a label walked holds a '%' that starts no such escape
// within the label (nodePct). Any other '%' of t[:s] matched one that
// does, unless it is among the last two octets, where its escape goes on
// past s.
func sameEscapes(t string, s int, pct bool) bool {
	if pct {
		return escapesKept(t, strings.IndexByte(t[:s], '%'), s)
	}
	return s == 0 || t[s-1] != '%' && (s == 1 || t[s-2] != '%') || escapesKept(t, s-2, s)
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

// load64 returns the first eight octets of s, which must have that many,
// as one word. The conversion copies nothing: the compiler reads the
// string's octets in place, with one load.
func load64(s string) uint64 {
	return binary.LittleEndian.Uint64([]byte(s[:8]))
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
	return g.decide(bytesView(b), &steps)
}
