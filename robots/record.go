package robots

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Access rules are grouped by RFC 9309 groups, the extension lines by the
// 1996 extended standard's records (see "Records" in the package
// documentation). A group holding several records is split
// (Robots.split); an agent named in one gets a view of the group
// (Group.scoped) whose extensions are read from the records naming it.

// endsRecord reports whether a line with the key of directive d (key as
// written, for an unknown one) ends the user-agent lines of a 1996
// record: every directive does but User-agent itself and the file-wide
// Sitemap and Host, as Protego reads records; a line without a key does
// not.
func endsRecord(d directive, key string) bool {
	switch d {
	case dUserAgent, dSitemap, dHost:
		return false
	case dUnknown:
		return key != ""
	}
	return true
}

// markSplit notes that the group being parsed holds more than one 1996
// record.
func (p *parser) markSplit() {
	i := int32(len(p.r.recs) - 1)
	if n := len(p.r.split); n == 0 || p.r.split[n-1] != i {
		p.r.split = append(p.r.split, i)
	}
}

// isSplit reports whether r.recs[i] holds more than one 1996 record.
func (r *Robots) isSplit(i int32) bool {
	_, ok := slices.BinarySearch(r.split, i)
	return ok
}

// paceScope names the agent whose 1996 records a group's extension lines
// are read from.
type paceScope struct {
	tok    string // a lower-cased product token, "*", or (byName) a name
	byName bool   // tok is a name as GroupNamed reads it (NameToken): digits count
}

// names reports whether the user-agent value a names the scope's agent,
// as the agent index (a product token, or "*") or GroupNamed reads it.
func (sc *paceScope) names(a string) bool {
	switch {
	case sc.tok == "*":
		return isStar(a)
	case sc.byName:
		return strings.EqualFold(NameToken(a), sc.tok)
	}
	return equalLower(ProductToken(a), sc.tok)
}

// label is the agent as a warning names it.
func (sc *paceScope) label() string {
	if sc == nil {
		return "the same agent"
	}
	return fmt.Sprintf("%q", sc.tok)
}

// isStar reports whether the user-agent value a is "*" (a "*" followed
// by white space and more is read as "*" too).
func isStar(a string) bool {
	return a == "*" || len(a) > 1 && a[0] == '*' && isWS(a[1])
}

// paceReader reads a group's lines record by record: the extension lines
// of the records that name its scope's agent (every record's if scope is
// nil), each record's apart, and, if it collects, the records' lines.
type paceReader struct {
	scope   *paceScope
	named   bool      // the current record names the agent
	paces   []*pacing // the extension directives of each record read that has any, in order
	collect bool
	records []Record // collected: every record of the lines
	namedAt []bool   // namedAt[i]: records[i] names the agent
}

// lateAgent reads a user-agent line of a group whose lines are read again:
// a record starts at one that follows another directive.
func (p *parser) lateAgent(s, val field, n int) {
	pr := p.pace
	if pr == nil {
		return
	}
	if !p.record {
		pr.flush(p)
		pr.named = pr.scope == nil
		if pr.collect {
			pr.records = append(pr.records, Record{})
			pr.namedAt = append(pr.namedAt, pr.named)
		}
	}
	p.record = true
	if !pr.named && pr.scope.names(val.s) {
		pr.named = true
	}
	if pr.collect {
		k := len(pr.records) - 1
		pr.records[k].Agents = append(pr.records[k].Agents, Line{N: n, Text: s.s})
		pr.namedAt[k] = pr.named
	}
}

// take reports whether the extension line s, line n, is read: whether its
// record names the agent. A collecting reader keeps it with its record.
func (pr *paceReader) take(s field, n int) bool {
	if pr.collect && len(pr.records) > 0 {
		k := len(pr.records) - 1
		pr.records[k].Pace = append(pr.records[k].Pace, Line{N: n, Text: s.s})
	}
	return pr.named
}

// flush ends the current record: its extension directives, read into
// p.cur, join the list.
func (pr *paceReader) flush(p *parser) {
	if x := p.cur.ext; x != nil {
		pr.paces = append(pr.paces, x)
		p.cur.ext = nil
	}
}

// readRecords reads c's lines (c a group as written) with pr. The
// extension lines are read into a group of their own, whose warnings,
// c's, are dropped.
func readRecords(c *Group, pr *paceReader) {
	body := c.file.body
	p := parser{body: body, late: true, cur: &Group{}, pace: pr}
	p.scan(int(c.from), int(c.to), int(c.line), strings.IndexByte(body[c.from:c.to], '\r') >= 0)
	pr.flush(&p)
}

// recordPaces returns the extension directives of each record of c (a
// group as written) that names sc's agent, in file order, leaving out
// records without any.
func recordPaces(c *Group, sc *paceScope) []*pacing {
	pr := &paceReader{scope: sc}
	readRecords(c, pr)
	return pr.paces
}

// A Line is one line of a robots.txt.
type Line struct {
	N    int    // 1-based line number
	Text string // the line as written, trimmed, without comment
}

// A Record is a record of the 1996 extended standard ("one or more
// User-agent: directives followed by one or more other directives"):
// user-agent lines, and the lines after them up to the next user-agent
// line that follows another directive.
type Record struct {
	Agents []Line // its User-agent lines
	// Pace are its Crawl-delay, Request-rate, Visit-time, Comment and
	// Robot-version lines, which apply to the agents it names only.
	Pace []Line
}

// groups returns the groups as written that g is made of: its parts, or g.
func (g *Group) groups() []*Group {
	if g.parts != nil {
		return *g.parts
	}
	return []*Group{g}
}

// AgentLines returns the User-agent lines of the groups g is made of
// (RFC 9309 groups, whose Allow and Disallow lines g holds), in file
// order: of each merged group in turn.
func (g *Group) AgentLines() []Line {
	if g == nil || g.file == nil {
		return nil
	}
	var out []Line
	for _, c := range g.groups() {
		pr := &paceReader{collect: true}
		readRecords(c, pr)
		for _, rec := range pr.records {
			out = append(out, rec.Agents...)
		}
	}
	return out
}

// PaceRecords returns the 1996 records g's extension directives (its
// pace, Visit-time, Comments and Robot-version) are read from, in file
// order: those that name the agent g was looked up for (Robots.Group,
// GroupNamed), or those naming "*" for an agent no user-agent line names;
// for a group from Robots.Groups, every record in it. It also returns a
// warning for each Crawl-delay of those records that a slower one of
// another record overrides.
func (g *Group) PaceRecords() ([]Record, []Warning) {
	if g == nil || g.file == nil {
		return nil, nil
	}
	var out []Record
	for _, c := range g.groups() {
		pr := &paceReader{scope: g.scope, collect: true}
		readRecords(c, pr)
		for i, rec := range pr.records {
			if pr.namedAt[i] {
				out = append(out, rec)
			}
		}
	}
	return out, g.conflicts()
}

// conflicts returns the warnings about Crawl-delays of g's records that a
// slower one overrode: the own notes of a group made of others.
func (g *Group) conflicts() []Warning {
	g.ensure()
	if g.parts == nil || g.notes == nil {
		return nil
	}
	return append([]Warning(nil), g.notes.late...)
}

// mergePace adds x, the extension directives of one record, to g's: the
// longest Crawl-delay, with a warning for the other when two records
// disagree; every Request-rate, Visit-time and Comment; the first
// Robot-version.
func (g *Group) mergePace(x *pacing) {
	if g.ext == nil {
		g.ext = &pacing{}
	}
	mx := g.ext
	if x.hasDelay {
		switch {
		case !mx.hasDelay:
			mx.delay, mx.hasDelay, mx.delayAt, mx.delayTxt = x.delay, true, x.delayAt, x.delayTxt
		case x.delay > mx.delay:
			g.delayConflict(mx.delayAt, mx.delayTxt, x.delayAt, x.delayTxt)
			mx.delay, mx.delayAt, mx.delayTxt = x.delay, x.delayAt, x.delayTxt
		case x.delay < mx.delay:
			g.delayConflict(x.delayAt, x.delayTxt, mx.delayAt, mx.delayTxt)
		}
	}
	if x.lists != nil {
		l := mx.list()
		l.rates = append(l.rates, x.lists.rates...)
		l.visits = append(l.visits, x.lists.visits...)
		l.comments = append(l.comments, x.lists.comments...)
	}
	if x.hasVer && !mx.hasVer {
		mx.version, mx.hasVer = x.version, true
	}
}

// delayConflict warns that the Crawl-delay on line lost (text lostTxt)
// is overridden by the slower one on line kept.
func (g *Group) delayConflict(lost int32, lostTxt span, kept int32, keptTxt span) {
	if g.notes == nil {
		g.notes = &groupNotes{}
	}
	g.notes.late = append(g.notes.late, Warning{Line: int(lost), Text: g.file.str(lostTxt),
		Message: fmt.Sprintf("records for %s give different Crawl-delays; the slower, line %d (%s), is kept",
			g.scope.label(), kept, g.file.str(keptTxt))})
}

// scoped returns a group with g's rules and user-agents whose extension
// directives are read from the records of g's lines that name sc's agent:
// what an agent named in a split group gets.
func (g *Group) scoped(sc *paceScope) *Group {
	parts := []*Group{g}
	return &Group{groupRec: g.groupRec, file: g.file, parts: &parts, deferred: true, scope: sc}
}

// groupViews are the groups made for the agents named in a split group
// (Group.scoped), on first use.
type groupViews struct {
	mu sync.Mutex
	m  map[uint32]*Group // by the offset of the agent's token in index.keys
}

// view returns the group for the agent of index slot s, whose group,
// base, is split.
func (r *Robots) view(base *Group, s *agentSlot) *Group {
	v := r.views
	v.mu.Lock()
	defer v.mu.Unlock()
	if g := v.m[s.off]; g != nil {
		return g
	}
	g := base.scoped(&paceScope{tok: r.index.keys[s.off : s.off+s.n]})
	v.m[s.off] = g
	return g
}
