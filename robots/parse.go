package robots

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
)

// The directives Parse knows.
type directive uint8

const (
	dUnknown directive = iota
	dUserAgent
	dAllow
	dDisallow
	dSitemap
	dCrawlDelay
	dRequestRate
	dVisitTime
	dComment
	dRobotVersion
	dHost    // Yandex's preferred host: file-wide, so it ends no record
	dIgnored // known to other crawlers, no meaning here (Clean-param, Noindex)
)

// keyDirective maps a key to its directive. typo reports a misspelling
// that is accepted anyway (the ones Google's parser accepts).
func keyDirective(k string) (d directive, typo bool) {
	if len(k) < 4 || len(k) > 13 {
		return dUnknown, false
	}
	var buf [13]byte
	for i := 0; i < len(k); i++ {
		c := k[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	switch string(buf[:len(k)]) {
	case "user-agent":
		return dUserAgent, false
	case "allow":
		return dAllow, false
	case "disallow":
		return dDisallow, false
	case "sitemap":
		return dSitemap, false
	case "crawl-delay":
		return dCrawlDelay, false
	case "request-rate":
		return dRequestRate, false
	case "visit-time":
		return dVisitTime, false
	case "comment":
		return dComment, false
	case "robot-version":
		return dRobotVersion, false
	case "host":
		return dHost, false
	case "noindex", "clean-param":
		return dIgnored, false
	case "useragent", "user agent":
		return dUserAgent, true
	case "disalow", "dissalow", "dissallow", "diasllow", "disallaw":
		return dDisallow, true
	case "site-map":
		return dSitemap, true
	}
	return dUnknown, false
}

// Parse reads a robots.txt body. It never fails: lines it cannot use become
// Warnings with their line numbers, and malformed values of known
// directives get the more conservative reading (see the package
// documentation). Parse reads at most MaxSize bytes, cut after the last
// whole line. It accepts a UTF-8 byte order mark (or a leading part of one),
// CR, LF and CRLF line ends, '#' comments anywhere, keys in any case and
// white space around ':'.
//
// Parse keeps body without copying it: the Robots reads a group's lines
// from it when the group is first used, and Body returns it. The caller
// must not modify body afterwards; pass a copy if the buffer is reused.
// (A robots.txt is read once into a buffer of its own and kept as long as
// its Robots, so the copy would be pure cost: copying a 3.7 KB file and
// collecting the garbage took a third of Parse's time.)
//
// Parse reads every line's key, the groups, their user-agents and the
// Sitemaps; a group's Allow, Disallow and extension lines are read when
// the group is first used (Robots.Group, Groups, Warnings), once, as
// Google's parser reads only the groups that apply to the crawler asking.
func Parse(body []byte) *Robots {
	return parse(body, MaxSize)
}

// ParseLimit is Parse with a parsing limit of limit bytes instead of
// MaxSize: a crawler configured to read more (or less) of a robots.txt
// parses what it read, cut after the last whole line within limit. A
// limit above MaxLimit is lowered to it; one below 1 is MaxSize. To know
// whether the line at the limit is whole, give it at least limit+1 bytes
// of a longer file.
func ParseLimit(body []byte, limit int) *Robots {
	if limit < 1 {
		limit = MaxSize
	}
	return parse(body, min(limit, MaxLimit))
}

// parse is ParseLimit.
func parse(body []byte, limit int) *Robots {
	r := &Robots{avail: Available}
	if len(body) > limit {
		body, r.truncated = body[:lastLineEnd(body, limit)], true
		r.warnings = append(r.warnings, Warning{Message: fmt.Sprintf("robots.txt is longer than %s: parsed up to the last whole line within the limit", sizeWords(limit))})
	}
	src := bytesView(body) // see Parse: body is ours now
	r.body = src
	// Real files have a group per 300 octets or more: a first guess at the
	// number of groups for the slices that grow with them.
	est := 4 + len(src)/300
	p := parser{r: r, body: src, agents: make([]span, 0, 2*est)}
	r.recs = make([]groupRec, 0, est)
	i := 0
	for k := 0; k < 3 && i < len(src) && src[i] == "\xEF\xBB\xBF"[k]; k++ {
		i++
	}
	p.scan(i, len(src), 1, strings.IndexByte(src, '\r') >= 0)
	p.finish()
	return r
}

// lastLineEnd returns where the body, longer than limit, is cut: after the
// last whole line within the limit, or 0 if there is none. A line whose
// end (the octet at index limit) is just past the limit has all its
// content within it: it is whole.
func lastLineEnd(body []byte, limit int) int {
	if body[limit] == '\n' || body[limit] == '\r' {
		return limit
	}
	return bytes.LastIndexAny(body[:limit], "\n\r") + 1
}

// scan reads the lines of p.body[i:to], the first of which is line n.
func (p *parser) scan(i, to, n int, hasCR bool) {
	src := p.body[:to]
	for ; i < len(src); n++ {
		end, next := len(src), len(src)
		if e := strings.IndexByte(src[i:], '\n'); e >= 0 {
			end, next = i+e, i+e+1
		}
		if hasCR {
			if c := strings.IndexByte(src[i:end], '\r'); c >= 0 {
				end, next = i+c, i+c+1
				if next < len(src) && src[next] == '\n' {
					next++
				}
			}
		}
		p.line(field{src[i:end], i}, n)
		i = next
	}
}

// parser holds the state of one Parse, or of reading one group's deferred
// lines (late).
type parser struct {
	r      *Robots     // nil when late
	body   string      // the parsed body, which every span points into
	late   bool        // reading the rules and extensions of cur
	cur    *Group      // late: the group being read; else r.none after the first user-agent, nil before
	open   bool        // the group still takes user-agent lines: no Allow/Disallow yet
	record bool        // the 1996 record still takes user-agent lines: no other directive yet (see endsRecord)
	pace   *paceReader // late: reads the extension lines of some records only, or collects records; nil if neither
	rules  []rule      // late: the group's rules, in file order
	arena  []byte      // late: rewritten patterns, each followed by a dollar sign; else joined group names
	agents []span      // the user-agent values of all groups, in file order (merged groups' at the end)
}

// warn records a warning for line n; g is the group the line is in, if any.
// Warnings found while reading a group's deferred lines are the group's
// late warnings.
func (p *parser) warn(g *Group, n int, text, msg string) {
	w := Warning{Line: n, Text: text, Message: msg}
	if p.late {
		if g.notes == nil {
			g.notes = &groupNotes{}
		}
		g.notes.late = append(g.notes.late, w)
		return
	}
	r := p.r
	if g != nil && r.warnGroup == nil {
		r.warnGroup = make([]int32, len(r.warnings), cap(r.warnings)+1)
		for i := range r.warnGroup {
			r.warnGroup[i] = -1
		}
	}
	r.warnings = append(r.warnings, w)
	if r.warnGroup != nil {
		gi := int32(-1)
		if g != nil {
			gi = int32(len(r.recs) - 1)
		}
		r.warnGroup = append(r.warnGroup, gi)
	}
}

func isWS(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }

func trimWS(s string) string {
	for len(s) > 0 && isWS(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isWS(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// hasWS reports whether s holds white space.
func hasWS(s string) bool { return strings.ContainsAny(s, " \t\v\f") }

// A field is a part of a line being read, s, which lies at offset at of
// the body.
type field struct {
	s  string
	at int
}

// span returns where f lies in the body.
func (f field) span() span { return span{uint32(f.at), uint32(len(f.s))} }

// sub returns f.s[i:j] as a field.
func (f field) sub(i, j int) field { return field{f.s[i:j], f.at + i} }

// trim returns f without the white space around it.
func (f field) trim() field {
	i, j := 0, len(f.s)
	for i < j && isWS(f.s[i]) {
		i++
	}
	for j > i && isWS(f.s[j-1]) {
		j--
	}
	return f.sub(i, j)
}

// line reads one line, raw, which is line n: its text, trimmed and without
// its '#' comment, is "key: value" (or "key value", with a warning), and
// a known key's directive is applied. While Parse reads the file, lines
// it cannot use become warnings; a group's deferred lines are read again
// later (late), with the warnings about their values only.
func (p *parser) line(raw field, n int) {
	if len(raw.s) == 0 || raw.s[0] == '#' {
		return // a third of most files: nothing to read
	}
	c := strings.IndexByte(raw.s, ':')
	if c < 0 || strings.IndexByte(raw.s[:c], '#') >= 0 {
		p.colonless(raw, n)
		return
	}
	key := raw.sub(0, c).trim()
	d, typo := keyDirective(key.s)
	if p.deferred(d, typo) {
		return
	}
	s := raw
	if h := strings.IndexByte(raw.s[c:], '#'); h >= 0 {
		s = raw.sub(0, c+h)
	}
	s = s.trim() // it holds the ':'
	val := raw.sub(c+1, s.at-raw.at+len(s.s)).trim()
	p.keyValue(d, typo, key, val, s, true, n)
}

// deferred reports whether a line with the key of directive d (misspelt
// if typo), a well-formed "key:" line, is one whose reading Parse leaves
// to the group's first use: an Allow, Disallow or extension line inside a
// group, which gives no warning until then.
func (p *parser) deferred(d directive, typo bool) bool {
	if p.late || typo || p.cur == nil {
		return false
	}
	switch d {
	case dAllow, dDisallow:
		p.open, p.record = false, false // the rule itself is read with its group's (Group.read)
		return true
	case dCrawlDelay, dRequestRate, dVisitTime, dComment, dRobotVersion:
		p.record = false
		return true
	}
	return false
}

// colonless reads a line whose text holds no ':' before its comment: it
// is accepted if it is exactly two words ("Disallow /x"), as Google's
// parser does.
func (p *parser) colonless(raw field, n int) {
	s := raw
	if h := strings.IndexByte(s.s, '#'); h >= 0 {
		s = s.sub(0, h)
	}
	s = s.trim()
	if s.s == "" {
		return
	}
	for i := 0; i < len(s.s); i++ {
		if !isWS(s.s[i]) {
			continue
		}
		key, val := s.sub(0, i), s.sub(i, len(s.s)).trim()
		if hasWS(val.s) {
			break // more than two words
		}
		d, typo := keyDirective(key.s)
		p.keyValue(d, typo, key, val, s, false, n)
		return
	}
	if !p.late {
		p.warn(p.cur, n, s.s, "not a \"key: value\" line; ignored")
	}
}

// keyValue applies a line s whose key is that of directive d (misspelt
// if typo) and whose value is val; colon reports whether a ':' parted
// them.
func (p *parser) keyValue(d directive, typo bool, key, val, s field, colon bool, n int) {
	if endsRecord(d, key.s) {
		p.record = false
	}
	if p.late {
		// The line's own warnings were given when the file was parsed.
		if d != dUnknown {
			p.directive(d, s, val, n)
		}
		return
	}
	switch {
	case d == dUnknown && key.s == "":
		p.warn(p.cur, n, s.s, "empty key; ignored")
		return
	case d == dUnknown:
		p.warn(p.cur, n, s.s, "unknown directive \""+key.s+"\"; ignored")
		return
	case !colon:
		p.warn(p.cur, n, s.s, "missing ':' after the key; read as \""+key.s+": "+val.s+"\"")
	}
	if typo {
		p.warn(p.cur, n, s.s, "misspelt key \""+key.s+"\"; accepted")
	}
	p.directive(d, s, val, n)
}

// directive applies a line with a known key; s is the line as written,
// trimmed and without comment, val its trimmed value.
func (p *parser) directive(d directive, s, val field, n int) {
	if p.late {
		switch d {
		case dUserAgent:
			p.lateAgent(s, val, n)
		case dAllow, dDisallow:
			if p.pace == nil {
				p.rule(s, val, n, d == dAllow)
			}
		case dCrawlDelay, dRequestRate, dVisitTime, dComment, dRobotVersion:
			if p.pace == nil || p.pace.take(s, n) {
				p.extension(d, s, val, n)
			}
		}
		return
	}
	switch d {
	case dUserAgent:
		p.userAgent(s, val, n)
	case dAllow, dDisallow:
		p.rule(s, val, n, d == dAllow)
	case dSitemap:
		if val.s == "" {
			p.warn(nil, n, s.s, "empty Sitemap; ignored")
			return
		}
		p.r.sitemaps = append(p.r.sitemaps, val.s)
	case dIgnored, dHost:
	default:
		if p.cur == nil {
			p.warn(nil, n, s.s, "directive before the first user-agent line; ignored")
		}
		// A group's extension lines are read with its rules (Group.read).
	}
}

func (p *parser) userAgent(s, val field, n int) {
	switch {
	case p.cur == nil || !p.open:
		p.r.recs = append(p.r.recs, groupRec{from: int32(s.at), line: int32(n), agentFrom: int32(len(p.agents)),
			warnFrom: int32(len(p.r.warnings))})
		// Groups are r.recs until they are first used: while Parse reads
		// the file, cur only tells that a group is open.
		p.cur = &p.r.noGroup
		p.open = true
	case !p.record:
		// A user-agent line after an extension line (or another line
		// that is not a rule) starts a new 1996 record inside the group.
		p.markSplit()
	}
	p.record = true
	if val.s == "" {
		p.warn(p.cur, n, s.s, "empty user-agent; it matches no crawler")
	}
	s0 := span{}
	if val.s != "" {
		s0 = val.span()
	}
	p.agents = append(p.agents, s0)
}

func (p *parser) rule(s, val field, n int, allow bool) {
	if p.cur == nil {
		p.warn(nil, n, s.s, "rule before the first user-agent line; ignored (RFC 9309 2.2.2)")
		return
	}
	p.open = false
	if !p.late || val.s == "" {
		return // read with the group's other rules; an empty pattern is no rule
	}
	if v := val.s[0]; v != '/' && v != '*' {
		p.warn(p.cur, n, s.s, "pattern does not start with '/' or '*'; matched as written, so it matches no path")
	}
	r := rule{allow: allow, line: int32(n), text: s.span()}
	clean, anchored := patternIsNormal(val.s)
	r.anchored = anchored
	if clean {
		r.pattern = val.span()
		if anchored {
			r.pattern.n--
		}
	} else {
		start := len(p.arena)
		p.arena = appendNormal(p.arena, strings.TrimSuffix(val.s, "$"), true)
		r.pattern = span{uint32(start) | inArena, uint32(len(p.arena) - start)}
		p.arena = append(p.arena, '$')
	}
	p.rules = append(p.rules, r)
}

// finish indexes the groups by product token, merging groups that name the
// same token (RFC 9309 2.2.1).
func (p *parser) finish() {
	r := p.r
	r.none = &r.noGroup
	r.txt.body = r.body
	p.endGroups()
	p.joinNames()
	dups, stars := p.indexAgents()
	r.made = make([]atomic.Pointer[Group], len(r.recs))
	if len(r.split) > 0 {
		r.views = &groupViews{m: map[uint32]*Group{}}
	}
	p.mergeDuplicates(dups)
	switch {
	case len(stars) == 0:
	case len(stars) == 1 && !r.isSplit(stars[0]):
		// Most files have a "*" group: it lives inside r.
		r.initGroup(&r.starGroup, stars[0])
		r.star = &r.starGroup
		r.made[stars[0]].Store(r.star)
	default:
		r.star = p.merge(stars, &paceScope{tok: "*"})
	}
	r.txt.agents, r.txt.arena = p.agents, string(p.arena)
}

// endGroups sets where each group's lines, user-agents and warnings end:
// where the next group's start.
func (p *parser) endGroups() {
	r := p.r
	recs := r.recs
	for i := range recs {
		if i+1 < len(recs) {
			next := &recs[i+1]
			recs[i].to, recs[i].agentTo, recs[i].warnTo = next.from, next.agentFrom, next.warnFrom
		} else {
			recs[i].to, recs[i].agentTo, recs[i].warnTo = int32(len(r.body)), int32(len(p.agents)), int32(len(r.warnings))
		}
	}
}

// joinNames names each group: its user-agent value, or for a group of
// several their values joined by ", " in the arena.
func (p *parser) joinNames() {
	recs := p.r.recs
	nameLen := 0 // the arena grows once for the joined names
	for _, g := range recs {
		if g.agentTo-g.agentFrom > 1 {
			for _, s := range p.agents[g.agentFrom:g.agentTo] {
				nameLen += int(s.n) + len(", ")
			}
		}
	}
	p.arena = slices.Grow(p.arena, nameLen)
	for i := range recs {
		g := &recs[i]
		if g.agentTo-g.agentFrom == 1 {
			g.name = p.agents[g.agentFrom]
			continue
		}
		start := len(p.arena)
		for k, s := range p.agents[g.agentFrom:g.agentTo] {
			if k > 0 {
				p.arena = append(p.arena, ", "...)
			}
			p.arena = append(p.arena, p.body[s.off:s.off+s.n]...)
		}
		g.name = span{uint32(start) | inArena, uint32(len(p.arena) - start)}
	}
}

// mergeDuplicates points the index's slot of each token that several
// groups name (dups, by the offset of the token's key) at a group merging
// them.
func (p *parser) mergeDuplicates(dups map[uint32][]int32) {
	x := &p.r.index
	for k := range x.slots {
		s := &x.slots[k]
		if l := dups[s.off]; s.n != 0 && l != nil {
			s.group = -1 - int32(len(x.merged))
			x.merged = append(x.merged, p.merge(l, &paceScope{tok: x.keys[s.off : s.off+s.n]}))
		}
	}
}

// tokenLower maps the octets of a product token ([a-zA-Z_-], RFC 9309
// 2.2.1) to their lower case, and every other octet to 0.
const tokenLower = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00-\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00abcdefghijklmnopqrstuvwxyz\x00\x00\x00\x00_\x00abcdefghijklmnopqrstuvwxyz\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

// sizeWords writes a byte count as KiB or MiB when it is a whole number of
// them ("500 KiB"), else in bytes.
func sizeWords(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
