package wire

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
// The recorder also decides what net/http reads of each response head:
// a head is held back until it is whole, then handed on as repairHead
// repaired it (the recorder keeps it as received, for the archive), and
// the bytes after the final head are handed on as they came. A head with
// no status line, or one past respLimit, is handed on as it came, and
// net/http judges it as it would without the recorder.
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
	status   bool     // the head being scanned has its status line (empty lines before it are not one)
	given    int      // resp[:given] is handed on to net/http, as repaired heads or as read
	raw      bool     // hand on bytes as read, unrepaired, from given on
	interim  []string // status lines of the interim heads skipped
	repairs  []string // what repairHead changed in the heads handed on
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

// read records bytes p read from the connection until the final head has
// ended, and appends to out what net/http is to read of them now: nothing
// while a head is incomplete, a head repaired once whole, body bytes as
// they came. through reports that p is to be read as it is instead (out is
// then unchanged). A head ends at its first empty line (CRLF or a bare LF:
// RFC 9112 section 2.2 lets a recipient accept LF line endings, and
// net/http does).
func (r *rawRecorder) read(p, out []byte) (_ []byte, through bool) {
	if r.done || r.respOver {
		return out, true
	}
	from := len(r.resp)
	r.resp = append(r.resp, p...)
	for !r.done {
		i := bytes.IndexByte(r.resp[r.line:], '\n')
		if i < 0 {
			break
		}
		end := r.line + i + 1
		line := r.resp[r.line:end]
		switch {
		case isBlankLine(line) && r.status:
			out = r.headEnded(end, out)
			continue
		case isBlankLine(line):
			// An empty line before the status line: not the end.
		case !r.status:
			r.status = true
			// No status line to read the head by: net/http judges it
			// as it came (and refuses it, as without the recorder).
			r.raw = r.raw || !hasStatusName(line)
		}
		r.line = end
	}
	if rest := r.resp[r.line:]; !r.done && !r.status && !r.raw && len(rest) > 0 && rest[0] != '\r' &&
		!bytes.EqualFold(rest[:min(len(rest), 5)], []byte("HTTP/")[:min(len(rest), 5)]) {
		r.raw = true // what has come of the first line already is no status line
	}
	through = r.raw && r.given == from
	if r.raw || r.done {
		// As read: what is held back of a head with no status line, or
		// the body's first bytes after the final head.
		if !through {
			out = append(out, r.resp[r.given:]...)
		}
		r.given = len(r.resp)
	}
	if r.done {
		r.resp = r.resp[:r.line] // the body is not kept
	} else if len(r.resp) > r.respLimit {
		out = append(out, r.resp[r.given:]...)
		r.resp, r.respOver = nil, true
	}
	return out, through
}

// headEnded takes the head resp[start:end], which has just ended: it is
// handed on (appended to out) repaired, unless raw, and is either an
// interim head, skipped, or the final one.
func (r *rawRecorder) headEnded(end int, out []byte) []byte {
	head := r.resp[r.start:end]
	fixed := head
	if !r.raw {
		var notes []string
		fixed, notes = repairHead(head)
		for _, n := range notes {
			if len(r.repairs) < 4*maxRepairNotes { // interim heads too, bounded
				r.repairs = append(r.repairs, n)
			}
		}
		out = append(out, fixed...)
		r.given = end
	}
	if code := statusCode(firstLine(fixed)); code >= 100 && code < 200 && code != 101 {
		r.interim = append(r.interim, string(firstLine(bytes.TrimLeft(head, "\r\n"))))
		r.start, r.line, r.status = end, end, false
		return out
	}
	r.line, r.done = end, true
	return out
}

// flush switches r to handing bytes on as read, and appends to out the
// bytes it holds back (an incomplete head): the connection failed or r is
// detached, and net/http is to see what arrived.
func (r *rawRecorder) flush(out []byte) []byte {
	if r.done || r.respOver || r.raw {
		return out
	}
	r.raw = true
	out = append(out, r.resp[r.given:]...)
	r.given = len(r.resp)
	return out
}

// request returns the bytes written, or nil if none were recorded.
func (r *rawRecorder) request() []byte {
	if r.reqOver || len(r.req) == 0 {
		return nil
	}
	return r.req
}

// head returns the final response head as received, through its empty
// line, or nil if it was not recorded whole. Empty lines before its status
// line are left out: they are no part of the message (RFC 9112 section
// 2.2 has a recipient ignore them), and a WARC reader looks for the status
// line at the start of the record's block.
func (r *rawRecorder) head() []byte {
	if !r.done {
		return nil
	}
	return bytes.TrimLeft(r.resp[r.start:], "\r\n")
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
