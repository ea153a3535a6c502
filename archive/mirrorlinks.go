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

// linkAttrs are the attributes whose URL values the mirror rewrites.
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

// rewriteLinks rewrites, in every mirrored HTML file, the links to URLs that
// were mirrored into relative paths to their files (like wget -k). Links to
// URLs that were not mirrored are left pointing at the web.
func (m *mirror) rewriteLinks() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for key, f := range m.files {
		if !f.html {
			continue
		}
		if err := m.rewriteFile(key, f.path); err != nil {
			return err
		}
	}
	return nil
}

// rewriteFile rewrites the links of one HTML file mirrored from pageURL.
func (m *mirror) rewriteFile(pageURL, path string) error {
	base, err := url.Parse(pageURL)
	if err != nil {
		return nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%w links: %w", ErrMirror, err)
	}
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
		for i, a := range tok.Attr {
			if a.Namespace != "" || !isLinkAttr(tok.Data, a.Key) {
				continue
			}
			if rel, ok := m.relLink(base, path, a.Val); ok {
				tok.Attr[i].Val = rel
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
	if err := writeFileAtomic(path, out.Bytes()); err != nil {
		return fmt.Errorf("%w links: %w", ErrMirror, err)
	}
	return nil
}

// relLink resolves href against the page and, if the target was mirrored,
// returns the relative URL of its file from the page's file.
func (m *mirror) relLink(base *url.URL, pagePath, href string) (string, bool) {
	ref, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return "", false
	}
	target := base.ResolveReference(ref)
	f, ok := m.files[mirrorKey(target)]
	if !ok {
		return "", false
	}
	rel, err := filepath.Rel(filepath.Dir(pagePath), f.path)
	if err != nil {
		return "", false
	}
	u := url.URL{Path: filepath.ToSlash(rel), Fragment: target.Fragment}
	return u.String(), true
}
