package robots

import "strings"

// GroupNamed returns the group that applies to a robot called name, which,
// unlike a crawler's own product token, may hold digits ("MJ12bot",
// "360Spider", "Rule1TestBot"): the question a site owner asks of a
// robots.txt. name is read up to its first octet outside [a-zA-Z0-9_-]
// (NameToken: "MJ12bot/v1.4.8" is "MJ12bot").
//
// A name that is a product token (letters, '_' and '-' only, RFC 9309
// section 2.2.1) gets exactly what Group gives it, which is what a crawler
// of that name obeys. A name with digits, which RFC 9309 does not let a
// product token hold, is matched, case-insensitively, against each
// user-agent line read the same way, as the file's author wrote it for
// that robot: "User-agent: MJ12bot" names MJ12bot and not MJ99bot or MJ,
// and "User-agent: 360Spider" names 360Spider. All groups naming it are
// merged; if none does, the merged "*" groups apply, as for Group. A nil
// *Robots gives nil. Each call for a name with digits that several groups
// name builds their merged group anew.
func (r *Robots) GroupNamed(name string) *Group {
	if r == nil {
		return nil
	}
	tok := NameToken(name)
	if ProductToken(tok) == tok {
		return r.Group(tok)
	}
	idx := r.namedGroups(tok)
	switch len(idx) {
	case 0:
		return r.Group("")
	case 1:
		g := r.group(idx[0])
		if g.split {
			g = g.scoped(&paceScope{tok: tok, byName: true})
		}
		g.ensure()
		return g
	}
	return r.mergeNamed(idx, tok)
}

// namedGroups returns the groups (indexes in r.recs) with a user-agent
// line naming tok, a name with digits, as GroupNamed reads it.
func (r *Robots) namedGroups(tok string) []int32 {
	var idx []int32
	for i := range r.recs {
		rec := &r.recs[i]
		for _, s := range r.txt.agents[rec.agentFrom:rec.agentTo] {
			if strings.EqualFold(NameToken(r.txt.str(s)), tok) {
				idx = append(idx, int32(i))
				break
			}
		}
	}
	return idx
}

// Names reports whether a user-agent line names the robot called name,
// as GroupNamed reads names. If none does, GroupNamed gives the "*"
// groups, and the robot's pace is read from the records naming "*".
func (r *Robots) Names(name string) bool {
	if r == nil {
		return false
	}
	tok := NameToken(name)
	switch {
	case tok == "":
		return false
	case ProductToken(tok) == tok:
		_, ok := r.index.get(tok)
		return ok
	}
	return len(r.namedGroups(tok)) > 0
}

// NameToken returns the leading run of [a-zA-Z0-9_-] of s: a robot's name
// as a robots.txt's user-agent line may write it, digits included
// ("MJ12bot/v1.4.8" gives "MJ12bot"). It is "" when s starts with another
// octet ("*" among them). ProductToken is its RFC 9309 section 2.2.1
// reading, which stops at the first digit.
func NameToken(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' {
			i++
			continue
		}
		break
	}
	return s[:i]
}

// mergeNamed returns a new group holding the directives of the groups
// r.recs[idx...], in file order, as the parser's merge does for groups
// naming one product token, its extensions read from the records naming
// tok; its agents and joined name live in texts of its own, as r's are
// not written after Parse.
func (r *Robots) mergeNamed(idx []int32, tok string) *Group {
	gs := make([]*Group, len(idx))
	var agents []span
	var name []byte
	seen := map[string]bool{}
	for i, k := range idx {
		gs[i] = r.group(k)
		for _, s := range r.txt.agents[gs[i].agentFrom:gs[i].agentTo] {
			if a := r.txt.str(s); !seen[a] {
				seen[a] = true
				if len(agents) > 0 {
					name = append(name, ", "...)
				}
				name = append(name, a...)
				agents = append(agents, s)
			}
		}
	}
	txt := &texts{body: r.txt.body, arena: string(name), agents: agents}
	m := &Group{groupRec: groupRec{agentTo: int32(len(agents)), name: span{inArena, uint32(len(name))}}, file: txt, parts: &gs, deferred: true,
		scope: &paceScope{tok: tok, byName: true}}
	m.ensure()
	return m
}
