package crawler

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
)

// parseBody returns the body colly parses for links: body as it is, or,
// where colly would inflate it itself (a gzip Content-Encoding, a gzip
// Content-Type without one, a path ending ".xml.gz") and then parse it as
// HTML (an HTML Content-Type, or none), its inflated content cut at limit
// octets. colly inflates with no bound at all, so a 1 MB gzip
// bomb became gigabytes in memory; the transport hands colly this body and
// marks the response Uncompressed. A body that does not inflate is given
// as it is (it has no links to find). The archive keeps the bytes as
// received either way.
func parseBody(h http.Header, path string, body []byte, limit int64) []byte {
	ce := strings.ToLower(h.Get("Content-Encoding"))
	ct := strings.ToLower(h.Get("Content-Type"))
	gz := strings.Contains(ce, "gzip") ||
		ce == "" && strings.Contains(ct, "gzip") ||
		strings.HasSuffix(strings.ToLower(path), ".xml.gz")
	if !gz {
		return body
	}
	if ct != "" && !htmlMediaType(ct) {
		// colly parses only HTML (a sitemap is read from the body as
		// received, by parseSitemap): nothing to inflate it for.
		return body
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return body
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, limit))
	if err != nil && len(out) == 0 {
		return body
	}
	return out
}
