package robots

import "strings"

// Octet classes for RFC 3986 as RFC 9309 section 2.2.2 uses them. A "plain"
// octet is kept as it is when a URL is normalised: unreserved characters and
// the reserved ones except '*' and '$', which robots.txt patterns give a
// special meaning and a URL therefore compares in their encoded form.
const (
	// plainLo has bit b set for plain octets b < 64.
	plainLo uint64 = 1<<'!' | 1<<'&' | 1<<'\'' | 1<<'(' | 1<<')' | 1<<'+' | 1<<',' |
		1<<'-' | 1<<'.' | 1<<'/' | ((1<<10)-1)<<'0' | 1<<':' | 1<<';' | 1<<'=' | 1<<'?'
	// plainHi has bit b-64 set for plain octets 64 <= b < 128.
	plainHi uint64 = 1<<('@'-64) | ((1<<26)-1)<<('A'-64) | 1<<('['-64) | 1<<(']'-64) |
		1<<('_'-64) | ((1<<26)-1)<<('a'-64) | 1<<('~'-64)
	hexDigits = "0123456789ABCDEF"
)

// isPlain reports whether b stays as written in a normalised URL.
func isPlain(b byte) bool {
	if b < 64 {
		return plainLo>>b&1 != 0
	}
	if b < 128 {
		return plainHi>>(b-64)&1 != 0
	}
	return false
}

// isUnreserved reports whether b is an RFC 3986 unreserved character.
func isUnreserved(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' ||
		b == '-' || b == '.' || b == '_' || b == '~'
}

func unhex(b byte) (byte, bool) {
	switch {
	case '0' <= b && b <= '9':
		return b - '0', true
	case 'a' <= b && b <= 'f':
		return b - 'a' + 10, true
	case 'A' <= b && b <= 'F':
		return b - 'A' + 10, true
	}
	return 0, false
}

// urlIsNormal reports whether the URL path s is already in normal form, so
// that matching can use it without a copy.
func urlIsNormal(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isPlain(s[i]) {
			return false
		}
	}
	return true
}

// appendNormal appends the normal form of s to dst: octets outside US-ASCII,
// controls, space and the characters RFC 3986 allows nowhere are
// percent-encoded; "%xx" escapes get upper-case hex digits and are decoded
// when they stand for an unreserved character; reserved characters and
// their escapes are kept apart, so "%2F" never equals "/". In a URL
// (pattern false) '*' and '$' are encoded too, so that a pattern's "%2A" and
// "%24" match them. In a pattern '*' is kept as the wildcard and '$' (the
// caller strips a final one) is encoded.
func appendNormal(dst []byte, s string, pattern bool) []byte {
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case isPlain(b):
			dst = append(dst, b)
		case b == '*' && pattern:
			dst = append(dst, '*')
		case b == '%' && i+2 < len(s):
			hi, ok1 := unhex(s[i+1])
			lo, ok2 := unhex(s[i+2])
			if !ok1 || !ok2 {
				dst = append(dst, '%')
				continue
			}
			c := hi<<4 | lo
			if isUnreserved(c) {
				dst = append(dst, c)
			} else {
				dst = append(dst, '%', hexDigits[hi], hexDigits[lo])
			}
			i += 2
		case b == '%':
			dst = append(dst, '%')
		default:
			dst = append(dst, '%', hexDigits[b>>4], hexDigits[b&15])
		}
	}
	return dst
}

// normalPattern returns the normal form of a rule's path pattern and whether
// it ends with the '$' anchor. The result shares memory with value when
// value needs no change.
func normalPattern(value string) (pattern string, anchored bool) {
	if strings.HasSuffix(value, "$") {
		value, anchored = value[:len(value)-1], true
	}
	clean := true
	for i := 0; i < len(value); i++ {
		if !isPlain(value[i]) && value[i] != '*' {
			clean = false
			break
		}
	}
	if clean {
		return value, anchored
	}
	return string(appendNormal(make([]byte, 0, len(value)+8), value, true)), anchored
}

// pathOf returns the path, parameters and query of target, which may be an
// absolute URL, a scheme-relative "//host/path" or a path. The fragment is
// dropped. slash reports that the result must be read with a leading "/"
// (the target's path was empty and it had a query, as in "http://h?q").
// The logic follows Google's robotstxt GetPathParamsQuery.
func pathOf(target string) (path string, slash bool) {
	start := 0
	if strings.HasPrefix(target, "//") {
		start = 2
	}
	early := indexAny(target, start, "/?;")
	protoEnd := strings.Index(target[start:], "://")
	if protoEnd >= 0 {
		protoEnd += start
	}
	if early >= 0 && (protoEnd < 0 || early < protoEnd) {
		protoEnd = -1
	}
	if protoEnd < 0 {
		protoEnd = start
	} else {
		protoEnd += 3
	}
	ps := indexAny(target, protoEnd, "/?;")
	if ps < 0 {
		return "/", false
	}
	end := len(target)
	if h := strings.IndexByte(target[start:], '#'); h >= 0 {
		h += start
		if h < ps {
			return "/", false
		}
		end = h
	}
	return target[ps:end], target[ps] != '/'
}

func indexAny(s string, from int, chars string) int {
	if from > len(s) {
		return -1
	}
	i := strings.IndexAny(s[from:], chars)
	if i < 0 {
		return -1
	}
	return i + from
}
