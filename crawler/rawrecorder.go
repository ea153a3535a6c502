package crawler

import (
	"bytes"
	"strconv"
)

// maxResponseHead bounds the response heads the transport accepts (1xx
// interim heads and the final head together: net/http's
// MaxResponseHeaderBytes, which also bounds what it reads from the
// connection before the body), and so the bytes a rawRecorder keeps of a
// response. Real heads are a few KiB.
const maxResponseHead = 1 << 20

// maxRawRequest bounds the bytes a rawRecorder keeps of a request. The
// crawler sends only GET requests without a body, a few hundred bytes.
const maxRawRequest = 1 << 20

// rawRecorder holds the raw bytes of one request's exchange as they went
// over its connection: the bytes written (request line, headers, body) and
// the bytes read up to the end of the final response head. Interim 1xx
// heads (100 Continue, 103 Early Hints) are skipped; 101 is final, as in
// net/http. The body is not kept here: the transport records what net/http
// delivered, capped at the body limit. Memory is bounded by reqLimit and
// respLimit (plus one read); a recorder that exceeds a bound drops that
// side, and the transport falls back to a rebuilt message.
//
// A rawRecorder is written by the rawConn it is attached to (under the
// conn's lock) and read by its owner only after detach.
type rawRecorder struct {
	reqLimit, respLimit int

	req     []byte
	reqOver bool

	resp     []byte   // bytes read, up to the end of the final head once done
	start    int      // where the head being scanned starts in resp
	line     int      // where the next unscanned line starts in resp
	interim  []string // status lines of the interim heads skipped
	done     bool     // resp[start:] is the complete final head
	respOver bool

	conn *rawConn // the connection attached to; touched by the owner only
}

func newRawRecorder(reqLimit, respLimit int) *rawRecorder {
	return &rawRecorder{reqLimit: reqLimit, respLimit: respLimit}
}

// reset starts over, for a request sent (again) on a new connection.
func (r *rawRecorder) reset() {
	*r = rawRecorder{reqLimit: r.reqLimit, respLimit: r.respLimit, req: r.req[:0], resp: r.resp[:0], conn: r.conn}
}

// wrote records bytes written to the connection.
func (r *rawRecorder) wrote(p []byte) {
	if r.reqOver {
		return
	}
	if len(r.req)+len(p) > r.reqLimit {
		r.req, r.reqOver = nil, true
		return
	}
	r.req = append(r.req, p...)
}

// unwrite takes back the last n bytes recorded as written (they were not
// sent after all).
func (r *rawRecorder) unwrite(n int) {
	if !r.reqOver {
		r.req = r.req[:max(len(r.req)-n, 0)]
	}
}

// read records bytes read from the connection until the final head has
// ended. A head ends at its first empty line (CRLF or a bare LF: RFC 9112
// section 2.2 lets a recipient accept LF line endings, and net/http does).
func (r *rawRecorder) read(p []byte) {
	if r.done || r.respOver {
		return
	}
	r.resp = append(r.resp, p...)
	for {
		i := bytes.IndexByte(r.resp[r.line:], '\n')
		if i < 0 {
			break
		}
		end := r.line + i + 1
		blank := i == 0 || i == 1 && r.resp[r.line] == '\r'
		if !blank || r.line == r.start {
			r.line = end
			continue
		}
		status := firstLine(r.resp[r.start:])
		if code := statusCode(status); code >= 100 && code < 200 && code != 101 {
			r.interim = append(r.interim, string(status))
			r.start, r.line = end, end
			continue
		}
		r.resp, r.done = r.resp[:end], true
		return
	}
	if len(r.resp) > r.respLimit {
		r.resp, r.respOver = nil, true
	}
}

// request returns the bytes written, or nil if none were recorded.
func (r *rawRecorder) request() []byte {
	if r.reqOver || len(r.req) == 0 {
		return nil
	}
	return r.req
}

// head returns the final response head as received, through its empty
// line, or nil if it was not recorded whole.
func (r *rawRecorder) head() []byte {
	if !r.done {
		return nil
	}
	return r.resp[r.start:]
}

// firstLine returns b's first line without its line ending.
func firstLine(b []byte) []byte {
	line, _, _ := bytes.Cut(b, []byte{'\n'})
	return bytes.TrimSuffix(line, []byte{'\r'})
}

// statusCode returns the code of a status line "HTTP/1.1 103 Early Hints"
// as net/http reads it (the three digits after the first space), or 0.
func statusCode(line []byte) int {
	_, rest, ok := bytes.Cut(line, []byte{' '})
	if !ok || !bytes.HasPrefix(line, []byte("HTTP/")) {
		return 0
	}
	code, _, _ := bytes.Cut(rest, []byte{' '})
	if len(code) != 3 {
		return 0
	}
	n, err := strconv.Atoi(string(code))
	if err != nil {
		return 0
	}
	return n
}
