package robots

import "strings"

// fastLine reads the common shapes of a line, "key: value # comment" with
// a correctly spelt key, blank lines and comment lines, in one pass and
// reports true; for anything else it does nothing and reports false, and
// the caller reads the line with the general (slower) line method. Both
// give the same result for every line fastLine accepts.
func (p *parser) fastLine(raw string, n int) bool {
	j := 0
	for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t') {
		j++
	}
	if j == len(raw) || raw[j] == '#' {
		return true // nothing but white space and a comment
	}
	start := j
	d, klen := keyword(raw[j:])
	if d == dUnknown {
		return false
	}
	j += klen
	for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t') {
		j++
	}
	if j == len(raw) || raw[j] != ':' {
		return false
	}
	if !p.late && p.cur != nil {
		switch d {
		case dAllow, dDisallow:
			p.open = false // the rule itself is read with its group's (Group.read)
			return true
		case dCrawlDelay, dRequestRate, dVisitTime, dComment, dRobotVersion:
			return true // read with the group's rules
		}
	}
	colon := j
	j++
	for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t') {
		j++
	}
	vs, ve := j, len(raw)
	if h := strings.IndexByte(raw[j:], '#'); h >= 0 {
		ve = j + h
	}
	for ve > vs && isWS(raw[ve-1]) {
		ve--
	}
	if ve > vs && isWS(raw[vs]) {
		return false // '\v' or '\f' before the value: leave it to line
	}
	end := colon + 1
	if ve > vs {
		end = ve
	}
	p.directive(d, raw[start:end], raw[vs:ve], n)
	return true
}

// fastRule reads the commonest line, "Allow:" or "Disallow:" written from
// the start of the line, followed by a pattern already in normal form and
// an optional comment, in one pass over its octets, and reports true. For
// any other line it does nothing and reports false. It gives the same
// result as line for every line it accepts.
func (p *parser) fastRule(raw string, n int) bool {
	const fold, fold32 = 0x2020202020202020, 0x20202020
	var j int
	var allow bool
	switch {
	case p.cur == nil:
		return false
	case len(raw) >= 9 && raw[8] == ':' && load64(raw)|fold == load64("disallow"):
		j = 9
	case len(raw) >= 6 && raw[5] == ':' && load32(raw)|fold32 == load32("allo") && raw[4]|0x20 == 'w':
		j, allow = 6, true
	default:
		return false
	}
	if !p.late {
		p.open = false // the rule itself is read with its group's (Group.read)
		return true
	}
	for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t') {
		j++
	}
	vs := j
	for {
		for ; j+4 <= len(raw); j += 4 {
			if patternOctets[raw[j]]&patternOctets[raw[j+1]]&patternOctets[raw[j+2]]&patternOctets[raw[j+3]] == 0 {
				break
			}
		}
		for j < len(raw) && patternOctets[raw[j]] != 0 {
			j++
		}
		if j < len(raw) && raw[j] == '%' && canonicalEscape(raw, j) {
			j += 3
			continue
		}
		break
	}
	ve := j
	if j < len(raw) && raw[j] == '$' {
		j++
	}
	for k := j; k < len(raw) && raw[k] != '#'; k++ {
		if !isWS(raw[k]) {
			return false // the value goes on in a form fastRule does not read
		}
	}
	if j > vs && raw[vs] != '/' && raw[vs] != '*' {
		return false // line warns about it
	}
	p.open = false
	if j == vs {
		return true // an empty pattern is no rule
	}
	p.rules = append(p.rules, rule{allow: allow, anchored: j > ve, line: int32(n),
		text: p.spanOf(raw[:j]), pattern: p.spanOf(raw[vs:ve])})
	return true
}

// keyword returns the directive of the correctly spelt key that s starts
// with, in any case, and the key's length; dUnknown if s starts with no
// key, or with a key followed by more key octets ("allowed"). It is
// exactKey without the scan for the key's end: it compares the key's
// octets a word at a time, with bit 5 set to fold the case (see foldEq;
// s never holds a CR, which would fold into '-').
func keyword(s string) (directive, int) {
	const fold, fold32 = 0x2020202020202020, 0x20202020
	var d directive
	var n int
	if len(s) < 4 {
		return dUnknown, 0
	}
	w4 := load32(s) | fold32
	switch {
	case len(s) >= 8 && load64(s)|fold == load64("user-age"):
		if len(s) >= 10 && s[8]|0x20 == 'n' && s[9]|0x20 == 't' {
			d, n = dUserAgent, 10
		}
	case w4 == load32("allo"):
		if len(s) >= 5 && s[4]|0x20 == 'w' {
			d, n = dAllow, 5
		}
	case len(s) >= 8 && load64(s)|fold == load64("disallow"):
		d, n = dDisallow, 8
	case len(s) >= 11 && load64(s)|fold == load64("crawl-de"):
		if s[8]|0x20 == 'l' && s[9]|0x20 == 'a' && s[10]|0x20 == 'y' {
			d, n = dCrawlDelay, 11
		}
	default:
		n = keyEnd(s)
		return exactKey(s[:n]), n
	}
	if d == dUnknown || n < len(s) && isKeyOctet(s[n]) {
		return dUnknown, 0
	}
	return d, n
}

// keyEnd returns the length of the leading run of key octets of s.
func keyEnd(s string) int {
	i := 0
	for i < len(s) && isKeyOctet(s[i]) {
		i++
	}
	return i
}

// isKeyOctet reports whether c can be part of a correctly spelt key.
func isKeyOctet(c byte) bool {
	l := c | 0x20
	return 'a' <= l && l <= 'z' || c == '-' || c == '_'
}

// exactKey is keyDirective for keys made of isKeyOctet octets, without the
// misspellings: dUnknown for anything else.
func exactKey(k string) directive {
	if len(k) < 4 {
		return dUnknown
	}
	switch k[0] | 0x20 {
	case 'u':
		if foldEq(k, "user-agent") {
			return dUserAgent
		}
	case 'a':
		if foldEq(k, "allow") {
			return dAllow
		}
	case 'd':
		if foldEq(k, "disallow") {
			return dDisallow
		}
	case 's':
		if foldEq(k, "sitemap") {
			return dSitemap
		}
	case 'c':
		switch {
		case foldEq(k, "crawl-delay"):
			return dCrawlDelay
		case foldEq(k, "comment"):
			return dComment
		case foldEq(k, "clean-param"):
			return dIgnored
		}
	case 'r':
		switch {
		case foldEq(k, "request-rate"):
			return dRequestRate
		case foldEq(k, "robot-version"):
			return dRobotVersion
		}
	case 'v':
		if foldEq(k, "visit-time") {
			return dVisitTime
		}
	case 'h':
		if foldEq(k, "host") {
			return dIgnored
		}
	case 'n':
		if foldEq(k, "noindex") {
			return dIgnored
		}
	}
	return dUnknown
}

// foldEq reports whether k, made of isKeyOctet octets, equals lower, a
// lower-case key, ignoring ASCII case. Setting bit 5 lower-cases letters,
// keeps '-' and turns '_' into DEL, which no key contains.
func foldEq(k, lower string) bool {
	if len(k) != len(lower) {
		return false
	}
	const fold = 0x2020202020202020
	i := 0
	for ; i+8 <= len(k); i += 8 {
		if load64(k[i:])|fold != load64(lower[i:]) {
			return false
		}
	}
	for ; i < len(k); i++ {
		if k[i]|0x20 != lower[i] {
			return false
		}
	}
	return true
}
