package archive

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

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
	}
	return false
}

// rewriteLinks rewrites the links of every mirrored HTML file as wget -k
// does: a link to a URL that was mirrored (directly, after normalising it,
// or through the redirects the mirror was told of) becomes the relative
// path of its file; a relative link to an http(s) URL that was not
// mirrored becomes absolute, so that it points at the web rather than at
// the local disk. A <base href> is used to resolve the links and then
// removed, since the rewritten links are relative to the file. Files of
// earlier runs are rewritten again (their link targets may have been
// mirrored or moved since), keeping the relative links that already name
// a mirror file. It then removes root/@tmp.
func (m *mirror) rewriteLinks() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, f := range m.files {
		if !f.html {
			continue
		}
		if err := m.rewriteFile(f); err != nil {
			return err
		}
	}
	m.removeTmpDir()
	return nil
}

// rewriteFile rewrites the links of one mirrored HTML file.
func (m *mirror) rewriteFile(f *mirrorFile) error {
	page, err := url.Parse(f.url)
	if err != nil {
		return nil
	}
	src, err := os.ReadFile(f.path)
	if err != nil {
		return fmt.Errorf("%w links: %w", ErrMirror, err)
	}
	base := documentBase(page, src)
	pageKey := mirrorKey(page) // for the links to this document, once per file
	var out bytes.Buffer
	out.Grow(len(src))
	changed := false
	z := html.NewTokenizer(bytes.NewReader(src))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			out.Write(raw)
			continue
		}
		tok := z.Token()
		edited := false
		if tok.Data == "base" {
			n := len(tok.Attr)
			tok.Attr = dropAttr(tok.Attr, "href")
			edited = len(tok.Attr) != n
		}
		for i, a := range tok.Attr {
			if a.Namespace != "" || !isLinkAttr(tok.Data, a.Key) {
				continue
			}
			if v, ok := m.linkFor(pageKey, base, f, a.Val); ok && v != a.Val {
				tok.Attr[i].Val = v
				edited = true
			}
		}
		if !edited {
			out.Write(raw)
			continue
		}
		changed = true
		out.WriteString(tok.String())
	}
	if !changed {
		return nil
	}
	if err := m.writeFile(f.path, out.Bytes()); err != nil {
		return fmt.Errorf("%w links: %w", ErrMirror, err)
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
					if ref, err := parseLink(a.Val); err == nil {
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

// dropAttr returns attrs without the attributes named key.
func dropAttr(attrs []html.Attribute, key string) []html.Attribute {
	out := attrs[:0]
	for _, a := range attrs {
		if a.Namespace != "" || a.Key != key {
			out = append(out, a)
		}
	}
	return out
}

// linkFor returns the new value of a link href found in the mirrored file
// f of the page whose mirrorKey is pageKey, whose links resolve against
// base, and whether it changes.
func (m *mirror) linkFor(pageKey string, base *url.URL, f *mirrorFile, href string) (string, bool) {
	ref, err := parseLink(href)
	if err != nil {
		return "", false
	}
	target := base.ResolveReference(ref)
	if ref.Scheme == "" && ref.Host == "" && ref.Path == "" && ref.RawQuery == "" && !ref.ForceQuery &&
		mirrorKey(target) == pageKey {
		return "", false // "#frag" or "": this document
	}
	if to, frag, ok := m.find(target); ok {
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
func (m *mirror) find(target *url.URL) (*mirrorFile, string, bool) {
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

// namesFile reports whether ref is a relative file path (no scheme, host
// or query) that names, from f's directory, a file of the mirror: the form
// of a link an earlier run rewrote. Callers hold m.mu.
func (m *mirror) namesFile(f *mirrorFile, ref *url.URL) bool {
	if ref.Scheme != "" || ref.Host != "" || ref.RawQuery != "" || ref.ForceQuery || ref.Path == "" || strings.HasPrefix(ref.Path, "/") {
		return false
	}
	_, ok := m.byPath[filepath.Join(filepath.Dir(f.path), filepath.FromSlash(ref.Path))]
	return ok
}
