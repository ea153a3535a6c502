package mirror

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/crawlproject/crawl/cssref"
	"github.com/crawlproject/crawl/pageenc"
	"golang.org/x/net/html"
)

// maxLinkRedirects bounds the redirects a link is followed through to a
// mirrored file (as net/http's client stops after 10).
const maxLinkRedirects = 10

// isLinkAttr reports whether the attribute attr of an element tag holds a
// URL that the mirror rewrites.
func isLinkAttr(tag, attr string) bool {
	switch attr {
	case "href":
		return tag == "a" || tag == "link" || tag == "area"
	case "src":
		return tag == "img" || tag == "script" || tag == "iframe" || tag == "frame" ||
			tag == "source" || tag == "embed" || tag == "audio" || tag == "video" || tag == "track" || tag == "input"
	case "lowsrc":
		return tag == "img"
	case "background":
		return tag == "body" || tag == "table" || tag == "td" || tag == "th"
	case "data":
		return tag == "object"
	case "poster":
		return tag == "video"
	}
	return false
}

// rewriteLinks rewrites the links of every mirrored HTML file as wget -k
// does: a link to a URL that was mirrored (directly, after normalising it,
// or through the redirects the mirror was told of) becomes the relative
// path of its file; a relative link to an http(s) URL that was not
// mirrored becomes absolute, so that it points at the web rather than at
// the local disk. A <base href> is used to resolve the links and then
// removed, since the rewritten links are relative to the file. Only the
// URL text of a rewritten attribute (and a <base>'s href) changes; every
// other byte of the file stays as received (see rewriteStartTags). Files of
// earlier runs are rewritten again (their link targets may have been
// mirrored or moved since), keeping the relative links that already name
// a mirror file. It then removes root/@tmp.
func (m *Mirror) rewriteLinks() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, f := range m.files {
		var err error
		switch {
		case f.html:
			err = m.rewriteFile(f)
		case f.css:
			err = m.rewriteSheet(f)
		}
		if err != nil {
			return err
		}
	}
	m.removeTmpDir()
	return nil
}

// rewriteFile rewrites the links of one mirrored HTML file.
func (m *Mirror) rewriteFile(f *mirrorFile) error {
	page, err := url.Parse(f.url)
	if err != nil {
		return nil
	}
	src, err := os.ReadFile(f.path)
	if err != nil {
		return fmt.Errorf("mirror: links: %w", err)
	}
	base := documentBase(page, src)
	pageKey := mirrorKey(page) // for the links to this document, once per file
	// The links are read as the crawler read them: decoded from the page's
	// encoding, the query written in it (pageenc).
	enc := pageenc.Of(src, f.contentType)
	linkFor := func(ref string) (string, bool) {
		return m.linkFor(pageKey, base, f, enc.EncodeQuery(pageenc.CleanRef(ref)))
	}
	out, _ := rewriteStartTags(src, enc, func(tok html.Token) []attrChange {
		return m.linkChanges(tok, linkFor)
	}, func(tag html.Token, css []byte) []cssref.Edit {
		return styleEdits(tag, css, enc, linkFor)
	})
	if out == nil {
		return nil
	}
	if err := m.writeFile(f.path, out); err != nil {
		return fmt.Errorf("mirror: links: %w", err)
	}
	return nil
}

// documentBase is the URL the page's relative links resolve against: the
// first <base href> (resolved against the page URL), else the page URL
// (HTML, "document base URL").
func documentBase(page *url.URL, src []byte) *url.URL {
	if !hasBaseTag(src) {
		return page
	}
	z := html.NewTokenizer(bytes.NewReader(src))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return page
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			if tok.Data != "base" {
				continue
			}
			for _, a := range tok.Attr {
				if a.Namespace == "" && a.Key == "href" {
					if ref, err := parseLink(pageenc.CleanRef(a.Val)); err == nil {
						return page.ResolveReference(ref)
					}
					return page
				}
			}
		}
	}
}

// hasBaseTag reports whether src holds "<base" in any case: whether
// documentBase must tokenize it. It does not copy src.
func hasBaseTag(src []byte) bool {
	for rest := src; ; {
		i := bytes.IndexByte(rest, '<')
		if i < 0 {
			return false
		}
		rest = rest[i+1:]
		if len(rest) >= 4 && rest[0]|0x20 == 'b' && rest[1]|0x20 == 'a' && rest[2]|0x20 == 's' && rest[3]|0x20 == 'e' {
			return true
		}
	}
}

// linkChanges returns the changes to the start tag tok of a mirrored
// page, whose links linkFor rewrites (see Mirror.linkFor): a <base> loses
// its href, every one (a browser would take a second href for the first);
// an attribute that holds links gets its new value (see attrLinks), the
// first of its name only, as the Tokenizer of a browser (WHATWG HTML
// 13.2.5.33) and the crawler's link extraction take the first and ignore
// the rest.
func (m *Mirror) linkChanges(tok html.Token, linkFor func(string) (string, bool)) []attrChange {
	var changes []attrChange
	var seenBuf [2]string
	seen := seenBuf[:0]
	for i, a := range tok.Attr {
		if tok.Data == "base" && a.Key == "href" {
			changes = append(changes, attrChange{attr: i, drop: true})
			continue
		}
		spans := attrLinks(tok, a)
		if spans == nil || slices.Contains(seen, a.Key) {
			continue
		}
		seen = append(seen, a.Key)
		if v, ok := spans(a.Val, linkFor); ok && v != a.Val {
			changes = append(changes, attrChange{attr: i, val: v})
		}
	}
	return changes
}

// attrLinks returns how the links in the attribute a of the start tag
// tok are rewritten (its value and linkFor give the new value, and
// whether it changes), or nil for an attribute without links: a whole
// value that is a URL (isLinkAttr); the URL inside a refresh <meta>'s
// content ("0; URL=moved.html"); every candidate of a srcset; the url()s
// of a style attribute.
func attrLinks(tok html.Token, a html.Attribute) func(v string, linkFor func(string) (string, bool)) (string, bool) {
	switch {
	case isLinkAttr(tok.Data, a.Key):
		return func(v string, linkFor func(string) (string, bool)) (string, bool) { return linkFor(v) }
	case tok.Data == "meta" && a.Key == "content" && isRefresh(tok):
		return func(v string, linkFor func(string) (string, bool)) (string, bool) {
			start, end := pageenc.RefreshURLSpan(v)
			if start == end {
				return "", false
			}
			u, ok := linkFor(v[start:end])
			return v[:start] + u + v[end:], ok
		}
	case isSrcsetAttr(tok.Data, a.Key):
		return srcsetLinks
	case a.Key == "style":
		return styleAttrLinks
	}
	return nil
}

// isRefresh reports whether the <meta> tok is a refresh declaration
// (http-equiv="refresh", in any case; the first http-equiv counts).
func isRefresh(tok html.Token) bool {
	for _, a := range tok.Attr {
		if a.Key == "http-equiv" {
			return pageenc.IsRefresh(a.Val)
		}
	}
	return false
}

// linkFor returns the new value of a link href found in the mirrored file
// f of the page whose mirrorKey is pageKey, whose links resolve against
// base, and whether it changes.
func (m *Mirror) linkFor(pageKey string, base *url.URL, f *mirrorFile, href string) (string, bool) {
	ref, err := parseLink(href)
	if err != nil {
		return "", false
	}
	target := base.ResolveReference(ref)
	if ref.Scheme == "" && ref.Host == "" && ref.Path == "" && ref.RawQuery == "" && !ref.ForceQuery &&
		mirrorKey(target) == pageKey {
		return "", false // "#frag" or "": this document
	}
	to, frag, ok := m.movedTo(f, ref)
	if !ok {
		to, frag, ok = m.find(target)
	}
	if ok {
		rel, err := filepath.Rel(filepath.Dir(f.path), to.path)
		if err != nil {
			return "", false
		}
		return (&url.URL{Path: filepath.ToSlash(rel), Fragment: frag}).String(), true
	}
	if f.recalled && m.namesFile(f, ref) {
		return "", false // rewritten by an earlier run
	}
	if ref.Scheme == "" && (target.Scheme == "http" || target.Scheme == "https") {
		return target.String(), true
	}
	return "", false
}

// find returns the mirror file of target, following up to
// maxLinkRedirects redirects, and the fragment the link should carry: the
// target's, unless a redirect's Location gave one (RFC 9110 section
// 10.2.2). Callers hold m.mu.
func (m *Mirror) find(target *url.URL) (*mirrorFile, string, bool) {
	frag, u := target.Fragment, target
	for hop := 0; ; hop++ {
		if f, ok := m.files[mirrorKey(u)]; ok {
			return f, frag, true
		}
		nk := normKey(u)
		if key, ok := m.norm[nk]; ok {
			return m.files[key], frag, true
		}
		next, ok := m.redirects[nk]
		if !ok || hop == maxLinkRedirects {
			return nil, "", false
		}
		if next.Fragment != "" {
			frag = next.Fragment
		}
		u = next
	}
}

// movedTo returns the file that a link ref of f, written by an earlier
// run, meant, if that file has moved since: ref is then a relative file
// path that names where it stood ("index.html" for the page of "/d/",
// moved to "index@d.html" when "/d/index.html" came), which read as a URL
// would name another one. Callers hold m.mu.
func (m *Mirror) movedTo(f *mirrorFile, ref *url.URL) (*mirrorFile, string, bool) {
	if !f.recalled || len(m.movedFrom) == 0 || !isFileRef(ref) {
		return nil, "", false
	}
	key, ok := m.movedFrom[filepath.Join(filepath.Dir(f.path), filepath.FromSlash(ref.Path))]
	if !ok {
		return nil, "", false
	}
	return m.files[key], ref.Fragment, true
}

// isFileRef reports whether ref is a relative file path: no scheme, host
// or query, and a path that does not start at the root.
func isFileRef(ref *url.URL) bool {
	return ref.Scheme == "" && ref.Host == "" && ref.RawQuery == "" && !ref.ForceQuery && ref.Path != "" && !strings.HasPrefix(ref.Path, "/")
}

// namesFile reports whether ref is a relative file path (no scheme, host
// or query) that names, from f's directory, a file of the mirror: the form
// of a link an earlier run rewrote. Callers hold m.mu.
func (m *Mirror) namesFile(f *mirrorFile, ref *url.URL) bool {
	if !isFileRef(ref) {
		return false
	}
	_, ok := m.byPath[filepath.Join(filepath.Dir(f.path), filepath.FromSlash(ref.Path))]
	return ok
}
