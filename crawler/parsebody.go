package crawler

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// parseBody returns the body colly parses for links: body as it is, or,
// for an HTML page (an HTML Content-Type, or none) sent in a content
// coding, its content with the codings undone (decodeContent: gzip,
// x-gzip, deflate in its zlib or raw form, several in a list), cut at
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
	codings := contentCodings(h)
	if len(codings) == 0 && (strings.Contains(ct, "gzip") || strings.HasSuffix(strings.ToLower(path), ".xml.gz")) {
		codings = []string{"gzip"}
	}
	if len(codings) == 0 {
		return body
	}
	content, _, err := decodeCodings(codings, body, limit, "page body")
	if err != nil && len(content) == 0 {
		return body
	}
	return content
}

// maxCodings bounds the content codings undone for one body.
const maxCodings = 4

// decodeContent returns body, received with header h, with its
// Content-Encoding undone (gzip, x-gzip, deflate; several in the order
// the header lists them), read up to limit octets; body itself if it has
// none. what names the body in errors ("robots.txt body"). cut reports a
// body that was longer than limit once decoded, or whose coded stream
// ended early (a capped or broken read): its end may be missing. An error
// means a coding the crawler cannot undo (br, zstd, ...) or a body that
// does not decode; content then holds what the last layer to undo gave
// before it failed (a corrupt end), if anything.
func decodeContent(h http.Header, body []byte, limit int64, what string) (content []byte, cut bool, err error) {
	codings := contentCodings(h)
	if len(codings) == 0 {
		return body, false, nil
	}
	return decodeCodings(codings, body, limit, what)
}

// contentCodings returns the content codings h's Content-Encoding fields
// list, lower-cased, in order, without identity.
func contentCodings(h http.Header) []string {
	var codings []string
	for _, v := range h.Values("Content-Encoding") {
		for _, c := range strings.Split(v, ",") {
			if c = strings.ToLower(strings.TrimSpace(c)); c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
	return codings
}

// decodeCodings undoes codings, the last applied first (RFC 9110 8.4),
// each layer read up to limit octets (plus one, to tell a cut one).
func decodeCodings(codings []string, body []byte, limit int64, what string) (content []byte, cut bool, err error) {
	if len(codings) > maxCodings {
		return nil, false, fmt.Errorf("crawler: %s in %d layered content codings", what, len(codings))
	}
	content = body
	for i := len(codings) - 1; i >= 0; i-- {
		r, err := decoder(codings[i], content, what)
		if err != nil {
			return nil, false, err
		}
		out, rerr := io.ReadAll(io.LimitReader(r, limit+1))
		if rerr != nil && (len(out) == 0 || !errors.Is(rerr, io.ErrUnexpectedEOF)) {
			err = fmt.Errorf("crawler: %s does not decode as %s: %w", what, codings[i], rerr)
			if i > 0 || len(out) == 0 {
				return nil, false, err
			}
			// The outermost layer decoded in part (a bad checksum, a
			// corrupt end): what it gave comes with the error.
			return out[:min(int64(len(out)), limit)], true, err
		}
		cut = cut || rerr != nil || int64(len(out)) > limit
		content = out
	}
	if int64(len(content)) > limit {
		content = content[:limit]
	}
	return content, cut, nil
}

// decoder returns a reader of body with content coding c undone.
func decoder(c string, body []byte, what string) (io.Reader, error) {
	switch c {
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("crawler: %s does not decode as gzip: %w", what, err)
		}
		return zr, nil
	case "deflate":
		// RFC 9110 8.4.1.2: the zlib format; some servers (old IIS) send
		// raw deflate.
		if zr, err := zlib.NewReader(bytes.NewReader(body)); err == nil {
			return zr, nil
		}
		return flate.NewReader(bytes.NewReader(body)), nil
	}
	return nil, fmt.Errorf("crawler: %s in content coding %q, which the crawler cannot decode", what, c)
}
