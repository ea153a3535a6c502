package crawler

import (
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"github.com/crawlproject/crawl/cssref"
	"github.com/crawlproject/crawl/scheduler"
	"github.com/crawlproject/crawl/wire"
)

// styleRefs returns the references of the CSS a page holds in the element
// tag, whose text is text: the rules of a <style> element whose type is
// CSS (cssref.IsCSSType), @import included, and the references of a style
// attribute's declarations that count there (cssref.InStyleAttr).
func styleRefs(tag string, attr func(string) string, text string) []cssref.Ref {
	var refs []cssref.Ref
	if tag == "style" {
		if cssref.IsCSSType(attr("type")) {
			refs = cssref.Scan([]byte(text))
		}
	}
	if v := attr("style"); v != "" {
		for _, r := range cssref.Scan([]byte(v)) {
			if cssref.InStyleAttr(r) {
				refs = append(refs, r)
			}
		}
	}
	return refs
}

// noteRequisiteURL takes the reference ref to a requisite of the page or
// style sheet at page; sheet marks one that is itself a style sheet,
// whose referrer's encoding is kept (job.sheets) when that is not UTF-8.
func (j *job) noteRequisiteURL(page *url.URL, ref string, sheet bool, max int) {
	u := j.resolve(page, ref)
	if u == "" {
		return
	}
	j.requisites.add(u, max)
	if sheet && !j.enc.UTF8() {
		j.sheets = append(j.sheets, u)
	}
}

// offerRequisites offers the requisites the job found, at depth, and
// remembers the encoding of the page or sheet that refers to a style
// sheet among them, for reading that sheet (sheetEnvs).
func (c *crawl) offerRequisites(j *job, depth int) {
	for _, r := range j.requisites.urls {
		c.add(scheduler.Candidate{URL: r, Parent: j.lease.URL, Depth: depth, Kind: scheduler.KindRequisite})
	}
	for _, s := range j.sheets {
		c.sheetEnvs.note(s, j.enc)
	}
}

// followSheet offers the references of a style sheet fetched as a
// requisite (its url(), @import and image-set() URLs, package cssref) as
// requisites of their own, at the sheet's depth: a chain of @import is one
// page's requisites, and scope.max_depth, which bounds the pages, cuts no
// chain short once its first sheet was taken. A loop of @import ends at
// the frontier, which fetches each URL once. The sheet is read as a
// browser reads it: its content codings undone, in the encoding CSS
// Syntax Level 3 section 3.2 gives it.
func (c *crawl) followSheet(j *job) {
	l, ex := j.lease, j.ex
	env := c.sheetEnvs.take(l.URL)
	if !c.cfg.Fetch.Requisites || !isStyleSheet(ex.Header, l.URL) {
		return
	}
	base, err := url.Parse(l.URL)
	if err != nil {
		return
	}
	body := sheetContent(ex.Header, ex.Body, c.cfg.Fetch.MaxBody)
	j.enc = cssref.Encoding(body, ex.Header.Get("Content-Type"), env)
	for _, r := range cssref.Scan(j.enc.Decode(body)) {
		j.noteRequisiteURL(base, r.URL, r.Import, c.cfg.Scope.MaxLinks)
	}
	c.offerRequisites(j, l.Depth)
	if o := &j.requisites; o.dropped > 0 {
		c.skipLinksPast(l, o.first, fmt.Sprintf("%d references of the style sheet lead past the %d distinct URLs followed (scope.max_links_per_page): this one, the first, and %d more (repeats counted) are not followed",
			o.dropped, c.cfg.Scope.MaxLinks, o.dropped-1))
	}
}

// isStyleSheet reports whether a response with the header h, fetched from
// rawURL, is a style sheet: its Content-Type is text/css, or it has none
// and its path ends ".css" (a sheet a page in quirks mode applies).
func isStyleSheet(h http.Header, rawURL string) bool {
	ct := h.Get("Content-Type")
	if ct == "" {
		u, err := url.Parse(rawURL)
		return err == nil && strings.HasSuffix(strings.ToLower(u.Path), ".css")
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "text/css"
}

// sheetContent returns the body of a style sheet with its content codings
// undone, cut at limit octets, as a page's body is for its links
// (decodeOrKeep).
func sheetContent(h http.Header, body []byte, limit int64) []byte {
	return decodeOrKeep(wire.ContentCodings(h), body, limit, "style sheet")
}
