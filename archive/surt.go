package archive

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// SURT returns the CDXJ key of rawURL as pywb computes it when it looks a
// URL up: the python surt library's default transform (its
// DefaultIAURLCanonicalizer, that is the Google then the IA canonicalizer,
// then the SURT form without scheme or trailing comma). In order:
//
//   - the fragment, user name and password are dropped; a port that is the
//     scheme's default (80, 443) is dropped, any other is kept;
//   - path and query are percent-decoded until stable, dot segments and
//     empty segments ("a//b") of the path are removed, and the bytes
//     below 0x21 or above 0x7e and '%' and '#' are escaped again once;
//   - the host is percent-decoded, IDNA-encoded when not ASCII, each ".."
//     replaced by "." in one pass ("a....b" becomes "a..b") and outer dots
//     trimmed, numeric forms ("3279880203", "017.0.0.1", "10.0.258")
//     turned into dotted quads, then lower-cased, a leading
//     "www.", "www2.", ... dropped, and its labels reversed and joined by
//     commas, IPv4 addresses included ("1,0,0,127");
//   - path and query are lower-cased, the session ids surt knows
//     (jsessionid, phpsessid, sid, ASPSESSIONID, CFID/CFTOKEN, ASP.NET
//     path ids) removed, a trailing "/" removed unless the path is "/",
//     and the query arguments sorted; an empty query is dropped.
//
// Strings that are not http or https URLs are returned unchanged (as surt
// does for dns:, mailto:, warcinfo:).
func SURT(rawURL string) string {
	s := strings.TrimSpace(rawURL)
	if strings.ContainsAny(s, "\t\r\n") {
		s = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\r' || r == '\n' {
				return -1
			}
			return r
		}, s)
	}
	scheme, rest, ok := strings.Cut(s, "://")
	scheme = strings.ToLower(scheme)
	if !ok || (scheme != "http" && scheme != "https") {
		return rawURL
	}
	// "http://https://host" is read as "https://host", as surt does.
	for {
		next, more, found := strings.Cut(rest, "://")
		if !found || (!strings.EqualFold(next, "http") && !strings.EqualFold(next, "https")) {
			break
		}
		scheme, rest = strings.ToLower(next), more
	}
	u := splitURL(rest)
	if u.host == "" {
		return rawURL
	}
	var key strings.Builder
	key.Grow(len(rest) + 1) // the key is rarely longer than the URL
	// The host's labels reversed, joined by commas.
	for h := dropWWW(surtHost(u.host)); ; {
		i := strings.LastIndexByte(h, '.')
		key.WriteString(h[i+1:])
		if i < 0 {
			break
		}
		key.WriteByte(',')
		h = h[:i]
	}
	if u.port != "" {
		if p, err := strconv.Atoi(u.port); err == nil && p > 0 && p <= 65535 &&
			!(scheme == "http" && p == 80) && !(scheme == "https" && p == 443) {
			key.WriteByte(':')
			key.WriteString(strconv.Itoa(p))
		}
	}
	key.WriteByte(')')
	key.WriteString(surtPath(u.path))
	if q := surtQuery(u.query); q != "" {
		key.WriteByte('?')
		key.WriteString(q)
	}
	return key.String()
}

// urlParts is an http(s) URL after its "scheme://", split as python's
// urlsplit splits it.
type urlParts struct {
	host, port, path, query string
}

// splitURL splits the part of a URL after "scheme://" into host, port,
// path and query (RFC 3986 appendix B); the host is lower case, a user
// name and password and the fragment are dropped.
func splitURL(rest string) urlParts {
	rest, _, _ = strings.Cut(rest, "#")
	var u urlParts
	rest, u.query, _ = strings.Cut(rest, "?")
	netloc := rest
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		netloc, u.path = rest[:i], rest[i:]
	}
	if netloc == "" {
		// "http:////host/path": the host is the first path segment.
		trimmed := strings.TrimLeft(u.path, "/")
		netloc, u.path, _ = strings.Cut(trimmed, "/")
		u.path = "/" + u.path
	}
	if i := strings.LastIndexByte(netloc, '@'); i >= 0 {
		netloc = netloc[i+1:]
	}
	if after, ok := strings.CutPrefix(netloc, "["); ok {
		// An IPv6 literal: surt keeps the address without its brackets.
		var tail string
		u.host, tail, _ = strings.Cut(after, "]")
		_, u.port, _ = strings.Cut(tail, ":")
	} else {
		u.host, u.port, _ = strings.Cut(netloc, ":")
	}
	u.host = strings.ToLower(u.host)
	return u
}

// dropWWW drops a leading "www.", "www2.", "www12." ... label, as the IA
// canonicaliser does.
func dropWWW(host string) string {
	rest, ok := strings.CutPrefix(host, "www")
	if !ok {
		return host
	}
	rest = strings.TrimLeft(rest, "0123456789")
	if after, ok := strings.CutPrefix(rest, "."); ok {
		return after
	}
	return host
}

// surtHost is the Google canonicaliser's host: decoded, IDNA-encoded,
// ".." replaced by "." in one pass and outer dots trimmed, numeric IPv4
// forms normalised, lower-cased, escaped.
func surtHost(h string) string {
	h = unescapeAll(h)
	if !isASCII(h) {
		if a, err := idna.Lookup.ToASCII(h); err == nil {
			h = a
		}
	}
	h = strings.Trim(strings.ReplaceAll(h, "..", "."), ".")
	if ip, ok := numericIPv4(h); ok {
		return ip
	}
	return escapeOnce(strings.ToLower(h))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// numericIPv4 returns the dotted quad a numeric host stands for, as surt
// reads one: all digits is a number taken modulo 2^32; 1 to 4 dot-separated
// parts of digits (octal when they start with 0) are read as inet_aton
// reads them, the last part filling the remaining bytes.
func numericIPv4(h string) (string, bool) {
	if h == "" {
		return "", false
	}
	var v uint64
	if strings.Trim(h, "0123456789") == "" {
		for i := 0; i < len(h); i++ {
			v = (v*10 + uint64(h[i]-'0')) & 0xffffffff
		}
		return dottedQuad(v), true
	}
	parts := strings.Split(h, ".")
	if len(parts) > 4 {
		return "", false
	}
	octal := h[0] == '0'
	for i, p := range parts {
		digits := "0123456789"
		if octal {
			digits = "01234567" // surt's octal form: every part octal digits
		}
		if p == "" || strings.Trim(p, digits) != "" {
			return "", false
		}
		base := 10
		if len(p) > 1 && p[0] == '0' {
			base = 8
		}
		width := uint(8)
		if i == len(parts)-1 {
			width = uint(8 * (4 - i))
		}
		n, err := strconv.ParseUint(p, base, 32)
		if err != nil || n >= 1<<width {
			return "", false
		}
		v = v<<width | n
	}
	return dottedQuad(v), true
}

func dottedQuad(v uint64) string {
	return strconv.FormatUint(v>>24, 10) + "." + strconv.FormatUint(v>>16&255, 10) + "." +
		strconv.FormatUint(v>>8&255, 10) + "." + strconv.FormatUint(v&255, 10)
}

// surtPath is the key's path: decoded, dot and empty segments
// removed, escaped once, lower-cased, session ids and a trailing "/"
// removed.
func surtPath(p string) string {
	p = strings.ToLower(escapeOnce(normalizePath(unescapeAll(p))))
	p = dropPathSessionID(p, true)
	p = dropPathSessionID(p, false)
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return p
}

// normalizePath removes "." segments, resolves ".." against the segments
// before it (a leading ".." stays) and drops empty segments except a
// final one, so a trailing "/" survives. The part before the first "/" is
// not a segment of an absolute path and is dropped.
func normalizePath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] == '/' && !strings.Contains(p, "//") && !strings.Contains(p, "/.") {
		return p // no dot or empty segments to remove
	}
	segs := strings.Split(p, "/")[1:]
	kept := make([]string, 0, len(segs))
	for _, s := range segs {
		switch {
		case s == ".":
		case s == ".." && len(kept) > 0:
			kept = kept[:len(kept)-1]
		default:
			kept = append(kept, s)
		}
	}
	var b strings.Builder
	b.WriteByte('/')
	for i, s := range kept {
		if i == len(kept)-1 {
			b.WriteString(s)
		} else if s != "" {
			b.WriteString(s + "/")
		}
	}
	return b.String()
}

// surtQuery is the key's query: decoded and escaped once, session
// ids removed, lower-cased, arguments sorted by name then value (an
// argument without "=" before one with it). "" means no query.
func surtQuery(q string) string {
	if q == "" {
		return ""
	}
	q = escapeOnce(unescapeAll(q))
	q = dropQuerySessionIDs(q)
	q = strings.ToLower(q)
	if len(q) <= 1 {
		return q
	}
	args := strings.Split(q, "&")
	slices.SortFunc(args, func(a, b string) int {
		ka, va, ea := strings.Cut(a, "=")
		kb, vb, eb := strings.Cut(b, "=")
		if c := strings.Compare(ka, kb); c != 0 {
			return c
		}
		if ea != eb {
			if !ea {
				return -1
			}
			return 1
		}
		return cmp.Compare(va, vb)
	})
	return strings.Join(args, "&")
}

// unescapeAll percent-decodes s until nothing changes ("%2525" becomes
// "%"); '%' not followed by two hex digits stays. Decoded bytes that are
// not UTF-8 become U+FFFD, as python's unquote makes them.
func unescapeAll(s string) string {
	for strings.IndexByte(s, '%') >= 0 {
		d := unescapeOnce(s)
		if d == s {
			break
		}
		s = d
	}
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		b.WriteRune(r) // RuneError for each invalid byte
		s = s[n:]
	}
	return b.String()
}

// unescapeOnce percent-decodes each "%XX" of s once.
func unescapeOnce(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+3 <= len(s) {
			// Two hex digits: ParseUint takes no sign or prefix in base 16.
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

// escapeOnce percent-encodes the bytes of s below 0x21 or above 0x7e, and
// '%' and '#', with upper-case hex digits.
func escapeOnce(s string) string {
	clean := true
	for i := 0; i < len(s) && clean; i++ {
		c := s[i]
		clean = c > ' ' && c < 0x7f && c != '%' && c != '#'
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || c == '%' || c == '#' {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// dropPathSessionID removes an ASP.NET cookieless session id segment from
// a lower-case path, as surt does: "(x(<24 alnum>)y(<24 alnum>))/" when
// multi, "(<24 alnum>)/" otherwise, taken at the last "/" where it is
// followed by a name holding ".aspx" with no "?" before it.
func dropPathSessionID(p string, multi bool) string {
	for i := len(p) - 1; i > 0; i-- {
		if p[i-1] != '/' || p[i] != '(' {
			continue
		}
		n := sessionSegment(p[i:], multi)
		if n == 0 {
			continue
		}
		rest := p[i+n:]
		if k := strings.Index(rest, ".aspx"); k > 0 && !strings.Contains(rest[:k], "?") {
			return p[:i] + rest
		}
	}
	return p
}

// sessionSegment returns the length of the session-id segment (with its
// "/") at the start of s, 0 if there is none.
func sessionSegment(s string, multi bool) int {
	if !multi {
		if len(s) >= 27 && isAlnum(s[1:25]) && s[25] == ')' && s[26] == '/' {
			return 27
		}
		return 0
	}
	i := 1
	for len(s) >= i+27 && s[i] >= 'a' && s[i] <= 'z' && s[i+1] == '(' && isAlnum(s[i+2:i+26]) && s[i+26] == ')' {
		i += 27
	}
	if i > 1 && len(s) >= i+2 && s[i] == ')' && s[i+1] == '/' {
		return i + 2
	}
	return 0
}

// dropQuerySessionIDs removes session-id arguments from a query as surt
// does: for each kind in turn, the last occurrence that ends the query or
// is followed by '&' is cut out with that '&'.
func dropQuerySessionIDs(q string) string {
	// Each is a name (matched without regard to case, possibly as the end
	// of a longer name) and the length of its letters-and-digits value;
	// aspsessionid and cfid have values of their own form (sessionValueEnd).
	kinds := [...]struct {
		name     string
		valueLen int
	}{{"jsessionid=", 32}, {"phpsessid=", 32}, {"sid=", 32}, {"aspsessionid", 0}, {"cfid=", 0}}
	for _, sid := range kinds {
		for i := len(q) - len(sid.name); i >= 0; i-- {
			if !strings.EqualFold(q[i:i+len(sid.name)], sid.name) {
				continue
			}
			end := sessionValueEnd(q, i+len(sid.name), sid.name, sid.valueLen)
			if end < 0 {
				continue
			}
			if end == len(q) {
				q = q[:i]
			} else {
				q = q[:i] + q[end+1:]
			}
			break
		}
	}
	return q
}

// sessionValueEnd returns where the session id whose name ends at v ends,
// if it ends the query or is followed by '&'; -1 otherwise.
func sessionValueEnd(q string, v int, name string, valueLen int) int {
	letters := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if c := s[i] | 0x20; c < 'a' || c > 'z' {
				return false
			}
		}
		return true
	}
	var end int
	switch name {
	case "aspsessionid":
		if len(q) < v+8+1+24 || !letters(q[v:v+8]) || q[v+8] != '=' || !letters(q[v+9:v+33]) {
			return -1
		}
		end = v + 33
	case "cfid=":
		amp := strings.IndexByte(q[v:], '&')
		if amp <= 0 || !strings.HasPrefix(strings.ToLower(q[v+amp:]), "&cftoken=") {
			return -1
		}
		w := v + amp + len("&cftoken=")
		next := strings.IndexByte(q[w:], '&')
		if next == 0 || w == len(q) {
			return -1
		}
		if next < 0 {
			return len(q)
		}
		end = w + next
	default:
		if len(q) < v+valueLen || !isAlnum(q[v:v+valueLen]) {
			return -1
		}
		end = v + valueLen
	}
	if end < len(q) && q[end] != '&' {
		return -1
	}
	return end
}

// isAlnum reports whether s holds only ASCII letters (of either case) and
// digits. (The session-id segments of a path are matched after the path is
// lower-cased, those of a query before.)
func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; !('0' <= s[i] && s[i] <= '9' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}
