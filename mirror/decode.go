package mirror

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http/httputil"
	"strings"

	"github.com/crawlproject/crawl/archive"
)

// maxMirrorBody caps a decoded mirror file, so a compression bomb cannot
// fill the disk; larger bodies stay in the WARC only.
const maxMirrorBody = 256 << 20

// errUnsupportedCoding marks a body the mirror cannot decode.
var errUnsupportedCoding = errors.New("mirror: unsupported content coding")

// decodeBody undoes chunked transfer coding and gzip/deflate content coding
// of a response's payload.
func decodeBody(resp archive.MirrorResponse) ([]byte, error) {
	var r io.Reader = bytes.NewReader(resp.Payload)
	if strings.Contains(strings.ToLower(resp.TransferEncoding), "chunked") {
		r = httputil.NewChunkedReader(r)
	}
	switch strings.ToLower(strings.TrimSpace(resp.ContentEncoding)) {
	case "", "identity":
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("gzip body: %w", err)
		}
		r = zr
	case "deflate":
		data, err := io.ReadAll(io.LimitReader(r, maxMirrorBody+1))
		if err != nil {
			return nil, fmt.Errorf("deflate body: %w", err)
		}
		if zr, err := zlib.NewReader(bytes.NewReader(data)); err == nil {
			r = zr
		} else {
			r = flate.NewReader(bytes.NewReader(data))
		}
	default:
		return nil, errUnsupportedCoding
	}
	body, err := io.ReadAll(io.LimitReader(r, maxMirrorBody+1))
	if err != nil {
		return body, fmt.Errorf("decode body: %w", err) // what decoded, for a truncated body
	}
	if len(body) > maxMirrorBody {
		return nil, errUnsupportedCoding
	}
	return body, nil
}
