package robots

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"unsafe"
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
	dIgnored // known to other crawlers, no meaning here (Host, Clean-param, ...)
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
	case "host", "noindex", "clean-param":
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
	return parse(body, MaxSize, true)
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
	return parse(body, min(limit, MaxLimit), true)
}

// parse is ParseLimit; fast false reads every line with the general line
// method, which tests compare the one-pass readers against.
func parse(body []byte, limit int, fast bool) *Robots {
	r := &Robots{avail: Available}
	if len(body) > limit {
		cut := body[:limit]
		// A line whose end (the octet at index limit) is just past the
		// limit has all its content within it: it is whole.
		end := 0
		if body[limit] == '\n' || body[limit] == '\r' {
			end = limit
		}
		for i := len(cut) - 1; end == 0 && i >= 0; i-- {
			if cut[i] == '\n' || cut[i] == '\r' {
				end = i + 1
			}
		}
		body, r.truncated = cut[:end], true
		r.warnings = append(r.warnings, Warning{Message: fmt.Sprintf("robots.txt is longer than %s: parsed up to the last whole line within the limit", sizeWords(limit))})
	}
	src := bytesView(body) // see Parse: body is ours now
	r.body = src
	// Real files have a group per 300 octets or more: a first guess at the
	// number of groups for the slices that grow with them.
	est := 4 + len(src)/300
	p := parser{r: r, body: src, fast: fast, agents: make([]span, 0, 2*est)}
	r.recs = make([]groupRec, 0, est)
	i := 0
	for k := 0; k < 3 && i < len(src) && src[i] == "\xEF\xBB\xBF"[k]; k++ {
		i++
	}
	p.scan(i, len(src), 1, strings.IndexByte(src, '\r') >= 0)
	p.finish()
	return r
}

// scan reads the lines of p.body[from:to], the first of which is line n.
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
		switch raw := src[i:end]; {
		case p.fast && (len(raw) == 0 || raw[0] == '#'):
			// Blank lines and comments from the start of the line, a
			// third of most files, need nothing read (fastLine accepts
			// them as they are).
		case !p.fast || !p.fastRule(raw, n) && !p.fastLine(raw, n):
			p.line(raw, n)
		}
		i = next
	}
}

// parser holds the state of one Parse, or of reading one group's deferred
// lines (late).
type parser struct {
	r      *Robots // nil when late
	body   string  // the parsed body, which every span points into
	fast   bool    // use the one-pass line readers
	late   bool    // reading the rules and extensions of cur
	cur    *Group  // late: the group being read; else r.none after the first user-agent, nil before
	open   bool    // the group still takes user-agent lines: no Allow/Disallow yet
	rules  []rule  // late: the group's rules, in file order
	arena  []byte  // late: rewritten patterns, each followed by a dollar sign; else joined group names
	agents []span  // the user-agent values of all groups, in file order (merged groups' at the end)
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

// splitLine splits a comment-free, trimmed line into key and value. A line
// without ':' is accepted if it is exactly two words ("Disallow /x"), as
// Google's parser does; colon reports whether the ':' was there.
func splitLine(s string) (key, value string, colon, ok bool) {
	if i := strings.IndexByte(s, ':'); i >= 0 {
		return trimWS(s[:i]), trimWS(s[i+1:]), true, true
	}
	for i := 0; i < len(s); i++ {
		if isWS(s[i]) {
			v := trimWS(s[i:])
			for j := 0; j < len(v); j++ {
				if isWS(v[j]) {
					return "", "", false, false
				}
			}
			return s[:i], v, false, true
		}
	}
	return "", "", false, false
}

func (p *parser) line(raw string, n int) {
	s := raw
	if h := strings.IndexByte(s, '#'); h >= 0 {
		s = s[:h]
	}
	s = trimWS(s)
	if s == "" {
		return
	}
	key, val, colon, ok := splitLine(s)
	if !ok {
		if !p.late {
			p.warn(p.cur, n, s, "not a \"key: value\" line; ignored")
		}
		return
	}
	d, typo := keyDirective(key)
	if p.late {
		// The line's own warnings were given when the file was parsed.
		if d != dUnknown {
			p.directive(d, s, val, n)
		}
		return
	}
	if d == dUnknown {
		if key == "" {
			p.warn(p.cur, n, s, "empty key; ignored")
		} else {
			p.warn(p.cur, n, s, "unknown directive \""+key+"\"; ignored")
		}
		return
	}
	if !colon {
		p.warn(p.cur, n, s, "missing ':' after the key; read as \""+key+": "+val+"\"")
	}
	if typo {
		p.warn(p.cur, n, s, "misspelt key \""+key+"\"; accepted")
	}
	p.directive(d, s, val, n)
}

// directive applies a line with a known key; s is the line as written,
// trimmed and without comment, val its trimmed value.
func (p *parser) directive(d directive, s, val string, n int) {
	if p.late {
		switch d {
		case dAllow, dDisallow:
			p.rule(s, val, n, d == dAllow)
		case dCrawlDelay, dRequestRate, dVisitTime, dComment, dRobotVersion:
			p.extension(d, s, val, n)
		}
		return
	}
	switch d {
	case dUserAgent:
		p.userAgent(s, val, n)
	case dAllow, dDisallow:
		p.rule(s, val, n, d == dAllow)
	case dSitemap:
		if val == "" {
			p.warn(nil, n, s, "empty Sitemap; ignored")
			return
		}
		p.r.sitemaps = append(p.r.sitemaps, val)
	case dIgnored:
	default:
		if p.cur == nil {
			p.warn(nil, n, s, "directive before the first user-agent line; ignored")
		}
		// A group's extension lines are read with its rules (Group.read).
	}
}

func (p *parser) userAgent(s, val string, n int) {
	if p.cur == nil || !p.open {
		p.r.recs = append(p.r.recs, groupRec{from: int32(p.spanOf(s).off), line: int32(n), agentFrom: int32(len(p.agents)),
			warnFrom: int32(len(p.r.warnings))})
		// Groups are r.recs until they are first used: while Parse reads
		// the file, cur only tells that a group is open.
		p.cur = &p.r.noGroup
		p.open = true
	}
	if val == "" {
		p.warn(p.cur, n, s, "empty user-agent; it matches no crawler")
	}
	s0 := span{}
	if val != "" {
		s0 = p.spanOf(val)
	}
	p.agents = append(p.agents, s0)
}

func (p *parser) rule(s, val string, n int, allow bool) {
	if p.cur == nil {
		p.warn(nil, n, s, "rule before the first user-agent line; ignored (RFC 9309 2.2.2)")
		return
	}
	p.open = false
	if !p.late || val == "" {
		return // read with the group's other rules; an empty pattern is no rule
	}
	if val[0] != '/' && val[0] != '*' {
		p.warn(p.cur, n, s, "pattern does not start with '/' or '*'; matched as written, so it matches no path")
	}
	r := rule{allow: allow, line: int32(n), text: p.spanOf(s)}
	clean, anchored := patternIsNormal(val)
	r.anchored = anchored
	if clean {
		r.pattern = p.spanOf(val)
		if anchored {
			r.pattern.n--
		}
	} else {
		start := len(p.arena)
		p.arena = appendNormal(p.arena, strings.TrimSuffix(val, "$"), true)
		r.pattern = span{uint32(start) | inArena, uint32(len(p.arena) - start)}
		p.arena = append(p.arena, '$')
	}
	p.rules = append(p.rules, r)
}

// spanOf locates s, a non-empty substring of the body, in the body.
func (p *parser) spanOf(s string) span {
	off := uintptr(unsafe.Pointer(unsafe.StringData(s))) - uintptr(unsafe.Pointer(unsafe.StringData(p.body)))
	return span{uint32(off), uint32(len(s))}
}

// finish indexes the groups by product token, merging groups that name the
// same token (RFC 9309 2.2.1).
func (p *parser) finish() {
	r := p.r
	r.none = &r.noGroup
	// A group ends where the next one starts.
	recs := r.recs
	for i := range recs {
		if i+1 < len(recs) {
			next := &recs[i+1]
			recs[i].to, recs[i].agentTo, recs[i].warnTo = next.from, next.agentFrom, next.warnFrom
		} else {
			recs[i].to, recs[i].agentTo, recs[i].warnTo = int32(len(r.body)), int32(len(p.agents)), int32(len(r.warnings))
		}
	}
	r.txt.body = r.body
	agent := func(s span) string { return r.body[s.off : s.off+s.n] }
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
		// Joined names go to the arena.
		start := len(p.arena)
		for k, s := range p.agents[g.agentFrom:g.agentTo] {
			if k > 0 {
				p.arena = append(p.arena, ", "...)
			}
			p.arena = append(p.arena, agent(s)...)
		}
		g.name = span{uint32(start) | inArena, uint32(len(p.arena) - start)}
	}
	// Lower-case every product token into one buffer, so that the keys
	// share a single allocation; the token ends share another with the
	// index's slots.
	size := 0
	for _, s := range p.agents {
		size += int(s.n)
	}
	nslots := 2 // at most three quarters full, so a probe always ends
	for 3*nslots < 4*len(p.agents) {
		nslots *= 2
	}
	// The slots, the token ends and the tokens share one pointer-free
	// allocation: slots first, then ends, then the tokens' octets.
	x := &r.index
	slotSize := int(unsafe.Sizeof(agentSlot{}))
	x.slots = make([]agentSlot, nslots, nslots+(4*len(p.agents)+size+slotSize-1)/slotSize)
	tail := unsafe.Pointer(unsafe.SliceData(x.slots[nslots:cap(x.slots)]))
	ends := unsafe.Slice((*int32)(tail), len(p.agents))
	buf := unsafe.Slice((*byte)(unsafe.Add(tail, 4*len(p.agents))), size)
	w := 0
	for i, s := range p.agents {
		a := agent(s)
		if a == "*" || len(a) > 1 && a[0] == '*' && isWS(a[1]) {
			buf[w] = '*'
			w++
		} else {
			// The product token, lower-cased (RFC 9309 2.2.1).
			for j := 0; j < len(a); j++ {
				c := tokenLower[a[j]]
				if c == 0 {
					break
				}
				buf[w] = c
				w++
			}
		}
		ends[i] = int32(w)
	}
	// buf is not written again: the keys share its memory.
	keys := unsafe.String(unsafe.SliceData(buf), w)
	x.keys = keys
	var dups map[uint32][]int32 // the groups of a token named by several
	var stars []int32
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
	r.made = make([]atomic.Pointer[Group], len(recs))
	if dups != nil {
		for k := range x.slots[:nslots] {
			s := &x.slots[k]
			if l := dups[s.off]; s.n != 0 && l != nil {
				s.group = -1 - int32(len(x.merged))
				x.merged = append(x.merged, p.merge(l))
			}
		}
	}
	x.slots = x.slots[:nslots:nslots]
	switch len(stars) {
	case 0:
	case 1:
		// Most files have a "*" group: it lives inside r.
		r.initGroup(&r.starGroup, stars[0])
		r.star = &r.starGroup
		r.made[stars[0]].Store(r.star)
	default:
		r.star = p.merge(stars)
	}
	// The parser is done with the arena: the string shares its memory.
	r.txt.agents, r.txt.arena = p.agents, unsafe.String(unsafe.SliceData(p.arena), len(p.arena))
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
