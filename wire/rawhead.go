package wire

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
)

// responseRecord is the response as archived: the head exactly as
// received, then the body net/http delivered. When net/http removed a
// chunked transfer coding (chunked), the Transfer-Encoding field lines
// (with any obsolete folded continuation lines) are left out of the head,
// and so are Content-Length lines, which a chunked message must not carry
// and a recipient ignores (RFC 9112 6.3): the record stays a consistent
// message whose body runs to its end. Every other byte of the head is
// kept. The metadata record says what was removed.
func responseRecord(head []byte, chunked bool, body []byte) []byte {
	if chunked {
		head = dropField(dropField(head, "Transfer-Encoding"), "Content-Length")
	}
	out := make([]byte, 0, len(head)+len(body))
	return append(append(out, head...), body...)
}

// dropField returns head without the field lines named name (compared
// case-insensitively) and their continuation lines. The start line is
// never dropped.
func dropField(head []byte, name string) []byte {
	out := make([]byte, 0, len(head))
	dropping := false
	for i, rest := 0, head; len(rest) > 0; i++ {
		n := bytes.IndexByte(rest, '\n') + 1
		if n == 0 {
			n = len(rest)
		}
		line := rest[:n]
		rest = rest[n:]
		if i > 0 && len(line) > 0 && (line[0] == ' ' || line[0] == '\t') {
			if !dropping {
				out = append(out, line...)
			}
			continue
		}
		field, _, ok := bytes.Cut(line, []byte{':'})
		dropping = i > 0 && ok && bytes.EqualFold(field, []byte(name))
		if !dropping {
			out = append(out, line...)
		}
	}
	return out
}

// rebuiltRequest renders a request as net/http writes it (request line,
// Host, User-Agent, then the other headers sorted). It is used only when
// the bytes written were not recorded (a connection the transport did not
// dial), and the metadata record then says so.
func rebuiltRequest(req *http.Request) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\n", req.Method, req.URL.RequestURI())
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	fmt.Fprintf(&b, "Host: %s\r\n", host)
	fmt.Fprintf(&b, "User-Agent: %s\r\n", req.Header.Get("User-Agent"))
	writeSortedFields(&b, req.Header, "User-Agent", "Host")
	return b.Bytes()
}

// writeSortedFields writes h's fields sorted by name as net/http writes
// them (http.Header.WriteSubset), leaving out the names in skip, then the
// empty line ending a head.
func writeSortedFields(b *bytes.Buffer, h http.Header, skip ...string) {
	exclude := make(map[string]bool, len(skip))
	for _, k := range skip {
		exclude[k] = true
	}
	h.WriteSubset(b, exclude) // a bytes.Buffer does not fail
	b.WriteString("\r\n")
}

// rebuiltHead renders a response head from the parsed response: header
// names canonical, fields sorted, Transfer-Encoding left out (net/http
// removed the coding). It is used only when the head received was not
// recorded, and the metadata record then says so.
func rebuiltHead(resp *http.Response) []byte {
	var b bytes.Buffer
	proto := resp.Proto
	if proto == "" {
		proto = "HTTP/1.1"
	}
	status := resp.Status
	if status == "" {
		status = strconv.Itoa(resp.StatusCode) + " " + http.StatusText(resp.StatusCode)
	}
	fmt.Fprintf(&b, "%s %s\r\n", proto, status)
	writeSortedFields(&b, resp.Header, "Transfer-Encoding")
	return b.Bytes()
}
