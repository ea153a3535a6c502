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

// decodeRobots returns the content of a robots.txt body received with
// header h: body itself, or body with its Content-Encoding undone (gzip,
// x-gzip, deflate; several in the order the header lists them), read up to
// limit octets. cut reports a body that was longer than limit once
// decoded, or whose coded stream ended early (a capped or broken read):
// its last line may be cut. The robots layer sends Accept-Encoding:
// identity, but RFC 9110 12.5.3 lets a server code the body all the same,
// and parsing coded bytes as text would find no rules: everything allowed.
// An error means a coding the crawler cannot undo (br, zstd, ...) or a body
// that does not decode.
func decodeRobots(h http.Header, body []byte, limit int64) (content []byte, cut bool, err error) {
	var codings []string
	for _, v := range h.Values("Content-Encoding") {
		for _, c := range strings.Split(v, ",") {
			if c = strings.ToLower(strings.TrimSpace(c)); c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
	if len(codings) == 0 {
		return body, false, nil
	}
	if len(codings) > 4 {
		return nil, false, fmt.Errorf("crawler: robots.txt body in %d layered content codings", len(codings))
	}
	content = body
	for i := len(codings) - 1; i >= 0; i-- {
		r, err := decoder(codings[i], content)
		if err != nil {
			return nil, false, err
		}
		out, rerr := io.ReadAll(io.LimitReader(r, limit+1))
		if rerr != nil && (len(out) == 0 || !errors.Is(rerr, io.ErrUnexpectedEOF)) {
			return nil, false, fmt.Errorf("crawler: robots.txt body does not decode as %s: %w", codings[i], rerr)
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
func decoder(c string, body []byte) (io.Reader, error) {
	switch c {
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, fmt.Errorf("crawler: robots.txt body does not decode as gzip: %w", err)
		}
		return zr, nil
	case "deflate":
		// RFC 9110 8.4.1.2: the zlib format; some servers send raw deflate.
		if zr, err := zlib.NewReader(bytes.NewReader(body)); err == nil {
			return zr, nil
		}
		return flate.NewReader(bytes.NewReader(body)), nil
	}
	return nil, fmt.Errorf("crawler: robots.txt body in content coding %q, which the crawler cannot decode", c)
}
