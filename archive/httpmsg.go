package archive

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// httpHead is what the archive needs from a raw HTTP/1.x message: the start
// line's status code (responses), the header block, and where the payload
// (the bytes after the header block) starts.
type httpHead struct {
	status int
	// fields are the complete header lines after the start line, up to the
	// empty line ending the block (not included); get reads them.
	fields     []byte
	bodyOffset int  // index of the first payload byte
	complete   bool // the header block ended (an empty line was seen)
}

// get returns the first header value named name (case-insensitive), with
// obsolete folded lines (RFC 9112 section 5.2) joined by spaces. It
// allocates only the returned string.
func (h *httpHead) get(name string) string {
	var value []byte
	found, folded := false, false
	for rest := h.fields; len(rest) > 0; {
		var line []byte
		line, rest = cutLine(rest)
		if len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
			if found { // continues the field found
				if !folded {
					value, folded = slices.Clip(value), true // copy on append
				}
				value = append(append(value, ' '), bytes.TrimSpace(line)...)
			}
			continue
		}
		n, v, ok := bytes.Cut(line, []byte{':'})
		if !ok {
			continue
		}
		if found {
			break // the next field
		}
		if bytes.EqualFold(bytes.TrimSpace(n), []byte(name)) {
			found, value = true, bytes.TrimSpace(v)
		}
	}
	return string(value)
}

// cutLine splits off the first line of b (which ends in LF), without its
// CRLF or LF.
func cutLine(b []byte) (line, rest []byte) {
	line, rest, _ = bytes.Cut(b, []byte{'\n'})
	return bytes.TrimSuffix(line, []byte{'\r'}), rest
}

// parseHTTPHead reads the start line and header block of a raw HTTP/1.x
// message as recorded. Lines may end in CRLF or a bare LF (RFC 9112 section
// 2.2 lets a recipient accept LF). It never fails: a message without an
// empty line is all header (complete == false, bodyOffset == len(msg)). It
// does not allocate: the header fields are read on demand by get.
func parseHTTPHead(msg []byte) httpHead {
	var h httpHead
	pos := 0
	fieldsStart := -1 // after the start line
	for pos < len(msg) {
		end := bytes.IndexByte(msg[pos:], '\n')
		if end < 0 {
			break
		}
		line := msg[pos : pos+end]
		lineStart := pos
		pos += end + 1
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if len(line) == 0 {
			if fieldsStart < 0 {
				continue // RFC 9112 section 2.2: ignore empty lines before the start line
			}
			h.fields = msg[fieldsStart:lineStart]
			h.complete = true
			h.bodyOffset = pos
			return h
		}
		if fieldsStart < 0 {
			fieldsStart = pos
			h.status = statusOf(line)
		}
	}
	if fieldsStart >= 0 {
		h.fields = msg[fieldsStart:pos]
	}
	h.bodyOffset = len(msg)
	return h
}

// statusOf returns the status code of an "HTTP/1.1 200 OK" line, 0 if the
// line is not a status line.
func statusOf(line []byte) int {
	if len(line) < 5 || !bytes.EqualFold(line[:5], []byte("HTTP/")) {
		return 0 // the name is case-sensitive (RFC 9112 2.3), but "http/1.1" is what such a server meant
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
