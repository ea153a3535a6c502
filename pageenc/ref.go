package pageenc

import "strings"

// CleanRef prepares a reference found on the web (an href or src in a
// page, a Location header) the way a browser's URL parser does before it
// parses one (WHATWG URL Standard, "basic URL parser"): the C0 controls
// and spaces around it are removed, and every ASCII tab, LF and CR inside
// it, so a link an old editor wrapped over two lines still leads where it
// does in a browser; and in a reference to an http or https URL (or one
// with no scheme, which takes its page's) each "\" before the query or
// fragment reads as "/", as browsers read Windows-authored links such as
// "images\logo.gif" and "\\host\page.html". RFC 3986 alone refuses the
// first and reads the others as other URLs (%5C), which such sites answer
// with 404.
func CleanRef(ref string) string {
	ref = strings.TrimFunc(ref, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(ref, "\t\n\r") {
		ref = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, ref)
	}
	if !strings.Contains(ref, `\`) {
		return ref
	}
	if s := RefScheme(ref); s != "" && !strings.EqualFold(s, "http") && !strings.EqualFold(s, "https") {
		return ref
	}
	end := strings.IndexAny(ref, "?#")
	if end < 0 {
		end = len(ref)
	}
	return strings.ReplaceAll(ref[:end], `\`, "/") + ref[end:]
}

// RefScheme returns the scheme ref starts with (RFC 3986 3.1: ALPHA
// *( ALPHA / DIGIT / "+" / "-" / "." ) before a ":"), or "".
func RefScheme(ref string) string {
	for i := 0; i < len(ref); i++ {
		c := ref[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return ref[:i]
		default:
			return ""
		}
	}
	return ""
}
