package mirror

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// Mirror file naming limits.
const (
	maxComponent = 200  // bytes per file or directory name (ext4 allows 255)
	maxRelPath   = 2000 // bytes below the host directory (PATH_MAX is 4096)
)

// Path returns the file that mirrors u under root:
// root/<host>[_<port>][@<scheme>]/<path segments>/<name>. The mapping is
// made safe and one-to-one: two URLs share a file only if they are equal
// after the normalisations of RFC 3986 section 6.2.2.1 (case of the scheme,
// of the host and of percent-encodings' hex digits) and 6.2.2.2
// (percent-encoded unreserved characters decoded).
//
//   - The host directory is the lower-cased host (bytes outside [a-z0-9.-]
//     and a leading '.' or '-' written %XX), then "_<port>" when the URL names a port (":80" too),
//     "@u<hash>" when it has user information, and "@<scheme>" for every
//     scheme but http. So http://example.com/ is stored in "example.com",
//     https://example.com/ in "example.com@https" and
//     https://example.com:8443/ in "example.com_8443@https": an http host
//     directory never holds '@', so it is never an https one.
//   - Each path segment is read as RFC 3986 writes it: a literal byte is
//     kept if it is in [A-Za-z0-9-_.~+,=] and else written %XX (so "/",
//     "\", ":", NUL, controls and non-ASCII bytes can neither split nor
//     escape a name); a percent-encoded byte is written %XX too, except
//     that an encoded unreserved character is decoded ("%7e" is "~") and an
//     encoded character that the URL could also have written literally (the
//     sub-delims !$&'()*+,;= and :@[]) is written %%XX. So "a+b" is "a+b"
//     and "a%2Bb" is "a%%2Bb", "s;p" is "s%3Bp" and "s%3Bp" is "s%%3Bp",
//     "a%2Fb" is "a%2Fb". A segment made only of dots ("..", "%2e%2e")
//     becomes "%2E%2E": names never mean "." or "..". A segment's leading
//     '.' or '-' is written %2E or %2D ("/.htaccess" is "%2Ehtaccess",
//     "/-rf" is "%2Drf"), so no name is a hidden file, a live web server
//     file such as ".htaccess" or an option to a shell command. The escape
//     reads back as the byte it encodes, as every other %XX does, and a
//     literal '%' in a URL is itself written %25, so no other URL has
//     the name.
//   - '@' never survives that escaping, so names carry tags after '@' that
//     no URL segment can produce: "@c<hash>" when a segment holds
//     upper-case letters (distinct files on case-insensitive file systems),
//     "@q<hash>" for a query string (even an empty one: "/x?"), "@h<hash>"
//     for a name cut to maxComponent bytes, "@e" for an empty segment
//     ("a//b"), "@l" for a literal "index.html"; tags go before a short
//     extension ("page@q<hash>.html"). The mirror itself adds "@f" (a file
//     moved aside for a directory of its name) and keeps its temporary
//     files in root/@tmp, which no host directory can be.
//   - A path ending in "/" (or empty) is stored as "index.html" in the
//     directory; a path longer than maxRelPath bytes is stored as
//     "@long/<hash of path and query>".
//
// It fails for URLs that are not absolute or have no host. The result is
// always inside root.
func Path(root string, u *url.URL) (string, error) {
	if u == nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" {
		return "", fmt.Errorf("mirror: path: url %v is not absolute with a host", u)
	}
	host := hostDir(u)
	if u.Hostname() == "" || host == "" {
		return "", fmt.Errorf("mirror: path: url %v has an empty host", u)
	}
	canon := canonicalPath(u.EscapedPath())
	if canon == "" {
		canon = "/"
	}
	segs := strings.Split(strings.TrimPrefix(canon, "/"), "/")
	names := make([]string, len(segs))
	total := 0
	query := rawQuery(u)
	for i, seg := range segs {
		final := i == len(segs)-1
		names[i] = segmentName(seg, final, query)
		total += len(names[i]) + 1
	}
	if total > maxRelPath {
		sum := sha256.Sum256([]byte(canon + query))
		names = []string{"@long", hex.EncodeToString(sum[:16])}
	}
	p := filepath.Join(append([]string{root, host}, names...)...)
	if err := checkInside(root, p); err != nil {
		return "", err
	}
	return p, nil
}

// rawQuery is u's query with its "?", or "" when u has none ("/x?" has
// one: an empty query).
func rawQuery(u *url.URL) string {
	if u.RawQuery == "" && !u.ForceQuery {
		return ""
	}
	return "?" + u.RawQuery
}

// checkInside verifies p lies strictly below root.
func checkInside(root, p string) error {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("mirror: path %q escapes %q", p, root)
	}
	return nil
}

// hostDir is the host directory name: the lower-cased host with bytes
// outside [a-z0-9.-] and a leading '.' or '-' escaped, then "_port" when the URL names a port,
// "@u<hash>" for user information and "@<scheme>" unless the scheme is
// http.
func hostDir(u *url.URL) string {
	h := strings.ToLower(u.Hostname())
	dotsOnly := strings.Trim(h, ".") == ""
	var b strings.Builder
	for i := 0; i < len(h); i++ {
		c := h[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || (c == '-' || c == '.' && !dotsOnly) && i > 0 {
			b.WriteByte(c)
		} else {
			writePercent(&b, c)
		}
	}
	if p := u.Port(); p != "" {
		b.WriteString("_" + escapeName(p))
	}
	if u.User != nil {
		b.WriteString("@u" + shortHash(u.User.String()))
	}
	if s := strings.ToLower(u.Scheme); s != "http" {
		b.WriteString("@" + escapeName(s))
	}
	return capName(b.String())
}

// canonicalPath returns an escaped path (as url.URL.EscapedPath gives it)
// in the normal form of RFC 3986 sections 6.2.2.1 and 6.2.2.2: the
// percent-encodings of unreserved characters decoded, the others' hex
// digits in upper case. Reserved characters keep the form the URL gave
// them. A '%' that starts no escape is written "%25".
func canonicalPath(escaped string) string {
	if !strings.Contains(escaped, "%") {
		return escaped
	}
	var b strings.Builder
	b.Grow(len(escaped))
	for i := 0; i < len(escaped); i++ {
		c := escaped[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		v, ok := unhex2(escaped, i+1)
		switch {
		case !ok:
			b.WriteString("%25")
		case isUnreserved(v):
			b.WriteByte(v)
			i += 2
		default:
			writePercent(&b, v)
			i += 2
		}
	}
	return b.String()
}

// isUnreserved reports whether c is an RFC 3986 section 2.3 unreserved
// character.
func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// isSegmentLiteral reports whether c may appear unencoded in a path
// segment besides the unreserved characters (RFC 3986 section 3.3: the
// sub-delims, ':' and '@'; net/url also leaves '[' and ']' alone). Such a
// character means something different when percent-encoded (section 2.2).
func isSegmentLiteral(c byte) bool {
	return strings.IndexByte("!$&'()*+,;=:@[]", c) >= 0
}

// segmentName maps one canonical path segment to a file or directory name;
// query is the URL's query with its "?" ("" for none).
func segmentName(seg string, final bool, query string) string {
	name, upper := escapeSegment(seg)
	var tags string
	switch {
	case final && seg == "":
		name = "index.html"
	case seg == "":
		name = "@e"
	case final && strings.EqualFold(name, "index.html"):
		tags += "@l"
	}
	if upper {
		tags += "@c" + shortHash(name)
	}
	if final && query != "" {
		tags += "@q" + shortHash(query[1:])
	}
	return capName(withTags(name, tags))
}

// escapeSegment writes a canonical segment as a name (see Path) and
// reports whether the name holds upper-case letters outside its escapes.
func escapeSegment(seg string) (name string, upper bool) {
	dotsOnly := strings.Trim(seg, ".") == ""
	var b strings.Builder
	b.Grow(len(seg))
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if c == '%' {
			if v, ok := unhex2(seg, i+1); ok {
				if isSegmentLiteral(v) {
					b.WriteByte('%')
				}
				writePercent(&b, v)
				i += 2
				continue
			}
		}
		if isNameByte(c) && !(dotsOnly && c == '.') && (i > 0 || !isLeadEscaped(c)) {
			upper = upper || c >= 'A' && c <= 'Z'
			b.WriteByte(c)
		} else {
			writePercent(&b, c)
		}
	}
	return b.String(), upper
}

// escapeName percent-encodes every byte outside [A-Za-z0-9-_.~+,=] and a
// leading '.' or '-'; a name of dots only has its dots escaped too, so it
// never means "." or "..".
func escapeName(s string) string {
	dotsOnly := strings.Trim(s, ".") == ""
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isNameByte(c) && !(dotsOnly && c == '.') && (i > 0 || !isLeadEscaped(c)) {
			b.WriteByte(c)
		} else {
			writePercent(&b, c)
		}
	}
	return b.String()
}

// isLeadEscaped reports whether c is written %XX when it starts a name:
// a leading '.' would make a hidden file (or a live ".htaccess" under a
// web server) and a leading '-' a name a shell command reads as an option.
func isLeadEscaped(c byte) bool { return c == '.' || c == '-' }

// isNameByte reports whether c may appear unescaped in a mirror name.
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.~+,=", c) >= 0
}

// splitExt splits "name.ext" when ext is 1-10 letters or digits.
func splitExt(name string) (stem, ext string) {
	i := strings.LastIndexByte(name, '.')
	if i <= 0 || len(name)-i-1 == 0 || len(name)-i-1 > 10 {
		return name, ""
	}
	for _, c := range []byte(name[i+1:]) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return name, ""
		}
	}
	return name[:i], name[i:]
}

// withTags inserts tags before the name's extension.
func withTags(name, tags string) string {
	if tags == "" {
		return name
	}
	stem, ext := splitExt(name)
	return stem + tags + ext
}

// capName cuts a name longer than maxComponent bytes, keeping its
// extension and adding "@h" and a hash of the whole name.
func capName(name string) string {
	if len(name) <= maxComponent {
		return name
	}
	stem, ext := splitExt(name)
	if len(ext) > 12 {
		ext = ""
	}
	keep := maxComponent - len(ext) - 2 - 24
	cut := stem[:keep]
	if i := strings.LastIndexByte(cut, '%'); i >= 0 && i > len(cut)-3 {
		// do not split a %XX or %%XX escape
		cut = strings.TrimSuffix(cut[:i], "%")
	}
	sum := sha256.Sum256([]byte(name))
	return cut + "@h" + hex.EncodeToString(sum[:12]) + ext
}

// shortHash is 12 hex digits of SHA-256: distinct names for distinct inputs
// with overwhelming probability.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}
