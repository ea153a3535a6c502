package crawler

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/crawlproject/crawl/wire"
)

// maxSitemapBytes bounds a decompressed sitemap (the sitemaps.org limit is
// 50 MB uncompressed).
const maxSitemapBytes = 50 << 20

// maxSitemapURLs is the sitemaps.org limit of URLs in one sitemap (or
// sitemaps in one index): those past it are not followed.
const maxSitemapURLs = 50000

// maxSitemapDepth bounds the nesting of a sitemap's elements (a urlset
// nests three deep).
const maxSitemapDepth = 64

// sitemapURLs are the URLs a sitemap lists, the first maxSitemapURLs of
// them: pages (a urlset) or sitemaps (a sitemap index).
type sitemapURLs struct {
	pages, sitemaps []string
	firstMore       string // the first URL listed past maxSitemapURLs; the sitemap is not read further
}

// sitemapContent returns a sitemap's body, received with header h, with
// its content codings undone (wire.DecodeContent: the transport asks for
// gzip and br) up to maxSitemapBytes; the body as received where nothing
// decodes (parseSitemap then says what it could read). A sitemap file in
// gzip (sitemap.xml.gz) stays gzip: parseSitemap inflates it.
func sitemapContent(h http.Header, body []byte) []byte {
	return decodeOrKeep(wire.ContentCodings(h), body, maxSitemapBytes, "sitemap")
}

// parseSitemap reads a sitemap (urlset) or sitemap index, plain or gzip,
// as a stream, and returns the URLs it lists, resolved against base: the
// first maxSitemapURLs, and the next one if there is one, where it stops
// reading. A gzip body is read up to maxSitemapBytes inflated. On an error
// (a syntax error, a body cut at that bound, nesting past maxSitemapDepth)
// it returns the URLs read before it with the error; a sitemap of 8
// million URLs in 485 KB of gzip took 345 MB and then gave nothing.
func parseSitemap(body []byte, base string) (sitemapURLs, error) {
	var out sitemapURLs
	var r io.Reader = bytes.NewReader(body)
	var inflated *io.LimitedReader // its N counts down what may still be inflated
	if len(body) > 2 && body[0] == 0x1f && body[1] == 0x8b {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return out, fmt.Errorf("crawler: sitemap gzip: %w", err)
		}
		inflated = &io.LimitedReader{R: zr, N: maxSitemapBytes}
		r = inflated
	}
	dec := xml.NewDecoder(r)
	dec.Strict = false
	var root, parent string
	var inLoc bool
	var loc strings.Builder
	var stack []string
	for {
		// RawToken: no name space translation, which a sitemap does not
		// need, and less work per token.
		tok, err := dec.RawToken()
		if err != nil {
			switch {
			case inflated != nil && inflated.N <= 0:
				return out, fmt.Errorf("crawler: sitemap longer than %d MB inflated: read up to there", maxSitemapBytes>>20)
			case err != io.EOF:
				return out, fmt.Errorf("crawler: sitemap xml: %w", err)
			case root != "urlset" && root != "sitemapindex":
				return out, fmt.Errorf("crawler: sitemap: root element %q is neither urlset nor sitemapindex", root)
			}
			return out, nil
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := strings.ToLower(t.Name.Local)
			if root == "" {
				root = name
			}
			if len(stack) == maxSitemapDepth {
				return out, fmt.Errorf("crawler: sitemap nested deeper than %d elements", maxSitemapDepth)
			}
			if name == "loc" && len(stack) > 0 {
				inLoc, parent = true, stack[len(stack)-1]
				loc.Reset()
			}
			stack = append(stack, name)
		case xml.CharData:
			if inLoc && loc.Len() < maxSitemapLoc {
				loc.Write(t)
			}
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if strings.ToLower(t.Name.Local) != "loc" || !inLoc {
				continue
			}
			inLoc = false
			if out.add(root, parent, base, loc.String()); out.firstMore != "" {
				return out, nil // read no further
			}
		}
	}
}

// maxSitemapLoc bounds the text of one <loc> kept while reading; a longer
// one is refused later as url-too-long (or as an invalid URL).
const maxSitemapLoc = 64 << 10

// add keeps the URL of a <loc> in parent of a sitemap whose root is root,
// or counts it past maxSitemapURLs.
func (s *sitemapURLs) add(root, parent, base, loc string) {
	var list *[]string
	switch {
	case root == "sitemapindex" && parent == "sitemap":
		list = &s.sitemaps
	case root == "urlset" && parent == "url":
		list = &s.pages
	default:
		return
	}
	u, err := resolve(base, strings.TrimSpace(loc))
	if err != nil || u == "" {
		return
	}
	if len(s.pages)+len(s.sitemaps) == maxSitemapURLs {
		s.firstMore = u
		return
	}
	*list = append(*list, u)
}
