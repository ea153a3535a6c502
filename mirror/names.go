package mirror

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
	"unicode/utf8"
)

// The marks the mirror puts in names: each starts with '@', and a URL's
// own name that would end like one has that '@' written %40 (see unmark),
// so no URL is ever given a marked name.
const (
	// fileTag marks a file moved aside because a directory of its name is
	// needed: "/a" is "a@f" when "/a/b" is mirrored too, "/v1.2" "v1@f.2".
	fileTag = "@f"
	// dirPageTag marks the page of a directory URL ("/d/") moved aside
	// because "/d/index.html", which names its file, is mirrored too (or a
	// directory "index.html" is needed): "d/index@d.html".
	dirPageTag = "@d"
	// hashTag and the hash of the whole name end a name cut to
	// maxComponent bytes.
	hashTag = "@h"
	// emptyDir is the directory of an empty path segment ("a//b").
	emptyDir = "@e"
	// longDir holds, by hash, the URLs whose path exceeds maxRelPath.
	longDir = "@long"
)

// hashMark matches a stem that ends in a hashTag mark.
var hashMark = regexp.MustCompile(hashTag + `[0-9a-f]{24}$`)

// fileName is the name of a path's last segment seg (canonical, as
// canonicalPath writes it) with the URL's query ("" for none, else with
// its "?"): the segment as escapeSegment writes it ("index.html" when it
// is empty), then the query as escapeQuery writes it after a '?' and the
// segment's extension again ("x.css?v=2" is "x.css?v=2.css").
func fileName(seg, query string) string {
	name := "index.html"
	if seg != "" {
		name = escapeSegment(seg)
	}
	if query != "" {
		_, ext := splitExt(name)
		name += "?" + escapeQuery(query[1:]) + ext
	}
	return capName(unmark(name))
}

// dirName is the name of a directory segment seg: as escapeSegment writes
// it, or emptyDir for an empty one.
func dirName(seg string) string {
	if seg == "" {
		return emptyDir
	}
	return capName(unmark(escapeSegment(seg)))
}

// escapeSegment writes a canonical path segment as a name: decoded, as a
// web server decodes a request path, except that
//   - an escaped character the URL could also have written literally
//     (the sub-delims !$&'()*+,;= and :@[]) stays escaped as "%%XX", apart
//     from the literal one: "a+b" is "a+b", "a%2Bb" is "a%%2Bb" (RFC 3986
//     section 2.2 makes them two URLs);
//   - a byte a name may not hold safely is written %XX (see isUnsafeByte
//     and isUnsafeRune), '%' itself and a literal ':' too: "a%2Fb" is
//     "a%2Fb", "100%25" is "100%25", "Talk:Main" is "Talk%3AMain";
//   - a segment of dots only ("..", "%2e%2e") has its dots written %2E,
//     and a leading '.' or '-' is written %2E or %2D, so no name means "."
//     or "..", is a hidden or live server file (".htaccess") or reads as
//     an option to a shell command ("-rf").
func escapeSegment(seg string) string {
	dotsOnly := strings.Trim(seg, ".") == ""
	var b strings.Builder
	b.Grow(len(seg))
	run := make([]byte, 0, len(seg)) // decoded bytes not yet written
	flush := func() {
		writeDecoded(&b, run, b.Len() == 0, dotsOnly, true)
		run = run[:0]
	}
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if c == '%' {
			if v, ok := unhex2(seg, i+1); ok {
				i += 2
				if isSegmentLiteral(v) {
					flush()
					b.WriteByte('%')
					writePercent(&b, v)
				} else {
					run = append(run, v)
				}
				continue
			}
		}
		run = append(run, c)
	}
	flush()
	return b.String()
}

// escapeQuery writes a raw query (without its "?") as the part of a name
// after the '?', in the URL's own spelling, as wget keeps it: its escapes
// stay as they are ("q=caf%C3%A9"), and a byte a name may not hold safely
// (isUnsafeByte, isUnsafeRune: '/', ':', a '%' that starts no escape, ...)
// is written "%%XX". A static server never reads this part: only the
// rewritten links, which escape every '%' and the '?', lead to it.
func escapeQuery(q string) string {
	var b strings.Builder
	b.Grow(len(q))
	run := make([]byte, 0, len(q))
	flush := func() {
		writeDecoded(&b, run, false, false, false)
		run = run[:0]
	}
	for i := 0; i < len(q); i++ {
		if q[i] == '%' {
			if _, ok := unhex2(q, i+1); ok {
				flush()
				b.WriteString(q[i : i+3])
				i += 2
				continue
			}
		}
		run = append(run, q[i])
	}
	flush()
	return b.String()
}

// writeDecoded writes the bytes of a part of a name, each unsafe one (see
// isUnsafeByte, isUnsafeRune; in a path segment also '?', which separates
// the query) escaped: "%XX" in a path segment (inPath), "%%XX" in the
// query; with lead, a leading '.' or '-' too, and with dotsOnly every '.'.
func writeDecoded(b *strings.Builder, run []byte, lead, dotsOnly, inPath bool) {
	escape := func(bs []byte) {
		for _, c := range bs {
			if !inPath {
				b.WriteByte('%')
			}
			writePercent(b, c)
		}
	}
	for i := 0; i < len(run); {
		c := run[i]
		if c < utf8.RuneSelf {
			if isUnsafeByte(c) || inPath && c == '?' || dotsOnly && c == '.' || lead && i == 0 && isLeadEscaped(c) {
				escape(run[i : i+1])
			} else {
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(run[i:])
		if r == utf8.RuneError && size == 1 || isUnsafeRune(r) {
			escape(run[i : i+size])
		} else {
			b.Write(run[i : i+size])
		}
		i += size
	}
}

// isUnsafeByte reports whether the ASCII byte c is written escaped in a
// name: a control character (which a terminal may obey), '/' and '\'
// (path separators), ':' (an NTFS stream, a macOS Finder '/') and '%',
// the escape character itself.
func isUnsafeByte(c byte) bool {
	return c < 0x20 || c == 0x7f || c == '/' || c == '\\' || c == ':' || c == '%'
}

// isUnsafeRune reports whether a non-ASCII character is written escaped
// (as the bytes of its UTF-8 encoding) in a name: the C1 controls and the
// invisible formatting characters that reorder or hide text in a listing
// (bidirectional controls, zero-width characters, line and paragraph
// separators, the byte order mark, interlinear annotations). The list is
// fixed, not taken from a Unicode version, so names do not change with
// the Go release. Bytes that are not UTF-8 are escaped too (writeDecoded).
func isUnsafeRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r == 0x061c || r >= 0x200b && r <= 0x200f ||
		r >= 0x2028 && r <= 0x202e || r >= 0x2060 && r <= 0x206f || r == 0xfeff || r >= 0xfff9 && r <= 0xfffb
}

// unmark writes the '@' of a mark the URL's own name would end with as
// "%40" ("%%40" in the query part, as escapeQuery writes an unsafe byte):
// a name equal to emptyDir or longDir, or whose stem ends with fileTag,
// dirPageTag or a hashTag mark. So "/a@f" is "a%40f", never the name of
// "/a" moved aside, while "logo@2x.png" and "/@user" keep their '@'.
func unmark(name string) string {
	i := markAt(name)
	if i < 0 {
		return name
	}
	esc := "%40"
	if q := strings.IndexByte(name, '?'); q >= 0 && i > q {
		esc = "%%40"
	}
	return name[:i] + esc + name[i+1:]
}

// markAt is the index of the '@' that makes name a marked name, or -1.
func markAt(name string) int {
	if name == emptyDir || name == longDir {
		return 0
	}
	stem, _ := splitExt(name)
	switch {
	case strings.HasSuffix(stem, fileTag), strings.HasSuffix(stem, dirPageTag):
		return len(stem) - 2
	case hashMark.MatchString(stem):
		return len(stem) - len(hashTag) - 24
	}
	return -1
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
// extension and adding hashTag and a hash of the whole name. It cuts
// neither an escape nor a UTF-8 character.
func capName(name string) string {
	if len(name) <= maxComponent {
		return name
	}
	stem, ext := splitExt(name)
	if len(ext) > 12 {
		ext = ""
	}
	keep := maxComponent - len(ext) - 2 - 24
	for keep > 0 && !utf8.RuneStart(stem[keep]) {
		keep--
	}
	cut := stem[:keep]
	if i := strings.LastIndexByte(cut, '%'); i >= 0 && i > len(cut)-3 {
		// do not split a %XX or %%XX escape
		cut = strings.TrimSuffix(cut[:i], "%")
	}
	sum := sha256.Sum256([]byte(name))
	return cut + hashTag + hex.EncodeToString(sum[:12]) + ext
}

// shortHash is 12 hex digits of SHA-256: distinct names for distinct inputs
// with overwhelming probability.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}
