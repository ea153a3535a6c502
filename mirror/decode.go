package mirror

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"strings"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/wire"
)

// maxMirrorBody caps a decoded mirror file, so a compression bomb cannot
// fill the disk; larger bodies stay in the WARC only.
const maxMirrorBody = 256 << 20

// errUnsupportedCoding marks a body the mirror cannot decode.
var errUnsupportedCoding = errors.New("mirror: unsupported content coding")

// decodeBody undoes the chunked transfer coding and the content codings
// of a response's payload: those wire.DecodeCodings undoes (gzip, deflate,
// br, several in a list), the crawl's own reading of a page. A coding it
// cannot undo, or a body past maxMirrorBody once decoded, gives
// errUnsupportedCoding. A body cut short gives what decoded with an error.
func decodeBody(resp archive.MirrorResponse) ([]byte, error) {
	body := resp.Payload
	var unchunked error
	if strings.Contains(strings.ToLower(resp.TransferEncoding), "chunked") {
		body, unchunked = io.ReadAll(io.LimitReader(httputil.NewChunkedReader(bytes.NewReader(body)), maxMirrorBody+1))
	}
	body, cut, err := wire.DecodeContent(http.Header{"Content-Encoding": {resp.ContentEncoding}}, body, maxMirrorBody, "mirror body")
	if _, ok := errors.AsType[*wire.UnsupportedCodingError](err); ok || cut && len(body) == maxMirrorBody {
		return nil, errUnsupportedCoding
	}
	if err != nil {
		return body, fmt.Errorf("decode body: %w", err) // what decoded, for a truncated body
	}
	if len(body) > maxMirrorBody {
		return nil, errUnsupportedCoding
	}
	if unchunked != nil {
		return body, fmt.Errorf("decode body: %w", unchunked) // what decoded, for a truncated body
	}
	return body, nil
}
