package archive

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

// MirrorPath returns the file that mirrors u under root:
// root/<host>[_<port>]/<path segments>/<name>. The mapping is made safe and
// one-to-one for URLs that differ after percent-decoding each segment:
//
//   - each segment is percent-decoded, then every byte outside
//     [A-Za-z0-9-_.~+,=] is written as %XX, so "/", "\", NUL, controls,
//     "%2f" and non-ASCII bytes can neither split nor escape a name, and a
//     segment made only of dots ("..", "%2e%2e") becomes "%2E%2E";
//   - '@' never survives that escaping, so names carry tags after '@'
//     that no URL segment can produce: "@c<hash>" when a segment holds
//     upper-case letters (distinct files on case-insensitive file systems),
//     "@q<hash>" for a query string, "@h<hash>" for a name cut to
//     maxComponent bytes, "@e" for an empty segment ("a//b"), "@l" for a
//     literal "index.html"; tags go before a short extension ("page@q..html");
//   - a path ending in "/" (or empty) is stored as "index.html" in the
//     directory; a path longer than maxRelPath bytes is stored as
//     "@long/<hash of path and query>".
//
// It fails for URLs without a host. The result is always inside root.
func MirrorPath(root string, u *url.URL) (string, error) {
	if u == nil || u.Host == "" || u.Opaque != "" {
		return "", fmt.Errorf("archive: mirror path: url %v has no host", u)
	}
	host := hostDir(u)
	if u.Hostname() == "" || host == "" {
		return "", fmt.Errorf("archive: mirror path: url %v has an empty host", u)
	}
	raw := u.EscapedPath()
	if raw == "" {
		raw = "/"
	}
	segs := strings.Split(strings.TrimPrefix(raw, "/"), "/")
	names := make([]string, len(segs))
	total := 0
	for i, seg := range segs {
		final := i == len(segs)-1
		names[i] = segmentName(seg, final, u.RawQuery)
		total += len(names[i]) + 1
	}
	if total > maxRelPath {
		sum := sha256.Sum256([]byte(raw + "?" + u.RawQuery))
		names = []string{"@long", hex.EncodeToString(sum[:16])}
	}
	p := filepath.Join(append([]string{root, host}, names...)...)
	if err := checkInside(root, p); err != nil {
		return "", err
	}
	return p, nil
}

// checkInside verifies p lies strictly below root.
func checkInside(root, p string) error {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return fmt.Errorf("archive: mirror path %q escapes %q", p, root)
	}
	return nil
}

// hostDir is the host directory name: the lower-cased host with bytes
// outside [a-z0-9.-] escaped, then "_port" when the URL names a port.
func hostDir(u *url.URL) string {
	h := strings.ToLower(u.Hostname())
	var b strings.Builder
	for i := 0; i < len(h); i++ {
		c := h[i]
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || (c == '.' && strings.Trim(h, ".") != "") {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	if p := u.Port(); p != "" {
		b.WriteString("_" + escapeName(p))
	}
	return capName(b.String())
}

// segmentName maps one escaped path segment to a file or directory name.
func segmentName(seg string, final bool, rawQuery string) string {
	dec, err := url.PathUnescape(seg)
	if err != nil {
		dec = seg
	}
	var tags string
	name := escapeName(dec)
	switch {
	case final && dec == "":
		name = "index.html"
	case dec == "":
		name = "@e"
	case final && strings.EqualFold(name, "index.html"):
		tags += "@l"
	}
	if strings.ContainsFunc(dec, func(r rune) bool { return r >= 'A' && r <= 'Z' }) {
		tags += "@c" + shortHash(dec)
	}
	if final && rawQuery != "" {
		tags += "@q" + shortHash(rawQuery)
	}
	return capName(withTags(name, tags))
}

// escapeName percent-encodes every byte outside [A-Za-z0-9-_.~+,=]; a name
// of dots only has its dots escaped too, so it never means "." or "..".
func escapeName(s string) string {
	dotsOnly := strings.Trim(s, ".") == ""
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isNameByte(c) && !(dotsOnly && c == '.') {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

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
		cut = cut[:i] // do not split a %XX escape
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
