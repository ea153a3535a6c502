package crawler

import (
	"slices"
	"strings"

	"github.com/crawlproject/crawl/pageenc"
)

// pageEncoding is the encoding a page is read in: its links' paths are
// UTF-8 and their queries are written in it, as a browser writes them.
type pageEncoding = pageenc.Encoding

// pageLinkSelector matches the elements pageRef reads, for colly.
const pageLinkSelector = "a[href], area[href], link[href], frame[src], iframe[src], meta[http-equiv]"

// requisiteSelector matches the elements requisiteRefs and styleRefs
// read, found from the page's head (see onPageElements).
const requisiteSelector = "img[src], img[lowsrc], img[srcset], script[src], link[href], link[imagesrcset], " +
	"body[background], table[background], td[background], th[background], " +
	"embed[src], object[data], input[src], audio[src], video[src], video[poster], source[src], source[srcset], track[src], " +
	"style, [style]"

// pageRef returns the reference to another page that the element tag
// holds, read by attr: <a href> and <area href>; a <link href> that names
// a document related to the page (see linksDocument: search, alternate,
// next, license...), as wget follows it; the documents of a
// frameset, <frame src>, and of an <iframe src>, without which a site of
// frames archives as an empty frame set (wget follows them too); and the
// target of a <meta http-equiv="refresh">, which is how a static site
// without server configuration says a page moved.
func pageRef(tag string, attr func(string) string) (string, bool) {
	var ref string
	switch tag {
	case "a", "area":
		ref = attr("href")
	case "link":
		if linksDocument(strings.ToLower(attr("rel"))) {
			ref = attr("href")
		}
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
// the low-resolution first image (lowsrc), every candidate of a srcset
// (of <img> and of <picture>'s <source>) and backgrounds of old layouts;
// scripts; style sheets and icons; what a <link rel=preload> or
// rel=modulepreload asks for (see preloads); embedded objects; media and
// their posters and captions; image buttons. The CSS of a <style> element
// and of a style attribute is read by styleRefs.
func requisiteRefs(tag string, attr func(string) string) []string {
	var refs []string
	add := func(name string) {
		if v := attr(name); strings.TrimSpace(v) != "" {
			refs = append(refs, v)
		}
	}
	srcset := func(name string) {
		refs = append(refs, pageenc.SrcsetURLs(attr(name))...)
	}
	switch tag {
	case "img":
		add("src")
		add("lowsrc")
		srcset("srcset")
	case "link":
		rel := strings.ToLower(attr("rel"))
		if strings.Contains(rel, "stylesheet") || strings.Contains(rel, "icon") || preloads(rel, attr("as")) {
			add("href")
		}
		if relHas(rel, "preload") && strings.EqualFold(strings.TrimSpace(attr("as")), "image") {
			srcset("imagesrcset")
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
	case "source":
		add("src")
		srcset("srcset")
	case "script", "embed", "audio", "track":
		add("src")
	}
	return refs
}

// preloads reports whether a <link> with the rel value rel (lower-cased)
// and the as value as fetches its href (HTML Standard, link types
// "preload" and "modulepreload"): preload when as is "fetch" or a
// destination of the Fetch Standard, modulepreload when as is absent or
// names a script-like destination; a browser fetches nothing for any
// other as.
func preloads(rel, as string) bool {
	as = strings.ToLower(strings.TrimSpace(as))
	switch {
	case relHas(rel, "preload"):
		return slices.Contains(preloadDestinations, as)
	case relHas(rel, "modulepreload"):
		return as == "" || slices.Contains(scriptLikeDestinations, as)
	}
	return false
}

// preloadDestinations are the as values of a <link rel=preload> that a
// browser fetches: "fetch" and the Fetch Standard's destinations.
var preloadDestinations = []string{"fetch", "audio", "audioworklet", "document", "embed", "font", "frame", "iframe",
	"image", "json", "manifest", "object", "paintworklet", "report", "script", "serviceworker", "sharedworker",
	"style", "track", "video", "webidentity", "worker", "xslt"}

// scriptLikeDestinations are the Fetch Standard's script-like
// destinations, the as values of a <link rel=modulepreload>.
var scriptLikeDestinations = []string{"audioworklet", "paintworklet", "script", "serviceworker", "sharedworker", "worker"}

// linksDocument reports whether a <link> with the rel value rel
// (lower-cased) names another document (HTML Standard 4.6.7, link types:
// alternate, search, next, help, license...) rather than a part of the
// page (stylesheet, icon, preload, modulepreload: requisites) or a hint
// or endpoint that is no document to keep (dns-prefetch, preconnect,
// pingback, webmention).
func linksDocument(rel string) bool {
	if strings.TrimSpace(rel) == "" || strings.Contains(rel, "stylesheet") || strings.Contains(rel, "icon") {
		return false
	}
	for _, kind := range strings.Fields(rel) {
		switch kind {
		case "preload", "modulepreload", "dns-prefetch", "preconnect", "pingback", "webmention":
			return false
		}
	}
	return true
}

// relHas reports whether the rel value rel (lower-cased) holds the link
// type kind among its space-separated keywords.
func relHas(rel, kind string) bool {
	return slices.Contains(strings.Fields(rel), kind)
}

// sheetLink reports whether the href of the element tag loads a style
// sheet: a <link rel=stylesheet>, or a preload of one.
func sheetLink(tag string, attr func(string) string) bool {
	if tag != "link" {
		return false
	}
	rel := strings.ToLower(attr("rel"))
	return strings.Contains(rel, "stylesheet") || relHas(rel, "preload") && strings.EqualFold(strings.TrimSpace(attr("as")), "style")
}
