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
		if !pageenc.IsRefresh(attr("http-equiv")) {
			return "", false
		}
		ref = pageenc.RefreshURL(attr("content"))
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
