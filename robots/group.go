package robots

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A Group is the set of directives that applies to one crawler: the rules
// of every group naming its product token, merged (RFC 9309 2.2.1), or of
// the "*" groups. Besides Allow and Disallow it holds the 1996 extended
// standard's per-record directives and the common Crawl-delay, read from
// the 1996 records that name the crawler (or, for a crawler no user-agent
// line names, "*"), merged: a Crawl-delay written under another agent's
// user-agent line does not apply to it even when RFC 9309 puts both
// agents in one group (see PaceRecords).
//
// A Group's answers never change, but its parts are made on first use:
// its Allow, Disallow and extension lines are read under a sync.Once, and
// its rule index is compiled under another, then swapped (atomically) for
// a faster copy at its second check. All methods are safe for concurrent
// use. The zero Group and a nil *Group have no directives and
// allow everything.
type Group struct {
	groupRec // where the group is in the file (a merged group: agents and name only)
	deny     Reason
	deferred bool        // rules and extensions are read on first use (read)
	split    bool        // a group as written that holds several 1996 records
	file     *texts      // the file: its body, agents and joined names
	parts    *[]*Group   // a merged group: the groups it merges, in file order
	scope    *paceScope  // a merged group: whose records its extensions are read from
	notes    *groupNotes // nil while the group's lines gave no warnings
	readOnce sync.Once

	// Set by read: the rules (txt.rules) and what their spans point
	// into, and the extension directives (nil if none).
	txt *texts
	ext *pacing

	once sync.Once               // compiles m
	m    atomic.Pointer[matcher] // the compiled rules: cold, then hot (see matcher)
}

// groupNotes are the warnings about a group's lines: found by Parse, and
// found when the group's deferred lines were read.
type groupNotes struct {
	early, late []Warning
}

// ensure reads the group's deferred lines, once. Robots.Group and Groups
// call it before handing a Group out; the methods that read what it sets
// (pacing, ruleList, Warnings) call it too, which costs one sync.Once
// check. The zero and policy groups have no deferred lines.
func (g *Group) ensure() {
	if g != nil && g.deferred {
		g.readOnce.Do(g.read)
	}
}

// read reads the Allow, Disallow and extension lines of the group: of its
// own lines, or, for a merged group, those of the groups it merges.
func (g *Group) read() {
	if g.parts != nil {
		g.readMerged()
		return
	}
	body := g.file.body
	lines := body[g.from:g.to]
	p := parser{body: body, late: true, cur: g,
		rules: make([]rule, 0, strings.Count(lines, "\n")+1)}
	p.scan(int(g.from), int(g.to), int(g.line), strings.IndexByte(lines, '\r') >= 0)
	g.txt = &texts{body: body, arena: string(p.arena), rules: p.rules}
}

// pacing holds a group's extension directives. Most groups have none, so
// they live apart from Group, and the lists most groups lack live apart
// from the Crawl-delay most pacing groups have.
type pacing struct {
	delay    time.Duration
	delayAt  int32 // line of the Crawl-delay that set delay
	hasDelay bool
	hasVer   bool
	delayTxt span         // its text
	version  span         // the Robot-version value (spans hold no pointers)
	lists    *pacingLists // nil without Request-rate, Visit-time or Comment lines
}

// pacingLists holds a group's Request-rate, Visit-time and Comment lines.
type pacingLists struct {
	rates    []RequestRate
	visits   []Window
	comments []string
}

func (x *pacing) rates() []RequestRate {
	if x == nil || x.lists == nil {
		return nil
	}
	return x.lists.rates
}

func (x *pacing) visits() []Window {
	if x == nil || x.lists == nil {
		return nil
	}
	return x.lists.visits
}

func (x *pacing) comments() []string {
	if x == nil || x.lists == nil {
		return nil
	}
	return x.lists.comments
}

// list returns x's lists, creating them if need be.
func (x *pacing) list() *pacingLists {
	if x.lists == nil {
		x.lists = &pacingLists{}
	}
	return x.lists
}

// pacing returns g's extension directives, nil if it has none.
func (g *Group) pacing() *pacing {
	if g == nil {
		return nil
	}
	g.ensure()
	return g.ext
}

// Agents returns the user-agent values (as written) of the groups merged
// into g. The "*" group reports "*".
func (g *Group) Agents() []string {
	if g == nil {
		return nil
	}
	if g.file == nil {
		return nil
	}
	out := make([]string, 0, g.agentTo-g.agentFrom)
	for _, s := range g.file.agents[g.agentFrom:g.agentTo] {
		out = append(out, g.file.str(s))
	}
	return out
}

// ruleList returns the group's rules, in file order.
func (g *Group) ruleList() []rule {
	g.ensure()
	if g.txt == nil {
		return nil
	}
	return slices.Clip(g.txt.rules)
}

// nameString returns the group's agents joined by ", ".
func (g *Group) nameString() string {
	if g.file == nil {
		return ""
	}
	return g.file.str(g.name)
}

// Allowed reports whether target may be fetched under g's rules, and which
// rule decided. target is an absolute URL ("https://host/p?q"), a
// scheme-relative one ("//host/p") or a path ("/p?q"); its path and query
// are matched, the fragment is ignored. Matching follows RFC 9309 2.2.2:
// both sides are percent-encoding normalised, '*' matches any octets, a
// final '$' anchors the end, the longest match in octets wins, Allow wins
// a tie and "/robots.txt" is always allowed.
//
// After a group's first two checks (which compile its rules and make their
// faster copy), Allowed allocates
// only to rewrite a path and query into a normal form longer than 1 KiB
// (the stack buffer it normalises into): never for a path and query of at
// most 341 octets, since normalising at most triples an octet ('é' becomes
// "%C3%A9"), nor for one already in normal form, whatever its length. It
// takes time linear in the length of target for any set of patterns.
func (g *Group) Allowed(target string) Verdict {
	// The commonest target, a path whose second octet rules out
	// "/robots.txt", is matched as written if that decides as its normal
	// form would.
	if g != nil && len(target) > 1 && target[0] == '/' && target[1] != '/' && target[1] != 'r' && target[1] != '%' {
		m := g.matcher()
		var i int32
		var ok bool
		if m.quickly {
			i, ok = m.quick(target)
		} else {
			i, ok = m.check(target)
		}
		if ok {
			return g.verdictAt(m, i)
		}
		// As written it did not decide: check would say the same.
		return g.decideTarget(target, true, target, false)
	}
	return g.allowed(target)
}

// verdictAt returns the Verdict for rule i (or none) of m, g's matcher,
// deciding.
func (g *Group) verdictAt(m *matcher, i int32) Verdict {
	if m.hot {
		return m.verdict[i]
	}
	return g.coldVerdict(m, i)
}

// matcher returns g's compiled rules, compiling them on first use.
func (g *Group) matcher() *matcher {
	if m := g.m.Load(); m != nil {
		return m
	}
	return g.compiled()
}

// Prepare compiles g's rules and their fast copy now, as its first two
// checks would: for a caller that wants that cost paid, and the group's
// Footprint final, before the group is used.
func (g *Group) Prepare() {
	if g == nil {
		return
	}
	if m := g.matcher(); !m.hot {
		m.warm.Store(true)
		g.heatUp(m)
	}
}

// compiled compiles g's rules, once, and returns them.
func (g *Group) compiled() *matcher {
	g.once.Do(g.compile)
	return g.m.Load()
}

// coldVerdict builds the Verdict for rule i (or none) of g's cold matcher
// m deciding. The second time, it first replaces m with its hot copy.
func (g *Group) coldVerdict(m *matcher, i int32) Verdict {
	if !m.warm.Load() {
		m.warm.Store(true)
	} else {
		g.heatUp(m)
	}
	if i == m.none {
		return g.noRuleVerdict()
	}
	return g.ruleVerdict(int(i))
}

// heatUp replaces g's cold matcher m with its hot copy, once.
func (g *Group) heatUp(m *matcher) {
	m.heat.Do(func() { g.m.Store(m.hotCopy(g.verdicts(m))) })
}

// verdicts returns the Verdict for each of m's rules deciding, then the
// one for none.
func (g *Group) verdicts(m *matcher) []Verdict {
	v := make([]Verdict, m.none+1)
	for i := range m.none {
		v[i] = g.ruleVerdict(int(i))
	}
	v[m.none] = g.noRuleVerdict()
	return v
}

// noRuleVerdict is the Verdict for no rule of g deciding.
func (g *Group) noRuleVerdict() Verdict {
	return Verdict{Allowed: true, Agent: g.nameString(), Reason: ReasonNoRule}
}

// allowed is Allowed for any target.
func (g *Group) allowed(target string) Verdict {
	isPath := len(target) > 0 && target[0] == '/' && (len(target) == 1 || target[1] != '/')
	path, slash := target, false // a path target keeps its fragment: check stops at '#'
	if !isPath {
		path, slash = pathOf(target)
	}
	if g != nil && !slash && !maybeRobotsTxt(path) {
		m := g.matcher()
		if i, ok := m.check(path); ok {
			return g.verdictAt(m, i)
		}
	}
	return g.decideTarget(target, isPath, path, slash)
}

// decideTarget is allowed for a target whose path (see pathOf; target
// itself if isPath) did not decide as written: it normalises the path
// where needed and decides.
func (g *Group) decideTarget(target string, isPath bool, path string, slash bool) Verdict {
	var normal bool
	if isPath {
		var end int
		end, normal = normalPathEnd(target)
		path = target[:end]
	} else {
		normal = !slash && urlIsNormal(path)
	}
	var i int
	var why Reason
	if normal {
		var steps int
		i, why = g.decide(path, &steps)
	} else {
		i, why = g.decideSlow(path, slash)
	}
	return g.verdict(i, why)
}

// maybeRobotsTxt reports whether the normal form of the path t, cut at its
// fragment, might be exactly "/robots.txt", the one URI RFC 9309 2.2.2
// allows implicitly ("The /robots.txt URI is implicitly allowed"): with a
// query ("/robots.txt?page=7") it is another URI, which the rules decide.
// The octets of t that equal those of "/robots.txt" are plain, so
// normalisation keeps them; an escape before the name's end may decode to
// its next octet.
func maybeRobotsTxt(t string) bool {
	const name = "/robots.txt"
	if len(t) < 2 || t[1] != 'r' && t[1] != '%' {
		return false
	}
	k := commonPrefix(t, name)
	if k == len(name) {
		return k == len(t) || t[k] == '#'
	}
	return k < len(t) && t[k] == '%'
}

// verdict builds the Verdict for decide's result.
func (g *Group) verdict(i int, why Reason) Verdict {
	if g == nil {
		return Verdict{Allowed: true}
	}
	if why == ReasonRule || why == ReasonNoRule {
		if m := g.m.Load(); m != nil { // decide compiled g's rules
			if why == ReasonNoRule {
				i = int(m.none)
			}
			return g.verdictAt(m, int32(i))
		}
	}
	return Verdict{Allowed: why == ReasonNoRule || why == ReasonRobotsTxt, Agent: g.nameString(), Reason: why}
}

// ruleVerdict builds the Verdict for rule i deciding.
func (g *Group) ruleVerdict(i int) Verdict {
	r := &g.txt.rules[i]
	return Verdict{Allowed: r.allow, Rule: g.txt.str(r.text), Line: int(r.line), Pattern: g.txt.str(r.shown()),
		Agent: g.nameString(), Reason: ReasonRule}
}

// decide returns the index of the rule that decides u, a path in normal
// form, and the reason; it adds the matcher's steps to *steps.
func (g *Group) decide(u string, steps *int) (int, Reason) {
	switch {
	case g == nil:
		return -1, ReasonNoRule
	case u == "/robots.txt": // RFC 9309 2.2.2: that URI only, not "/robots.txt?q"
		return -1, ReasonRobotsTxt
	case g.deny != 0:
		return -1, g.deny
	case len(g.ruleList()) == 0:
		return -1, ReasonNoRule
	}
	if i := g.matcher().best(u, steps); i >= 0 {
		return i, ReasonRule
	}
	return -1, ReasonNoRule
}

// compile builds g's cold matcher.
func (g *Group) compile() {
	m := newMatcher(g.ruleList(), g.txt)
	m.deny = g.deny != 0
	m.quickly = !m.deny && len(m.wild) == 0
	g.m.Store(m)
}

// A Rule is one Allow or Disallow line of a group, as Group.Rules lists it.
type Rule struct {
	Allow   bool   // Allow (true) or Disallow (false)
	Pattern string // the pattern in normal form, '$' included
	Line    int    // 1-based line number
	Text    string // the line as written, trimmed, without comment
}

// Rules returns the group's Allow and Disallow rules in file order. Empty
// patterns, which are no rules, are not listed.
func (g *Group) Rules() []Rule {
	if g == nil {
		return nil
	}
	rules := g.ruleList()
	out := make([]Rule, len(rules))
	for i, r := range rules {
		out[i] = Rule{Allow: r.allow, Pattern: g.txt.str(r.shown()), Line: int(r.line), Text: g.txt.str(r.text)}
	}
	return out
}

// CrawlDelay returns the group's Crawl-delay and whether it has one. If
// several lines give one, the longest delay is returned.
func (g *Group) CrawlDelay() (time.Duration, bool) {
	x := g.pacing()
	if x == nil {
		return 0, false
	}
	return x.delay, x.hasDelay
}

// CrawlDelayLine returns the 1-based line of the Crawl-delay that
// CrawlDelay reports, with the line as written (without comment); 0 and ""
// if the group has none.
func (g *Group) CrawlDelayLine() (int, string) {
	x := g.pacing()
	if x == nil || !x.hasDelay {
		return 0, ""
	}
	return int(x.delayAt), g.txt.str(x.delayTxt)
}

// RequestRates returns a copy of the group's Request-rate lines in file order.
func (g *Group) RequestRates() []RequestRate {
	x := g.pacing()
	if x == nil {
		return nil
	}
	return slices.Clone(x.rates())
}

// VisitTimes returns a copy of the group's Visit-time windows in file order.
// No windows means any time is fine.
func (g *Group) VisitTimes() []Window {
	x := g.pacing()
	if x == nil {
		return nil
	}
	return slices.Clone(x.visits())
}

// Comments returns a copy of the group's Comment lines, meant to be shown
// to the crawler's operator.
func (g *Group) Comments() []string {
	x := g.pacing()
	if x == nil {
		return nil
	}
	return slices.Clone(x.comments())
}

// RobotVersion returns the group's Robot-version value and whether it has one.
// The version is informational only: matching always follows RFC 9309.
func (g *Group) RobotVersion() (string, bool) {
	x := g.pacing()
	if x == nil {
		return "", false
	}
	return g.txt.str(x.version), x.hasVer
}

// Warnings returns a copy of the warnings for lines inside the group, in
// line order (of each merged group in turn).
func (g *Group) Warnings() []Warning {
	if g == nil {
		return nil
	}
	g.ensure()
	if g.parts != nil {
		var out []Warning
		for _, c := range *g.parts {
			out = append(out, c.Warnings()...)
		}
		if g.notes != nil {
			out = byLine(out, g.notes.late) // the Crawl-delays a slower one overrode
		}
		return out
	}
	if g.notes == nil {
		return nil
	}
	return byLine(g.notes.early, g.notes.late)
}

// byLine merges warnings a and b, each in line order, into a new slice in
// line order; a's come first on the same line.
func byLine(a, b []Warning) []Warning {
	out := make([]Warning, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if b[0].Line < a[0].Line {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}

// Pace returns the minimum interval between two request starts that the
// group asks for at now: the slowest of its Crawl-delay, every Request-rate
// without a window and every Request-rate whose window contains now.
// source names the line that set the pace ("line 7: Crawl-delay: 10");
// ok is false if no line of the group speaks about pace at now. A group
// whose only pace line is "Crawl-delay: 0" gives interval 0 with ok true
// and that line as source: the site said in words that it asks for no
// pace, which a caller may report, and which leaves the caller's own
// minimum in force (a crawler does not speed up for it).
func (g *Group) Pace(now time.Time) (interval time.Duration, source string, ok bool) {
	interval, line, text, ok := g.PaceLine(now)
	if !ok {
		return 0, "", false
	}
	return interval, fmt.Sprintf("line %d: %s", line, text), true
}

// PaceLine is Pace with its source apart: the 1-based line that set the
// pace and that line as written, without comment.
func (g *Group) PaceLine(now time.Time) (interval time.Duration, line int, text string, ok bool) {
	x := g.pacing()
	if x == nil {
		return 0, 0, "", false
	}
	if x.hasDelay {
		interval, line, text, ok = x.delay, int(x.delayAt), g.txt.str(x.delayTxt), true
	}
	for _, r := range x.rates() {
		if !r.ActiveAt(now) {
			continue
		}
		if iv := r.Interval(); !ok || iv > interval {
			interval, line, text, ok = iv, r.Line, r.Text, true
		}
	}
	if !ok {
		return 0, 0, "", false
	}
	return interval, line, text, true
}

// VisitAllowed reports whether now is inside one of the group's Visit-time
// windows, or the group has none.
func (g *Group) VisitAllowed(now time.Time) bool {
	x := g.pacing()
	if x == nil || len(x.visits()) == 0 {
		return true
	}
	for _, w := range x.visits() {
		if w.Contains(now) {
			return true
		}
	}
	return false
}

// NextVisit returns the earliest instant at or after now at which
// VisitAllowed is true: now itself if it already is.
func (g *Group) NextVisit(now time.Time) time.Time {
	if g.VisitAllowed(now) {
		return now
	}
	next := time.Time{}
	for _, w := range g.ext.visits() {
		if t := w.NextOpen(now); next.IsZero() || t.Before(next) {
			next = t
		}
	}
	return next
}

// merge returns a new group holding the directives of gs in order, its
// extensions read from the records naming sc's agent. Its agents are
// added to p.agents and its name to p.arena; its rules and extensions are
// those of gs, gathered on first use (readMerged).
func (p *parser) merge(idx []int32, sc *paceScope) *Group {
	gs := make([]*Group, len(idx))
	for i, k := range idx {
		gs[i] = p.r.group(k)
	}
	m := &Group{groupRec: groupRec{agentFrom: int32(len(p.agents))}, file: &p.r.txt, parts: &gs, deferred: true, scope: sc}
	seen := map[string]bool{}
	nameStart := len(p.arena)
	for _, g := range gs {
		for _, s := range p.agents[g.agentFrom:g.agentTo] {
			if a := p.body[s.off : s.off+s.n]; !seen[a] {
				seen[a] = true
				if len(p.agents) > int(m.agentFrom) {
					p.arena = append(p.arena, ", "...)
				}
				p.arena = append(p.arena, a...)
				p.agents = append(p.agents, s)
			}
		}
	}
	m.agentTo = int32(len(p.agents))
	m.name = span{uint32(nameStart) | inArena, uint32(len(p.arena) - nameStart)}
	return m
}

// readMerged gathers the rules and extension directives of the groups g
// merges: rules in line order; of the records naming g's agent (all of a
// group holding one record, which names it), the longest Crawl-delay,
// every Request-rate, Visit-time and Comment, the first Robot-version
// (mergePace).
func (g *Group) readMerged() {
	var rules []rule
	var arena []byte
	for _, c := range *g.parts {
		c.ensure()
		base := uint32(len(arena))
		arena = append(arena, c.txt.arena...)
		for _, r := range c.ruleList() {
			if r.pattern.off&inArena != 0 {
				r.pattern.off += base
			}
			rules = append(rules, r)
		}
		switch {
		case c.split:
			for _, x := range recordPaces(c, g.scope) {
				g.mergePace(x)
			}
		case c.ext != nil:
			g.mergePace(c.ext)
		}
	}
	slices.SortStableFunc(rules, func(a, b rule) int { return int(a.line - b.line) })
	g.txt = &texts{body: g.file.body, arena: string(arena), rules: rules}
}
