package mirror

import (
	"fmt"
	"net/url"
	"os"
	"strings"

	"golang.org/x/net/html"

	"github.com/crawlproject/crawl/cssref"
	"github.com/crawlproject/crawl/pageenc"
)

// isStyleSheet reports whether a file of the media type mt, fetched from
// u, is a style sheet: text/css, or no type at all and a path ending
// ".css", as the crawler reads its references.
func isStyleSheet(mt string, u *url.URL) bool {
	return mt == "text/css" || mt == "" && strings.HasSuffix(strings.ToLower(u.Path), ".css")
}

// isSrcsetAttr reports whether the attribute attr of an element tag is a
// srcset whose candidates the mirror rewrites: of <img>, of <source> (in
// <picture>), and the imagesrcset of a <link>.
func isSrcsetAttr(tag, attr string) bool {
	return attr == "srcset" && (tag == "img" || tag == "source") || attr == "imagesrcset" && tag == "link"
}

// srcsetLinks returns the srcset value v with each candidate's URL
// rewritten by linkFor (pageenc.SrcsetSpans), and whether any changed;
// the descriptors, commas and whitespace stay as they are.
func srcsetLinks(v string, linkFor func(string) (string, bool)) (string, bool) {
	var b strings.Builder
	changed, last := false, 0
	for _, sp := range pageenc.SrcsetSpans(v) {
		if u, ok := linkFor(v[sp[0]:sp[1]]); ok {
			b.WriteString(v[last:sp[0]])
			b.WriteString(u)
			last, changed = sp[1], true
		}
	}
	b.WriteString(v[last:])
	return b.String(), changed
}

// styleAttrLinks returns the declarations of a style attribute v with
// their url()s rewritten by linkFor (cssref.Rewrite; v is decoded, so
// UTF-8), and whether any changed. An @import, which is no rule in a
// style attribute (cssref.InStyleAttr), is left as it is.
func styleAttrLinks(v string, linkFor func(string) (string, bool)) (string, bool) {
	out, _ := cssref.Rewrite([]byte(v), pageenc.Encoding{}, func(r cssref.Ref) (string, bool) {
		if !cssref.InStyleAttr(r) {
			return "", false
		}
		return linkFor(r.URL)
	})
	if out == nil {
		return v, false
	}
	return string(out), true
}

// styleEdits returns the edits of the raw text css of a <style> element
// (its start tag tag), in the page's encoding enc, that rewrite its
// references by linkFor; none for a <style> whose type is not CSS
// (cssref.IsCSSType; the crawler reads none there either).
func styleEdits(tag html.Token, css []byte, enc pageenc.Encoding, linkFor func(string) (string, bool)) []cssref.Edit {
	for _, a := range tag.Attr {
		if a.Key == "type" {
			if !cssref.IsCSSType(a.Val) {
				return nil
			}
			break
		}
	}
	_, edits := cssref.Rewrite(css, enc, func(r cssref.Ref) (string, bool) { return linkFor(r.URL) })
	return edits
}

// rewriteSheet rewrites the references of one mirrored style sheet
// (url(), @import, image-set(); package cssref), read in the encoding its
// byte order mark, Content-Type or @charset names, else UTF-8: the
// mirror does not know the page that referred to it. Only the URL text of
// each reference changes.
func (m *Mirror) rewriteSheet(f *mirrorFile) error {
	sheet, err := url.Parse(f.url)
	if err != nil {
		return nil
	}
	src, err := os.ReadFile(f.path)
	if err != nil {
		return fmt.Errorf("mirror: links: %w", err)
	}
	key := mirrorKey(sheet)
	enc := cssref.Encoding(src, f.contentType, pageenc.Encoding{})
	out, _ := cssref.Rewrite(src, enc, func(r cssref.Ref) (string, bool) {
		return m.linkFor(key, sheet, f, enc.EncodeQuery(pageenc.CleanRef(r.URL)))
	})
	if out == nil {
		return nil
	}
	if err := m.writeFile(f.path, out); err != nil {
		return fmt.Errorf("mirror: links: %w", err)
	}
	return nil
}
