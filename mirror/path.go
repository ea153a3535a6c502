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

// Path returns the name the mirror gives u under root:
// root/<host>[_<port>][@<scheme>]/<path>, where <path> is the URL's own
// path, decoded as a web server decodes a request for it, wherever that
// is a safe file name (see fileName and dirName). So a static file server
// given root/<host> as its document root serves each mirrored URL at its
// own path, and a link rewritten to the file leads a browser there.
//
//   - The host directory is the lower-cased host (bytes outside [a-z0-9.-]
//     and a leading '.' or '-' written %XX), then "_<port>" when the URL
//     names a port (":80" too), "@u<hash>" when it has user information,
//     and "@<scheme>" for every scheme but http. So http://example.com/ is
//     stored in "example.com", https://example.com/ in "example.com@https"
//     and https://example.com:8443/ in "example.com_8443@https": an http
//     host directory never holds '@', so it is never an https one.
//   - A path ending in "/" (or empty) names the file "index.html" in its
//     directory, as with wget; the path "/dir/index.html" names the same
//     file, and Mirror.Store leaves it to that URL.
//   - A query is kept after a '?', as wget keeps it, and the extension of
//     the path is repeated after it, as wget --adjust-extension (-E) does
//     for pages and style sheets: "/_static/pydoctheme.css?2022.1" is
//     "_static/pydoctheme.css?2022.1.css", which a static server and a
//     browser reading file:// type by its extension, as text/css.
//   - A path longer than maxRelPath bytes is stored as "@long/<hash of
//     path and query>", a name longer than maxComponent bytes is cut and
//     ends "@h<hash>", an empty segment ("a//b") is the directory "@e".
//
// Two URLs get one name only if RFC 3986 section 6.2.2.1 (case of the
// scheme, of the host and of percent-encodings' hex digits) and 6.2.2.2
// (percent-encoded unreserved characters decoded) make them equal, or if
// one is the directory URL "/dir/" and the other "/dir/index.html"; the
// names are case-sensitive, as the file systems the mirror is made for
// (POSIX ones) are. It fails for URLs that are not absolute or have no
// host. The result is always inside root.
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
		if i < len(segs)-1 {
			names[i] = dirName(seg)
		} else {
			names[i] = fileName(seg, query)
		}
		total += len(names[i]) + 1
	}
	if total > maxRelPath {
		sum := sha256.Sum256([]byte(canon + query))
		names = []string{longDir, hex.EncodeToString(sum[:16])}
	}
	p := filepath.Join(append([]string{root, host}, names...)...)
	if err := checkInside(root, p); err != nil {
		return "", err
	}
	return p, nil
}

// isDirPage reports whether u names a directory ("/dir/", or the empty
// path): its file is "index.html" in that directory.
func isDirPage(u *url.URL) bool {
	p := u.EscapedPath()
	return p == "" || strings.HasSuffix(p, "/")
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

// escapeName percent-encodes every byte of a host directory's port or
// scheme outside [A-Za-z0-9-_.~+,=] and a leading '.' or '-'; a name of
// dots only has its dots escaped too, so it never means "." or "..".
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

// isNameByte reports whether c may appear unescaped in a host
// directory's name.
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.~+,=", c) >= 0
}
