package crawler

import (
	"strings"

	"github.com/crawlproject/crawl/pageenc"
)

// pageEncoding is the encoding a page is read in: its links' paths are
// UTF-8 and their queries are written in it, as a browser writes them.
type pageEncoding = pageenc.Encoding

// pageLinkSelector matches the elements pageRef reads, for colly.
const pageLinkSelector = "a[href], area[href], frame[src], iframe[src], meta[http-equiv]"

// requisiteSelector matches the elements requisiteRefs reads, for colly.
const requisiteSelector = "img[src], img[lowsrc], script[src], link[href], " +
	"body[background], table[background], td[background], th[background], " +
	"embed[src], object[data], input[src], audio[src], video[src], video[poster], source[src], track[src]"

// pageRef returns the reference to another page that the element tag
// holds, read by attr: <a href> and <area href>; the documents of a
// frameset, <frame src>, and of an <iframe src>, without which a site of
// frames archives as an empty frame set (wget follows them too); and the
// target of a <meta http-equiv="refresh">, which is how a static site
// without server configuration says a page moved.
func pageRef(tag string, attr func(string) string) (string, bool) {
	var ref string
	switch tag {
	case "a", "area":
		ref = attr("href")
	case "frame", "iframe":
		ref = attr("src")
	case "meta":
		if !strings.EqualFold(strings.TrimSpace(attr("http-equiv")), "refresh") {
			return "", false
		}
		ref = refreshURL(attr("content"))
	}
	return ref, ref != ""
}

// requisiteRefs returns the references to the parts of a page that the
// element tag holds (fetched with fetch.requisites): images, including
// the low-resolution first image (lowsrc) and backgrounds of old layouts;
// scripts; style sheets and icons; embedded objects; media and their
// posters and captions; image buttons.
func requisiteRefs(tag string, attr func(string) string) []string {
	var refs []string
	add := func(name string) {
		if v := attr(name); strings.TrimSpace(v) != "" {
			refs = append(refs, v)
		}
	}
	switch tag {
	case "img":
		add("src")
		add("lowsrc")
	case "link":
		rel := strings.ToLower(attr("rel"))
		if strings.Contains(rel, "stylesheet") || strings.Contains(rel, "icon") {
			add("href")
		}
	case "body", "table", "td", "th":
		add("background")
	case "object":
		add("data")
	case "input":
		if strings.EqualFold(strings.TrimSpace(attr("type")), "image") {
			add("src")
		}
	case "video":
		add("src")
		add("poster")
	case "script", "embed", "audio", "source", "track":
		add("src")
	}
	return refs
}

// refreshURL returns the URL of a refresh declaration's content ("5;
// URL=next.html"), parsed as the HTML Standard's shared declarative
// refresh steps do; "" when it names none (a page reloading itself) or
// is not a refresh declaration.
func refreshURL(content string) string {
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	s, i := content, 0
	skipSpace := func() {
		for i < len(s) && isSpace(s[i]) {
			i++
		}
	}
	skipSpace()
	digits := i
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == digits && (i == len(s) || s[i] != '.') {
		return "" // no time: not a refresh declaration
	}
	for i < len(s) && ('0' <= s[i] && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i < len(s) && s[i] != ';' && s[i] != ',' && !isSpace(s[i]) {
		return ""
	}
	skipSpace()
	if i < len(s) && (s[i] == ';' || s[i] == ',') {
		i++
	}
	skipSpace()
	if i == len(s) {
		return ""
	}
	start := i // where the URL starts unless "URL =" precedes it
	if strings.HasPrefix(strings.ToLower(s[i:min(i+3, len(s))]), "url") {
		i += 3
		skipSpace()
		if i < len(s) && s[i] == '=' {
			i++
			skipSpace()
			start = i
		}
	}
	u := s[start:]
	if u != "" && (u[0] == '\'' || u[0] == '"') {
		q := u[0]
		u = u[1:]
		if k := strings.IndexByte(u, q); k >= 0 {
			u = u[:k]
		}
	}
	return strings.TrimSpace(u)
}
