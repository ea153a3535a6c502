package main

import (
	"strconv"
	"strings"

	"github.com/crawlproject/crawl/scheduler"
)

// checkHost is the host a path given to "robots check --file" is put on to
// be canonicalised; only its path and query are kept. ".invalid" can name
// no real host (RFC 2606).
const checkHost = "http://robots-check.invalid"

// checkedAs returns the form of target the crawler would request and match
// against robots.txt: scheduler.Canonicalize's, the crawl's own (dot
// segments resolved, "%2e%2e" included; unreserved escapes decoded; an
// empty query and the fragment dropped). An absolute URL stays absolute; a
// path stays a path. ok is false for a target the crawl would not request
// at all (a raw control octet, a bad port): it is then judged as typed.
func checkedAs(target string) (canon string, ok bool) {
	isPath := strings.HasPrefix(target, "/") && !strings.HasPrefix(target, "//")
	raw := target
	if isPath {
		raw = checkHost + target
	}
	c, err := scheduler.Canonicalize(raw, nil)
	if err != nil {
		return target, false
	}
	if isPath {
		return c.RequestURI(), true
	}
	return c.String(), true
}

// spelledAlike reports whether typed and its canonical form canon differ
// only in ways that cannot change a robots.txt verdict nor the resource
// asked for, so "checked as" would be noise: the fragment, the case of
// scheme and host, and percent-encoding (RFC 9309 2.2.2 matches "/café"
// and "/caf%C3%A9" alike). A dot segment, an empty query or a port
// spelling still differ.
func spelledAlike(typed, canon string) bool {
	return looseForm(typed) == looseForm(canon)
}

// looseForm is s without its fragment, with every escape decoded and, for
// an absolute URL, scheme and host in lower case.
func looseForm(s string) string {
	if h := strings.IndexByte(s, '#'); h >= 0 {
		s = s[:h]
	}
	if i := strings.Index(s, "://"); i >= 0 {
		j := strings.IndexAny(s[i+3:], "/?")
		if j < 0 {
			j = len(s) - i - 3
		}
		s = strings.ToLower(s[:i+3+j]) + s[i+3+j:]
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b.WriteByte(byte(v))
				i += 2
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
