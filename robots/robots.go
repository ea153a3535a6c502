package robots

import (
	"slices"
	"sync/atomic"
)

// MaxSize is the number of bytes of a robots.txt that Parse reads: RFC 9309
// section 2.5 requires a parsing limit of at least 500 KiB. Longer files are
// cut after the last whole line within the limit (a line whose line end is
// the first octet past the limit is whole) and marked Truncated.
const MaxSize = 500 << 10

// MaxLimit is the largest parsing limit ParseLimit takes (4 MiB): what the
// matcher's label lengths can hold with room to spare. Larger limits are
// lowered to it.
const MaxLimit = 4 << 20

// Robots is a parsed robots.txt: its groups indexed by product token, its
// Sitemap lines, and the warnings parsing produced.
//
// A Robots is immutable after Parse and safe for concurrent use. A nil
// *Robots allows everything.
type Robots struct {
	body      string
	index     agentIndex // lower-cased product token -> group
	star      *Group     // the merged "*" groups, or nil
	recs      []groupRec // the groups as written, in file order
	made      []atomic.Pointer[Group]
	none      *Group // returned when no group applies
	sitemaps  []string
	warnings  []Warning
	warnGroup []int32     // warnGroup[i]: the group warnings[i] is about, -1 if none; nil if none is
	split     []int32     // the groups (indexes in recs) holding several 1996 records, in order
	views     *groupViews // the agents' views of split groups; nil if none is split
	truncated bool
	avail     Availability
	last      lastAgent // the last agent looked up, and its group
	noGroup   Group     // none for a parsed file
	starGroup Group     // star, when one group names "*"
	txt       texts     // what the rules of a parsed file point into
}

// lastAgent remembers the agent of the last Group lookup and its answer:
// a crawler asks with the same agent over and over. It is a sequence lock
// built from atomics, so lookups stay allocation-free and safe for
// concurrent use: a reader uses the fields only if seq was even and
// unchanged around reading them. It keeps the agent's address, not its
// octets: a crawler asks with one string, which is then recognised by its
// address alone (see stringData).
type lastAgent struct {
	seq   atomic.Uint64 // odd while a writer fills the fields
	agent atomic.Pointer[byte]
	n     atomic.Int64
	g     atomic.Pointer[Group]
}

// get returns the remembered group for agent, or nil.
func (l *lastAgent) get(agent string) *Group {
	s := l.seq.Load()
	if s&1 != 0 {
		return nil
	}
	p, n, g := l.agent.Load(), l.n.Load(), l.g.Load()
	if l.seq.Load() != s || g == nil || int(n) != len(agent) {
		return nil
	}
	if p != stringData(agent) && stringAt(p, int(n)) != agent {
		return nil
	}
	return g
}

// put remembers g as the group for agent, unless another writer is busy.
func (l *lastAgent) put(agent string, g *Group) {
	s := l.seq.Load()
	if s&1 != 0 || !l.seq.CompareAndSwap(s, s+1) {
		return
	}
	l.agent.Store(stringData(agent))
	l.n.Store(int64(len(agent)))
	l.g.Store(g)
	l.seq.Store(s + 2)
}

// AllowAll returns a Robots without rules: every URL is allowed. It is the
// policy for an unavailable robots.txt (RFC 9309 2.3.1.3).
func AllowAll() *Robots {
	return &Robots{none: &Group{}, avail: Unavailable}
}

// DisallowAll returns a Robots under which every URL except /robots.txt is
// disallowed: the policy for an unreachable robots.txt (RFC 9309 2.3.1.4).
func DisallowAll() *Robots {
	return denyAll(ReasonUnreachable, Unreachable)
}

func denyAll(why Reason, avail Availability) *Robots {
	txt := &texts{body: "*", agents: []span{{0, 1}}}
	return &Robots{none: &Group{groupRec: groupRec{agentTo: 1, name: span{0, 1}}, file: txt, deny: why}, avail: avail}
}

// Group returns the group that applies to agent. agent is reduced to its
// product token, the leading run of letters, '_' and '-' ("FooBot/2.1"
// becomes "FooBot"), and matched case-insensitively against every group's
// user-agent lines; all groups naming it are merged. If none does, the
// merged "*" groups apply; if there are none either, an empty group that
// allows everything. Group returns nil only for a nil *Robots; that nil
// *Group, like any, has no directives and allows everything. It allocates
// only when a group is first used (its lines are read then); the token is
// not copied.
func (r *Robots) Group(agent string) *Group {
	if r == nil {
		return nil
	}
	if len(agent) > 0 {
		if g := r.last.get(agent); g != nil {
			return g
		}
	}
	g := r.lookup(agent)
	if len(agent) > 0 {
		r.last.put(agent, g)
	}
	return g
}

// groupRec is a group as written, as Parse finds it. It holds no pointers,
// so a file of thousands of groups costs the collector little; its Group,
// which embeds it, is made when the group is first used (Robots.group).
type groupRec struct {
	from, to           int32 // its lines are body[from:to]
	line               int32 // the line number of body[from]
	agentFrom, agentTo int32 // its user-agent values are txt.agents[agentFrom:agentTo]
	name               span  // the agents joined by ", "
	warnFrom, warnTo   int32 // the warnings about its lines are among warnings[warnFrom:warnTo]
}

// group returns the Group of r.recs[i], making it on first use.
func (r *Robots) group(i int32) *Group {
	if g := r.made[i].Load(); g != nil {
		return g
	}
	g := new(Group)
	r.initGroup(g, i)
	if r.made[i].CompareAndSwap(nil, g) {
		return g
	}
	return r.made[i].Load()
}

// initGroup fills g, a zero Group, as the Group of r.recs[i], with the
// warnings Parse found about its lines.
func (r *Robots) initGroup(g *Group, i int32) {
	g.groupRec, g.file, g.deferred = r.recs[i], &r.txt, true
	g.split = r.isSplit(i)
	for k := g.warnFrom; k < g.warnTo && r.warnGroup != nil; k++ {
		if r.warnGroup[k] == i {
			if g.notes == nil {
				g.notes = &groupNotes{}
			}
			g.notes.early = append(g.notes.early, r.warnings[k])
		}
	}
}

// lookup finds the group for agent in the index and reads its rules.
func (r *Robots) lookup(agent string) *Group {
	var g *Group
	if tok := ProductToken(agent); tok != "" {
		switch s := r.index.slot(tok); {
		case s == nil:
		case s.group >= 0:
			if g = r.group(s.group); g.split {
				g = r.view(g, s)
			}
		default:
			g = r.index.merged[-1-s.group]
		}
	}
	if g == nil {
		g = r.star
	}
	if g == nil {
		g = r.none
	}
	g.ensure()
	return g
}

// ProductToken returns the leading run of [a-zA-Z_-] of s (RFC 9309 2.2.1):
// the token a user-agent line or a crawler name is matched by, as Group
// does. It is "" when s starts with another character.
func ProductToken(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-' {
			i++
			continue
		}
		break
	}
	return s[:i]
}

// Allowed is shorthand for r.Group(agent).Allowed(target).
func (r *Robots) Allowed(agent, target string) Verdict {
	return r.Group(agent).Allowed(target)
}

// Groups returns the groups as written in the file, in order, before
// merging. A group holding several 1996 records reads the extension lines
// of all of them; Group gives an agent those of its own records only.
func (r *Robots) Groups() []*Group {
	if r == nil {
		return nil
	}
	out := make([]*Group, len(r.recs))
	for i := range r.recs {
		out[i] = r.group(int32(i))
		out[i].ensure()
	}
	return out
}

// Sitemaps returns a copy of the file's Sitemap URLs in order. Sitemap lines
// belong to the whole file, not to a group.
func (r *Robots) Sitemaps() []string {
	if r == nil {
		return nil
	}
	return slices.Clone(r.sitemaps)
}

// Warnings returns a copy of all warnings, in line order. It reads the
// rules of every group.
func (r *Robots) Warnings() []Warning {
	if r == nil {
		return nil
	}
	var late []Warning
	for i := range r.recs {
		g := r.group(int32(i))
		g.ensure()
		if g.notes != nil {
			late = append(late, g.notes.late...)
		}
	}
	return byLine(r.warnings, late)
}

// Truncated reports whether the body was longer than the parsing limit
// (MaxSize for Parse) and cut.
func (r *Robots) Truncated() bool { return r != nil && r.truncated }

// Body returns the part of the robots.txt body that was parsed.
func (r *Robots) Body() string {
	if r == nil {
		return ""
	}
	return r.body
}

// Availability returns how the robots.txt fetch came out: Available for a
// parsed body, Unavailable for AllowAll, Unreachable for DisallowAll.
func (r *Robots) Availability() Availability {
	if r == nil {
		return Unavailable
	}
	return r.avail
}
