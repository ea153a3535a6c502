package crawler

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
)

// maxSitemapBytes bounds a decompressed sitemap (the sitemaps.org limit is
// 50 MB uncompressed).
const maxSitemapBytes = 50 << 20

// maxSitemapURLs is the sitemaps.org limit of URLs in one sitemap (or
// sitemaps in one index): those past it are not followed.
const maxSitemapURLs = 50000

// parseSitemap reads a sitemap (urlset) or sitemap index, plain or gzip, and
// returns the page URLs and the sitemap URLs it lists, resolved against base.
func parseSitemap(body []byte, base string) (pages, sitemaps []string, err error) {
	if len(body) > 2 && body[0] == 0x1f && body[1] == 0x8b {
		zr, zerr := gzip.NewReader(bytes.NewReader(body))
		if zerr != nil {
			return nil, nil, fmt.Errorf("crawler: sitemap gzip: %w", zerr)
		}
		body, err = io.ReadAll(io.LimitReader(zr, maxSitemapBytes))
		if err != nil {
			return nil, nil, fmt.Errorf("crawler: sitemap gzip: %w", err)
		}
	}
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = false
	var root string
	var inLoc bool
	var parent string
	var loc strings.Builder
	stack := []string{}
	for {
		tok, terr := dec.Token()
		if terr == io.EOF {
			break
		}
		if terr != nil {
			return pages, sitemaps, fmt.Errorf("crawler: sitemap xml: %w", terr)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := strings.ToLower(t.Name.Local)
			if root == "" {
				root = name
			}
			if name == "loc" && len(stack) > 0 {
				inLoc, parent = true, stack[len(stack)-1]
				loc.Reset()
			}
			stack = append(stack, name)
		case xml.CharData:
			if inLoc {
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
			u, rerr := resolve(base, strings.TrimSpace(loc.String()))
			if rerr != nil || u == "" {
				continue
			}
			switch {
			case root == "sitemapindex" && parent == "sitemap":
				sitemaps = append(sitemaps, u)
			case root == "urlset" && parent == "url":
				pages = append(pages, u)
			}
		}
	}
	if root != "urlset" && root != "sitemapindex" {
		return nil, nil, fmt.Errorf("crawler: sitemap: root element %q is neither urlset nor sitemapindex", root)
	}
	return pages, sitemaps, nil
}
