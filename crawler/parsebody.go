package crawler

import (
	"net/http"
	"strings"

	"github.com/crawlproject/crawl/wire"
)

// parseBody returns the body colly parses for links: body as it is, or,
// for an HTML page (an HTML Content-Type, or none) sent in a content
// coding, its content with the codings undone (wire.DecodeCodings: gzip,
// x-gzip, deflate in its zlib or raw form, br, several in a list), cut at
// limit octets. Without a Content-Encoding, a gzip Content-Type or a path
// ending ".xml.gz" is inflated as gzip, where colly would inflate it
// itself. colly inflates only gzip, and with no bound at all (a 1 MB gzip
// bomb became gigabytes in memory): the transport hands colly this body
// and marks the response Uncompressed. A body that does not decode at all
// is given as it is (it has no links to find); one whose coded stream ends
// early or corrupt gives what it decodes to. The archive keeps the bytes as received
// either way.
func parseBody(h http.Header, path string, body []byte, limit int64) []byte {
	ct := strings.ToLower(h.Get("Content-Type"))
	if ct != "" && !htmlMediaType(ct) {
		// colly parses only HTML (a sitemap is read from the body as
		// received, by parseSitemap): nothing to decode it for.
		return body
	}
	codings := wire.ContentCodings(h)
	if len(codings) == 0 && (strings.Contains(ct, "gzip") || strings.HasSuffix(strings.ToLower(path), ".xml.gz")) {
		codings = []string{"gzip"}
	}
	return decodeOrKeep(codings, body, limit, "page body")
}

// decodeOrKeep returns body with the content codings undone, cut at limit
// octets: what decodes of a body that ends early or is corrupt, or the
// body as it is when there is no coding or nothing decodes.
func decodeOrKeep(codings []string, body []byte, limit int64, what string) []byte {
	if len(codings) == 0 {
		return body
	}
	content, _, err := wire.DecodeCodings(codings, body, limit, what)
	if err != nil && len(content) == 0 {
		return body
	}
	return content
}
