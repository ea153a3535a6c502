package scheduler

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/crawlproject/crawl/pageenc"
)

// errInvalidURL is wrapped by Canonicalize's errors.
var errInvalidURL = errors.New("scheduler: invalid url")

// Canonicalize resolves raw against base (which may be nil) and returns its
// canonical form, the key of the seen set: scheme and host in lower case,
// the port written as a decimal number without leading zeros and dropped
// when empty or the scheme's default (so ":080" and ":80" name one host, as
// RFC 3986 6.2.3 and the URL Standard's port parsing have it), user info and fragment dropped, dot segments
// resolved (RFC 3986 5.2.4), percent-encodings of unreserved characters
// decoded and all others in upper-case hex (RFC 3986 6.2.2), the query kept
// byte for byte and in order but for the octets a URI may not hold raw
// (escapeQuery), an empty path made "/". Only http and https
// URLs with a host and a port in 1-65535 (or none) are accepted. The
// fragment is cut off before raw is read, so a bad escape in it
// ("b.html#%_sec") does not make the URL invalid: it is no part of the
// request (RFC 3986 section 3.5).
func Canonicalize(raw string, base *url.URL) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	noFragment, _, _ := strings.Cut(raw, "#")
	ref, err := url.Parse(noFragment)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %w", errInvalidURL, raw, err)
	}
	if ref.RawPath != "" && ref.EscapedPath() != ref.RawPath {
		// The path as written holds octets a URI may not hold raw (a
		// space, say): net/url would then escape the whole path again,
		// sub-delimiters too, making "/it's a" "/it%27s%20a", which a
		// robots.txt rule written with the "'" no longer matches (RFC
		// 9309 2.2.2 leaves %27 encoded). Escape only what must be.
		ref.RawPath = escapePath(ref.RawPath)
	}
	u := ref
	if base != nil && !ref.IsAbs() {
		u = base.ResolveReference(ref)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return nil, fmt.Errorf("%w %q: scheme must be http or https", errInvalidURL, raw)
	}
	if u.Opaque != "" {
		return nil, fmt.Errorf("%w %q: opaque url", errInvalidURL, raw)
	}
	host := hostName(u)
	if host == "" {
		return nil, fmt.Errorf("%w %q: no host", errInvalidURL, raw)
	}
	port, err := canonicalPort(scheme, u.Port())
	if err != nil {
		return nil, fmt.Errorf("%w %q: %w", errInvalidURL, raw, err)
	}
	hostport := host
	if strings.Contains(host, ":") {
		hostport = "[" + host + "]"
	}
	if port != "" {
		hostport = net.JoinHostPort(host, port)
	}
	path := removeDotSegments(normalizeEscapes(u.EscapedPath(), true))
	if path == "" {
		path = "/"
	}
	out := &url.URL{Scheme: scheme, Host: hostport, RawQuery: escapeQuery(normalizeEscapes(u.RawQuery, false))}
	if err := setEscapedPath(out, path); err != nil {
		return nil, fmt.Errorf("%w %q: %w", errInvalidURL, raw, err)
	}
	return out, nil
}

// ResolveText returns raw resolved against base as text (RFC 3986
// section 5.2.2, dot segments left as written), for logging a reference
// that does not parse as a URI ("/bad%zz" on a page of http://h/a/):
// "http://h/bad%zz", the URL it was meant to be, rather than the bare
// reference. raw is returned as it is when it has a scheme, or base is
// nil or not absolute.
func ResolveText(raw string, base *url.URL) string {
	raw = strings.TrimSpace(raw)
	if base == nil || base.Scheme == "" || base.Host == "" || pageenc.RefScheme(raw) != "" {
		return raw
	}
	origin := base.Scheme + "://" + base.Host
	path := base.EscapedPath()
	switch {
	case strings.HasPrefix(raw, "//"):
		return base.Scheme + ":" + raw
	case strings.HasPrefix(raw, "/"):
		return origin + raw
	case raw == "" || raw[0] == '?' || raw[0] == '#':
		if raw == "" || raw[0] == '#' {
			if base.RawQuery != "" {
				path += "?" + base.RawQuery
			}
		}
		return origin + path + raw
	}
	// RFC 3986 5.2.3: merged with the base path up to its last "/", or
	// with "/" where the base has an authority and no path.
	dir := "/"
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir = path[:i+1]
	}
	return origin + dir + raw
}

// setEscapedPath stores an escaped path in u so that String prints it
// verbatim.
func setEscapedPath(u *url.URL, escaped string) error {
	p, err := url.PathUnescape(escaped)
	if err != nil {
		return err
	}
	u.Path = p
	u.RawPath = escaped
	if u.EscapedPath() != escaped {
		// url.URL only keeps RawPath when it is a valid encoding of Path;
		// EscapedPath's own encoding is then equivalent.
		u.RawPath = ""
	}
	return nil
}

// canonicalPort returns port as a decimal number without leading zeros, or
// "" when it is empty or scheme's default port. A port that is not a number
// in 1-65535 is an error: every spelling of one port must map to one
// authority, or a link to ":080" would get a pace (and robots.txt) of its own.
func canonicalPort(scheme, port string) (string, error) {
	if port == "" {
		return "", nil
	}
	n := 0
	for i := 0; i < len(port); i++ {
		c := port[i]
		if c < '0' || c > '9' {
			return "", fmt.Errorf("port %q is not a number", port)
		}
		n = n*10 + int(c-'0')
		if n > 65535 {
			return "", fmt.Errorf("port %q is above 65535", port)
		}
	}
	if n == 0 {
		return "", fmt.Errorf("port %q is 0", port)
	}
	if (scheme == "http" && n == 80) || (scheme == "https" && n == 443) {
		return "", nil
	}
	return strconv.Itoa(n), nil
}

// Authority returns "scheme://host:port" with the port always explicit, the
// key under which the scheduler paces one host. The port is normalised as
// Canonicalize does it (leading zeros dropped), so every spelling of one
// port yields one authority; u should be canonical (see Canonicalize).
func Authority(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := portOf(u)
	if port == "" {
		switch scheme {
		case "https":
			port = "443"
		default:
			port = "80"
		}
	}
	return scheme + "://" + net.JoinHostPort(hostName(u), port)
}

// RobotsURL is the URL of the robots.txt of authority (as Authority
// gives it): its port is left out when it is the scheme's default, as in
// every other URL the crawler requests (RFC 3986 6.2.3), so the request
// carries "Host: example.com", not "Host: example.com:80", which a server
// that canonicalises its host name answers with a redirect.
func RobotsURL(authority string) string { return originOf(authority) + "/robots.txt" }

// originOf returns the canonical "scheme://host[:port]" prefix of the URLs
// of authority (default ports are not written in canonical URLs).
func originOf(authority string) string {
	if o, ok := strings.CutSuffix(authority, ":80"); ok && strings.HasPrefix(o, "http://") {
		return o
	}
	if o, ok := strings.CutSuffix(authority, ":443"); ok && strings.HasPrefix(o, "https://") {
		return o
	}
	return authority
}

// portOf is u's port as Canonicalize writes it ("" for the scheme's
// default), or as written if it is not a valid port (Canonicalize refuses
// such URLs).
func portOf(u *url.URL) string {
	port, err := canonicalPort(strings.ToLower(u.Scheme), u.Port())
	if err != nil {
		return u.Port()
	}
	return port
}

// hostName is u's host in lower case without the trailing dot of a fully
// qualified name: "Example.COM." and "example.com" are one server, so one
// pace and one robots.txt.
func hostName(u *url.URL) string {
	h := strings.ToLower(u.Hostname())
	if len(h) > 1 && !strings.Contains(h, ":") {
		h = strings.TrimSuffix(h, ".")
	}
	return h
}

// isUnreserved reports whether c is an RFC 3986 unreserved character.
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// upperHex holds the hex digits of a percent-encoding in normal form
// (RFC 3986 6.2.2.1: upper case).
const upperHex = "0123456789ABCDEF"

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// normalizeEscapes upper-cases the hex digits of every percent-encoding
// and, if decode is set, decodes those of unreserved characters.
func normalizeEscapes(s string, decode bool) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) {
			h, ok1 := unhex(s[i+1])
			l, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				v := h<<4 | l
				if decode && isUnreserved(v) {
					b.WriteByte(v)
				} else {
					b.WriteByte('%')
					b.WriteByte(upperHex[h])
					b.WriteByte(upperHex[l])
				}
				i += 2
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// escapePath percent-encodes the octets of a path as written that a URI
// path may not hold raw, and keeps the rest, the sub-delimiters among them,
// as a browser does: what net/url accepts as an escaped path (RFC 3986
// pchar, '%', '/', '[' and ']').
func escapePath(p string) string { return percentEncode(p, pathEscaped) }

// pathEscaped reports whether escapePath encodes c.
func pathEscaped(c byte) bool {
	return !isUnreserved(c) && strings.IndexByte("!$&'()*+,;=:@%/[]", c) < 0
}

// escapeQuery percent-encodes the octets of a query that may not appear
// raw in a URI (RFC 3986 3.4): controls, space, the double quote, the
// angle brackets and every octet above 0x7E. It keeps the apostrophe,
// which the URL Standard has browsers encode in a query but RFC 3986
// allows: a robots.txt rule written with it must still match (RFC 9309
// 2.2.2 leaves %27 encoded). A non-ASCII octet is encoded as it came: the UTF-8 octets of a
// link found as UTF-8, or the raw octet of a page in another charset that
// was not decoded (a Latin-1 é becomes %E9, as a browser sends it). Else
// it went raw into the request line, and into the skip log, whose JSON
// turns an invalid UTF-8 octet into U+FFFD.
func escapeQuery(q string) string { return percentEncode(q, queryEscaped) }

// queryEscaped reports whether escapeQuery encodes c.
func queryEscaped(c byte) bool {
	return c <= ' ' || c > '~' || c == '"' || c == '<' || c == '>'
}

// percentEncode writes the octets of s that escaped reports as %XX, in
// upper-case hex; it returns s itself when there are none, as for most
// links.
func percentEncode(s string, escaped func(byte) bool) string {
	i := 0
	for i < len(s) && !escaped(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		if c := s[i]; escaped(c) {
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// removeDotSegments implements RFC 3986 section 5.2.4 on an escaped path.
func removeDotSegments(in string) string {
	if !strings.Contains(in, ".") {
		return in
	}
	var out []string
	segs := strings.Split(in, "/")
	abs := strings.HasPrefix(in, "/")
	if abs {
		segs = segs[1:]
	}
	for i, s := range segs {
		last := i == len(segs)-1
		switch s {
		case ".":
			if last {
				out = append(out, "")
			}
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	r := strings.Join(out, "/")
	if abs {
		r = "/" + r
	}
	return r
}
