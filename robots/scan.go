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
	for j < len(raw) && isKeyOctet(raw[j]) {
		j++
	}
	key := raw[start:j]
	for j < len(raw) && (raw[j] == ' ' || raw[j] == '\t') {
		j++
	}
	if j == len(raw) || raw[j] != ':' {
		return false
	}
	d := exactKey(key)
	if d == dUnknown {
		return false
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
