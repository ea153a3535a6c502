package mirror

import (
	"net/url"
	"strings"
)

// mirrorKey names u in the mirror's table: one key per mirror file. It is
// u without fragment, scheme and host in lower case, the path in the form
// Path reads it (canonicalPath; empty written "/"), the query as is.
func mirrorKey(u *url.URL) string { return urlKey(u, false) }

// normKey is the key a link is looked up by when no file has its exact
// mirrorKey: mirrorKey after the rest of RFC 3986 section 6.2.2 and 6.2.3,
// that is dot segments removed (5.2.4), the default port (80 for http, 443
// for https) dropped, path and query in one spelling of their escapes
// (looseEscapes) and an empty query dropped.
func normKey(u *url.URL) string { return urlKey(u, true) }

// urlKey builds mirrorKey, or normKey when norm is set.
func urlKey(u *url.URL, norm bool) string {
	scheme := strings.ToLower(u.Scheme)
	if u.Opaque != "" {
		return scheme + ":" + u.Opaque
	}
	host := strings.TrimSuffix(strings.ToLower(u.Host), ":") // an empty port is none (6.2.3)
	p := canonicalPath(u.EscapedPath())
	if p == "" {
		p = "/"
	}
	query := rawQuery(u)
	if norm {
		if port := u.Port(); scheme == "http" && port == "80" || scheme == "https" && port == "443" {
			host = strings.TrimSuffix(host, ":"+port)
		}
		p = removeDotSegments(looseEscapes(p, "/", ""))
		query = ""
		if u.RawQuery != "" {
			query = "?" + looseEscapes(u.RawQuery, "/?", "'")
		}
	}
	var b strings.Builder
	b.WriteString(scheme + "://")
	if u.User != nil {
		b.WriteString(u.User.String() + "@")
	}
	b.WriteString(host)
	b.WriteString(p)
	b.WriteString(query)
	return b.String()
}

// removeDotSegments applies RFC 3986 section 5.2.4 to a canonical path
// (where "%2E" is already '.').
func removeDotSegments(p string) string {
	if !strings.HasPrefix(p, "/") || !strings.Contains(p, ".") {
		return p
	}
	in := strings.Split(p[1:], "/")
	out := make([]string, 0, len(in))
	for i, s := range in {
		last := i == len(in)-1
		switch s {
		case ".":
		case "..":
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
		default:
			out = append(out, s)
			continue
		}
		if last {
			out = append(out, "")
		}
	}
	return "/" + strings.Join(out, "/")
}
