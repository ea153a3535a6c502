package robots

import "strings"

// plainOctets has a 1 at index b for the octets a normalised URL keeps as
// they are: RFC 3986 unreserved characters and the reserved ones except
// '*' and '$', which robots.txt patterns give a special meaning and a URL
// therefore compares in their encoded form (RFC 9309 2.2.3).
const plainOctets = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x01\x01\x01\x01\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x01\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x01\x00\x01\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

// patternOctets is plainOctets plus '*', the octets a normal pattern keeps.
const patternOctets = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x01\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x01\x00\x01\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

const hexDigits = "0123456789ABCDEF"

// isPlain reports whether b stays as written in a normalised URL.
func isPlain(b byte) bool { return plainOctets[b] != 0 }

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
	i := 0
	for ; i+4 <= len(s); i += 4 {
		if plainOctets[s[i]]&plainOctets[s[i+1]]&plainOctets[s[i+2]]&plainOctets[s[i+3]] == 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if plainOctets[s[i]] != 0 {
			continue
		}
		if !canonicalEscape(s, i) {
			return false
		}
		i += 2
	}
	return true
}

// normalPathEnd returns where the path s, which starts with '/', ends (at
// its '#' fragment, if any) and whether s[:end] is in normal form, looking
// at each octet once.
func normalPathEnd(s string) (end int, normal bool) {
	i := 0
	for {
		for ; i+4 <= len(s); i += 4 {
			if plainOctets[s[i]]&plainOctets[s[i+1]]&plainOctets[s[i+2]]&plainOctets[s[i+3]] == 0 {
				break
			}
		}
		for ; i < len(s) && plainOctets[s[i]] != 0; i++ {
		}
		if i == len(s) {
			return i, true
		}
		if s[i] == '#' {
			return i, true
		}
		if !canonicalEscape(s, i) {
			if h := strings.IndexByte(s[i:], '#'); h >= 0 {
				return i + h, false
			}
			return len(s), false
		}
		i += 3
	}
}

// normalPathSet is normalPathEnd that also returns the octet set (see
// octetSet) of s[:end].
func normalPathSet(s string) (end int, normal bool, set uint64) {
	i := 0
	var a, b uint64
	for {
		for ; i+2 <= len(s) && plainOctets[s[i]]&plainOctets[s[i+1]] != 0; i += 2 {
			a |= 1 << (s[i] & 63)
			b |= 1 << (s[i+1] & 63)
		}
		for ; i < len(s) && plainOctets[s[i]] != 0; i++ {
			a |= 1 << (s[i] & 63)
		}
		if i == len(s) || s[i] == '#' {
			return i, true, a | b
		}
		if !canonicalEscape(s, i) {
			return 0, false, 0
		}
		a |= 1<<('%'&63) | 1<<(s[i+1]&63) | 1<<(s[i+2]&63)
		i += 3
	}
}

// canonicalEscape reports whether s[i:] starts with a "%XX" escape that
// normalisation keeps as it is: upper-case hex for an octet that is not
// unreserved.
func canonicalEscape(s string, i int) bool {
	if s[i] != '%' || i+2 >= len(s) || !isUpperHex(s[i+1]) || !isUpperHex(s[i+2]) {
		return false
	}
	h, _ := unhex(s[i+1])
	l, _ := unhex(s[i+2])
	return !isUnreserved(h<<4 | l)
}

func isUpperHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

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

// patternIsNormal reports whether a rule's value is already in normal form
// (so its pattern can point into the body), and whether it ends with the
// '$' anchor.
func patternIsNormal(value string) (clean, anchored bool) {
	body := value
	if strings.HasSuffix(body, "$") {
		body, anchored = body[:len(body)-1], true
	}
	for i := 0; i < len(body); {
		if i+4 <= len(body) && patternOctets[body[i]]&patternOctets[body[i+1]]&patternOctets[body[i+2]]&patternOctets[body[i+3]] != 0 {
			i += 4
			continue
		}
		if patternOctets[body[i]] != 0 {
			i++
			continue
		}
		if !canonicalEscape(body, i) {
			return false, anchored
		}
		i += 3
	}
	return true, anchored
}

// pathOf returns the path, parameters and query of target, which may be an
// absolute URL, a scheme-relative "//host/path" or a path. The fragment is
// dropped. slash reports that the result must be read with a leading "/"
// (the target's path was empty and it had a query, as in "http://h?q").
// The logic follows Google's robotstxt GetPathParamsQuery.
func pathOf(target string) (path string, slash bool) {
	if len(target) > 0 && target[0] == '/' && (len(target) == 1 || target[1] != '/') {
		if h := strings.IndexByte(target, '#'); h >= 0 {
			return target[:h], false
		}
		return target, false
	}
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

// indexAny returns the index of the first octet of s at or after from that
// is in chars, or -1.
func indexAny(s string, from int, chars string) int {
	for i := from; i < len(s); i++ {
		if strings.IndexByte(chars, s[i]) >= 0 {
			return i
		}
	}
	return -1
}
