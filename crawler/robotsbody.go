package crawler

import "net/http"

// decodeRobots returns the content of a robots.txt body received with
// header h: body itself, or body with its Content-Encoding undone (gzip,
// x-gzip, deflate; several in the order the header lists them), read up to
// limit octets (decodeContent, which pages share). cut reports a body that
// was longer than limit once decoded, or whose coded stream ended early (a
// capped or broken read): its last line may be cut. The robots layer sends
// Accept-Encoding: identity, but RFC 9110 12.5.3 lets a server code the
// body all the same, and parsing coded bytes as text would find no rules:
// everything allowed. An error means a coding the crawler cannot undo (br,
// zstd, ...) or a body that does not decode.
func decodeRobots(h http.Header, body []byte, limit int64) (content []byte, cut bool, err error) {
	return decodeContent(h, body, limit, "robots.txt body")
}
