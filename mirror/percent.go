package mirror

import (
	"net/url"
	"strings"
)

// The percent-encoding (RFC 3986 section 2.1) of the mirror's keys
// (key.go) and file names (path.go).

// unhex2 decodes the two hex digits at s[i:i+2].
func unhex2(s string, i int) (byte, bool) {
	if i+2 > len(s) {
		return 0, false
	}
	hi, ok1 := unhex(s[i])
	lo, ok2 := unhex(s[i+1])
	return hi<<4 | lo, ok1 && ok2
}

// unhex is the value of one hex digit.
func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// writePercent writes c as "%XX" with upper-case hex digits (RFC 3986
// section 2.1 recommends them).
func writePercent(b *strings.Builder, c byte) {
	const hexDigits = "0123456789ABCDEF"
	b.WriteByte('%')
	b.WriteByte(hexDigits[c>>4])
	b.WriteByte(hexDigits[c&15])
}

// looseEscapes writes the escaped path or query s in one spelling for all
// the ways a link may write it: an octet RFC 3986 allows raw in it (an
// unreserved or sub-delimiter character, ':', '@', or one of extra) raw,
// any other octet escaped ("%XX"), and a '%' that starts no escape as
// "%25". An escaped octet is decoded if it is unreserved or one of
// decode: in a query "'", which the URL Standard's clients (colly's URL
// parser, browsers) send escaped whichever way the link wrote it. So the
// paths "/it's a" and "/it's%20a" are one, and the queries "q=it's" and
// "q=it%27s", and "q=café" and "q=caf%C3%A9": an archive may have stored
// either spelling. The escaped reserved characters ("%27" in a path,
// "%2B", "%2F") stay escaped: they make another URL (RFC 3986 section
// 2.2).
func looseEscapes(s, extra, decode string) string {
	const subDelims = "!$&'()*+,;=:@"
	raw := func(c byte) bool {
		return isUnreserved(c) || strings.IndexByte(subDelims, c) >= 0 || strings.IndexByte(extra, c) >= 0
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if v, ok := unhex2(s, i+1); ok {
				i += 2
				if isUnreserved(v) || strings.IndexByte(decode, v) >= 0 {
					b.WriteByte(v)
				} else {
					writePercent(&b, v)
				}
				continue
			}
			b.WriteString("%25")
			continue
		}
		if raw(c) {
			b.WriteByte(c)
		} else {
			writePercent(&b, c)
		}
	}
	return b.String()
}

// parseLink parses a link or Location as written. Where its path holds
// octets a URI may not hold raw (a space, say), net/url would escape the
// whole path again, sub-delimiters too ("/it's a" becoming "/it%27s%20a",
// another URL than the crawler's "/it's%20a"): only those octets are
// escaped instead.
func parseLink(s string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.RawPath == "" || u.EscapedPath() == u.RawPath {
		return u, err
	}
	var b strings.Builder
	for i := 0; i < len(u.RawPath); i++ {
		if c := u.RawPath[i]; isUnreserved(c) || isSegmentLiteral(c) || c == '/' || c == '%' {
			b.WriteByte(c)
		} else {
			writePercent(&b, c)
		}
	}
	u.RawPath = b.String()
	return u, nil
}
