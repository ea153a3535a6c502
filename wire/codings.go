package wire

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

	"github.com/andybalholm/brotli"
)

// PageCodings is the Accept-Encoding the transport sends with every
// request but robots.txt's: the content codings DecodeContent undoes that
// servers offer (RFC 9110 section 12.5.3).
const PageCodings = "gzip, br"

// UnsupportedCodingError is DecodeContent's error for a content coding the
// crawler cannot undo (zstd, compress, ...).
type UnsupportedCodingError struct {
	// What names the body ("robots.txt body"); Coding is the coding,
	// lower-cased.
	What, Coding string
}

// Error says which body came in which coding.
func (e *UnsupportedCodingError) Error() string {
	return fmt.Sprintf("crawler: %s in content coding %q, which the crawler cannot decode", e.What, e.Coding)
}

// maxCodings bounds the content codings undone for one body.
const maxCodings = 4

// DecodeContent returns body, received with header h, with its
// Content-Encoding undone (gzip, x-gzip, deflate, br; several in the
// order the header lists them), read up to limit octets; body itself if
// it has none. what names the body in errors ("robots.txt body"). cut
// reports a body that was longer than limit once decoded, or whose coded
// stream ended early (a capped or broken read): its end may be missing.
// An error means a coding the crawler cannot undo (an
// *UnsupportedCodingError: zstd, compress, ...) or a body that does not
// decode; content then holds what the last layer to undo gave before it
// failed (a corrupt end), if anything. Pure; safe for concurrent use.
func DecodeContent(h http.Header, body []byte, limit int64, what string) (content []byte, cut bool, err error) {
	codings := ContentCodings(h)
	if len(codings) == 0 {
		return body, false, nil
	}
	return DecodeCodings(codings, body, limit, what)
}

// ContentCodings returns the content codings h's Content-Encoding fields
// list, lower-cased, in order, without identity.
func ContentCodings(h http.Header) []string {
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

// DecodeCodings undoes codings, the last applied first (RFC 9110 section
// 8.4), each layer read up to limit octets (plus one, to tell a cut one);
// the result is cut at limit. cut, err and content on an error are as
// DecodeContent says.
func DecodeCodings(codings []string, body []byte, limit int64, what string) (content []byte, cut bool, err error) {
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
	case "br":
		// RFC 7932; a stream that is no brotli fails on the first read.
		return brotli.NewReader(bytes.NewReader(body)), nil
	}
	return nil, &UnsupportedCodingError{What: what, Coding: c}
}
