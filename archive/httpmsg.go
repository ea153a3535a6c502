package archive

import (
	"bytes"
	"strconv"
	"strings"
)

// httpHead is what the archive needs from a raw HTTP/1.x message: the start
// line's status code (responses), the header fields in order, and where the
// payload (the bytes after the header block) starts.
type httpHead struct {
	status     int
	header     []Field
	bodyOffset int  // index of the first payload byte
	complete   bool // the header block ended (an empty line was seen)
}

// get returns the first header value named name (case-insensitive).
func (h *httpHead) get(name string) string {
	for _, f := range h.header {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// parseHTTPHead reads the start line and header block of a raw HTTP/1.x
// message as recorded. Lines may end in CRLF or a bare LF (RFC 9112 section
// 2.2 lets a recipient accept LF). It never fails: a message without an
// empty line is all header (complete == false, bodyOffset == len(msg)).
func parseHTTPHead(msg []byte) httpHead {
	var h httpHead
	pos := 0
	first := true
	for pos < len(msg) {
		end := bytes.IndexByte(msg[pos:], '\n')
		if end < 0 {
			break
		}
		line := msg[pos : pos+end]
		pos += end + 1
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) == 0 {
			if first {
				continue // RFC 9112 section 2.2: ignore empty lines before the start line
			}
			h.complete = true
			h.bodyOffset = pos
			return h
		}
		if first {
			first = false
			h.status = statusOf(line)
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if n := len(h.header); n > 0 { // obsolete line folding
				h.header[n-1].Value += " " + string(bytes.TrimSpace(line))
			}
			continue
		}
		name, value, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		h.header = append(h.header, Field{Name: string(bytes.TrimSpace(name)), Value: string(bytes.TrimSpace(value))})
	}
	h.bodyOffset = len(msg)
	return h
}

// statusOf returns the status code of an "HTTP/1.1 200 OK" line, 0 if the
// line is not a status line.
func statusOf(line []byte) int {
	if !bytes.HasPrefix(line, []byte("HTTP/")) {
		return 0
	}
	_, rest, ok := bytes.Cut(line, []byte{' '})
	if !ok {
		return 0
	}
	code, _, _ := bytes.Cut(bytes.TrimLeft(rest, " "), []byte{' '})
	n, err := strconv.Atoi(string(code))
	if err != nil || n < 100 || n > 999 {
		return 0
	}
	return n
}

// mediaType returns the lower-cased type/subtype of a Content-Type value.
func mediaType(contentType string) string {
	t, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(t))
}
