package archive

import "strings"

// The percent-encoding (RFC 3986 section 2.1) shared by the CDXJ keys
// (surt.go) and the mirror's keys and file names (mirrorpath.go).

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
