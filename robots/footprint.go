package robots

import (
	"cmp"
	"reflect"
	"slices"
	"strings"
)

// sizeOf returns the size of a T: Footprint counts structs by their size,
// slices by their capacity times their element's size.
func sizeOf[T any]() int { return int(reflect.TypeFor[T]().Size()) }

// Footprint returns the bytes of memory the parsed file holds: its body, its parsed
// groups, and the matchers compiled so far (a Group compiles its matcher on its first
// check and swaps it for a larger "hot" copy on its second). It grows as groups are
// made and checked; it never counts memory shared with another Robots.
//
// It is meant for a cache bounded by bytes: call it after Parse and again
// after the groups the crawler uses were checked twice. Structs count by
// their size, slices by their capacity, strings that are allocations of
// their own by their length; strings that are parts of the body or of
// another string counted (a Verdict's Rule, Pattern and Agent, a Sitemap,
// a wildcard rule's segments) count nothing more, and a hot matcher counts
// the trie it shares with the cold one it replaced once. The body counts
// in full, as the Robots keeps it alive (a caller that parses one buffer
// twice counts it twice); the part of the caller's buffer past it (a body
// cut at the parsing limit, spare capacity) does not count, nor does the
// allocator's rounding of each object up to its size class, a few
// percent of a small file's memory.
//
// A group's rules, extension lines and their warnings count once its
// matcher exists (once it was checked, or a merged group holding it was):
// before that they may be being read by another goroutine, and Footprint
// does not wait for it. So a group read by Groups or Warnings but never
// checked counts without its rules.
//
// Footprint is safe for concurrent use with every other method and does
// not allocate. It takes time linear in the file's groups, user-agent
// lines and warnings (one pass over each list, not over the body) and in
// the wildcard rules and pacing lines of the groups made: tens of
// microseconds for most hostile files of 500 KB, a third of a
// millisecond for 20,000 wildcard rules checked, half a millisecond for
// 25,000 warnings (BenchmarkFootprint). A nil *Robots gives 0;
// AllowAll and DisallowAll give the few hundred bytes of their Robots and
// its group (a few hundred more once checked: the group's empty matcher).
func (r *Robots) Footprint() int {
	if r == nil {
		return 0
	}
	n := sizeOf[Robots]() + len(r.body) + r.indexBytes() + r.warningBytes()
	n += cap(r.recs)*sizeOf[groupRec]() + cap(r.made)*sizeOf[uintptr]() + cap(r.sitemaps)*sizeOf[string]() + cap(r.warnGroup)*4
	n += cap(r.txt.agents)*sizeOf[span]() + len(r.txt.arena) // Sitemap values are parts of the body
	for i := range r.made {
		if g := r.made[i].Load(); g != nil {
			n += r.madeBytes(g, int32(i))
		}
	}
	merged := r.index.merged
	for j, g := range merged {
		n += r.mergedBytes(g, merged[:j])
	}
	if r.star != nil && r.star.parts != nil {
		n += r.mergedBytes(r.star, merged)
	}
	n += r.viewBytes()
	switch g := r.none; {
	case g == nil:
	case g == &r.noGroup:
		n += matcherBytes(g.m.Load(), nil) // a parsed file's empty group, when checked
	default:
		n += sizeOf[Group]() + matcherBytes(g.m.Load(), nil) // AllowAll's and DisallowAll's
		if g.file != nil {
			n += sizeOf[texts]() + cap(g.file.agents)*sizeOf[span]() // its body is a constant
		}
	}
	return n
}

// indexBytes is the memory of r's agent index: its slots, its merged
// groups' list and its lower-cased tokens, one allocation.
func (r *Robots) indexBytes() int {
	x := &r.index
	return cap(x.merged)*sizeOf[uintptr]() + cap(x.slots)*sizeOf[agentSlot]() + len(x.keys)
}

// warningBytes is the memory of r's warnings: the list, and the messages
// that are allocations of their own (see recentStrings). Their texts are
// parts of the body.
func (r *Robots) warningBytes() int {
	n := cap(r.warnings) * sizeOf[Warning]()
	seen := r.recentStrings()
	for i := range r.warnings {
		w := &r.warnings[i]
		n += seen.own(&w.Text) + seen.own(&w.Message)
	}
	return n
}

// madeBytes is the memory of r.recs[i]'s Group g (see Footprint for what
// counts before its matcher exists).
func (r *Robots) madeBytes(g *Group, i int32) int {
	n := 0
	if g != &r.starGroup {
		n += sizeOf[Group]()
	}
	early := r.earlyNotes(i)
	if early {
		// Set before g was published and never replaced: the warnings
		// themselves are r.warnings', their strings too.
		n += sizeOf[groupNotes]() + cap(g.notes.early)*sizeOf[Warning]()
	}
	m := g.m.Load()
	if m == nil {
		return n
	}
	return n + r.readBytes(g, early, false) + matcherBytes(m, g.txt)
}

// mergedBytes is the memory of g, a group merging others, which are
// made groups and count as such; earlier are the merged groups counted
// before it. Once g's matcher exists, the rules read for its parts count
// too, unless a part's own matcher or an earlier merged group's counted
// them.
func (r *Robots) mergedBytes(g *Group, earlier []*Group) int {
	n := sizeOf[Group]() + sizeOf[[]*Group]() + cap(*g.parts)*sizeOf[uintptr]()
	m := g.m.Load()
	if m == nil {
		return n
	}
	n += r.readBytes(g, false, true) + matcherBytes(m, g.txt)
	for _, c := range *g.parts {
		if c.m.Load() == nil && !readByEarlier(c, earlier) {
			n += r.readBytes(c, r.earlyNotes(r.recIndex(c)), false)
		}
	}
	return n
}

// viewBytes is the memory of the agents' views of split groups made so
// far (Robots.view): each a group made of one other, and its entry in
// the map of views.
func (r *Robots) viewBytes() int {
	v := r.views
	if v == nil {
		return 0
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	n := sizeOf[groupViews]()
	for _, g := range v.m {
		n += sizeOf[uint32]() + sizeOf[uintptr]() + sizeOf[paceScope]() + r.mergedBytes(g, nil)
	}
	return n
}

// readByEarlier reports whether c is a part of a merged group among
// earlier whose matcher exists.
func readByEarlier(c *Group, earlier []*Group) bool {
	for _, e := range earlier {
		if e.m.Load() != nil && slices.Contains(*e.parts, c) {
			return true
		}
	}
	return false
}

// recIndex returns the index in r.recs of c, a made group.
func (r *Robots) recIndex(c *Group) int32 {
	i, _ := slices.BinarySearchFunc(r.recs, c.from, func(g groupRec, from int32) int { return cmp.Compare(g.from, from) })
	return int32(i)
}

// earlyNotes reports whether Parse found warnings about the lines of
// r.recs[i], which initGroup gives its Group as notes before publishing
// it (so that they may be read without waiting for the group's read).
func (r *Robots) earlyNotes(i int32) bool {
	if r.warnGroup == nil || int(i) >= len(r.recs) {
		return false
	}
	rec := &r.recs[i]
	for k := rec.warnFrom; k < rec.warnTo; k++ {
		if r.warnGroup[k] == i {
			return true
		}
	}
	return false
}

// readBytes is the memory of what reading g's lines made: its rules and
// their texts, its extension directives and the notes about its lines;
// early reports that its notes were made before (and counted with the
// group). A merged group's lists copy its parts' values, whose strings
// count with the parts.
func (r *Robots) readBytes(g *Group, early, merged bool) int {
	n := 0
	if t := g.txt; t != nil {
		n += sizeOf[texts]() + len(t.arena) + cap(t.rules)*sizeOf[rule]() // its body is the file's
	}
	seen := r.recentStrings()
	if x := g.ext; x != nil {
		n += sizeOf[pacing]()
		if l := x.lists; l != nil {
			n += sizeOf[pacingLists]() + cap(l.rates)*sizeOf[RequestRate]() + cap(l.visits)*sizeOf[Window]() + cap(l.comments)*sizeOf[string]()
			if !merged {
				for i := range l.rates {
					n += seen.own(&l.rates[i].Text) // a line longer than maxQuote is cut into a copy
				}
				for i := range l.visits {
					n += seen.own(&l.visits[i].Text)
				}
				for i := range l.comments {
					n += seen.own(&l.comments[i])
				}
			}
		}
	}
	if nt := g.notes; nt != nil {
		if !early {
			n += sizeOf[groupNotes]()
		}
		n += cap(nt.late) * sizeOf[Warning]()
		for i := range nt.late {
			n += seen.own(&nt.late[i].Text) + seen.own(&nt.late[i].Message)
		}
	}
	return n
}

// matcherBytes is the memory of m (0 if nil), compiled from the rules
// of t: the current one of a group, cold or hot. A hot copy shares the
// cold one's trie, but for its nodes if it has a jump table; the cold one
// is then garbage.
func matcherBytes(m *matcher, t *texts) int {
	if m == nil {
		return 0
	}
	n := sizeOf[matcher]() + cap(m.nodes)*sizeOf[node]() + cap(m.simple)*8 + cap(m.wide)*sizeOf[wideKids]() + cap(m.wild)*sizeOf[wildRule]() +
		cap(m.wildFrom)*4 + cap(m.allNeed)*8 + cap(m.verdict)*sizeOf[Verdict]() + cap(m.jump.slots)*sizeOf[jumpSlot]()
	// The labels are parts of the rules' literals, which share an
	// allocation of every pattern's length and eight octets (newMatcher);
	// the part after the literal of the wildcard rules, split at '*', is
	// what their segments and failure tables were sized by (placeWild).
	// The Verdicts' strings and the segments are parts of the body or of
	// t's arena.
	lits, segs, fails := len(m.labels), 0, 0
	for j := range m.wild {
		i := maxRule - int32(m.wild[j].key&maxRule)
		p := t.str(t.rules[i].pattern)
		rest := p[len(p):]
		if k := strings.IndexByte(p, '*'); k >= 0 {
			rest = p[k:]
		}
		lits += len(rest)
		fails += len(rest)
		segs += strings.Count(rest, "*") + 1
	}
	return n + lits + segs*sizeOf[wildSeg]() + fails*4
}

// recentStrings remembers where the last few strings it counted start, so
// that a string many values share (a warning message that is a constant
// or one allocation) counts once in a run of them. A constant, which
// lies outside the heap, thus still counts once: a few dozen bytes more
// than the truth. It knows where the body lies, whose parts count
// nothing.
type recentStrings struct {
	body, end uintptr
	at        [8]uintptr
	next      int
}

// recentStrings returns a recentStrings for strings of r.
func (r *Robots) recentStrings() recentStrings {
	b := stringAddr(&r.body)
	return recentStrings{body: b, end: b + uintptr(len(r.body))}
}

// own returns the length of *s if it is an allocation of its own: not
// empty, not a part of the body, and not among the strings counted
// recently.
func (c *recentStrings) own(s *string) int {
	if len(*s) == 0 {
		return 0
	}
	p := stringAddr(s)
	if c.end > c.body && p >= c.body && p+uintptr(len(*s)) <= c.end {
		return 0
	}
	for _, q := range c.at {
		if q == p {
			return 0
		}
	}
	c.at[c.next%len(c.at)] = p
	c.next++
	return len(*s)
}
