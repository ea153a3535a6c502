package wire

import (
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/crawlproject/crawl/archive"
)

// An Exchange is what the transport saw of one request: timing, status,
// the raw bytes sent and received, and the pace in force when it started.
// A caller gets one from Transport.Track before the request and reads it
// once the request has returned.
type Exchange struct {
	URL       string
	Authority string
	Start     time.Time
	Duration  time.Duration
	Status    int
	Header    http.Header
	Body      []byte
	// Truncation is the WARC-Truncated reason why Body is not the whole
	// body (archive.TruncatedLength when cut at the size cap;
	// TruncatedTime, TruncatedDisconnect or TruncatedUnspecified when the
	// read failed, and Err says why), "" for a whole body.
	Truncation string
	// Chunked reports that net/http removed a chunked transfer coding from
	// the body; Trailer holds the trailer fields that came after its last
	// chunk (the metadata record keeps them, the response record cannot).
	Chunked bool
	Trailer http.Header
	// RawRequest is the bytes written to the connection; RawResponse the
	// final response head as read from it, then Body (see responseRecord).
	// RawResponse is nil when no response head arrived.
	RawRequest  []byte
	RawResponse []byte
	// Rebuilt names the parts ("request", "response head") that had to be
	// rebuilt from the parsed message because their raw bytes were not
	// recorded; Interim holds the status lines of 1xx interim responses
	// that preceded the final one. Both are said in the metadata record.
	Rebuilt []string
	Interim []string
	// HeadRepairs says what was changed in the response heads (interim
	// and final) before net/http parsed them (repairHead); the records
	// keep the heads as received, and the metadata record lists these.
	HeadRepairs []string
	// EndedEarly says where the server closed the connection before the
	// body's end (Truncation disconnect, no Err: an answer all the same);
	// the crawler adds what it makes of it. "" otherwise.
	EndedEarly  string
	IP          string
	PaceSeconds float64
	PaceRule    string
	Err         error

	// Robots marks a robots.txt fetch or one of its redirect hops, set by
	// the caller before the request: it is always permitted (the gate is
	// not asked), asked for in the identity coding, and a body the server
	// ends early is a failure (RFC 9309 reads an incomplete answer as an
	// unreachable one).
	Robots bool
	// Hop marks a redirect hop of a robots.txt fetch to another host than
	// the lease's: it waits for a place among that host's requests in
	// flight (Pacer.WaitHop) instead of holding a lease.
	Hop bool
	// Limit is a smaller body cap for this request (robots.max_bytes and
	// one octet); 0 keeps the transport's.
	Limit int64
	// Stopped reports that the request failed because its caller's
	// context ended: the crawl is stopping, and the failure is no outcome
	// of the host (see Transport.fail).
	Stopped bool
}

// Truncated reports that Body is not the whole body (Truncation says why).
func (ex *Exchange) Truncated() bool { return ex.Truncation != "" }

// record sets the raw request and response from what rec captured, or
// rebuilds the parts it did not capture from the parsed messages.
func (ex *Exchange) record(rec *rawRecorder, req *http.Request, resp *http.Response) {
	ex.RawRequest = rec.request()
	if ex.RawRequest == nil {
		ex.RawRequest = rebuiltRequest(req)
		ex.Rebuilt = append(ex.Rebuilt, "request")
	}
	head := rec.head()
	if head == nil {
		head = rebuiltHead(resp)
		ex.Rebuilt = append(ex.Rebuilt, "response head")
	}
	ex.RawResponse = responseRecord(head, ex.Chunked, ex.Body)
	ex.Interim = rec.interim
	ex.HeadRepairs = rec.repairs
}

// Archived is the exchange as the archive writes it: its records, with
// meta and then Notes in its metadata record. isRobots marks a robots.txt
// fetch.
func (ex *Exchange) Archived(meta []archive.Field, isRobots bool) archive.Exchange {
	return archive.Exchange{TargetURI: ex.URL, Date: ex.Start, IP: ex.IP, Request: ex.RawRequest,
		Response: ex.RawResponse, Truncated: ex.Truncation, Failed: ex.Err != nil, Metadata: append(meta, ex.Notes()...), IsRobots: isRobots}
}

// Notes are the metadata fields that say how the exchange's records
// differ from the bytes on the wire, or what else arrived: a removed
// chunked coding, parts rebuilt because their raw bytes were not recorded,
// interim 1xx responses, repaired heads, and the error that cut the body
// short.
func (ex *Exchange) Notes() []archive.Field {
	var f []archive.Field
	if ex.Chunked {
		f = append(f, archive.Field{Name: "transfer-encoding", Value: "chunked (decoded by the HTTP client before recording; Transfer-Encoding and any Content-Length lines removed from the head)"})
	}
	for _, name := range slices.Sorted(maps.Keys(ex.Trailer)) {
		for _, v := range ex.Trailer[name] {
			f = append(f, archive.Field{Name: "http-trailer", Value: name + ": " + v})
		}
	}
	for _, part := range ex.Rebuilt {
		f = append(f, archive.Field{Name: "http-record", Value: part + " rebuilt from the parsed message: raw bytes not recorded"})
	}
	for _, line := range ex.Interim {
		f = append(f, archive.Field{Name: "interim-response", Value: line})
	}
	for _, n := range ex.HeadRepairs {
		f = append(f, archive.Field{Name: "http-head-repair", Value: n + "; the response record keeps the head as received"})
	}
	if ex.Truncation != "" && ex.Err != nil {
		f = append(f, archive.Field{Name: "fetch-error", Value: ex.Err.Error()})
	}
	if ex.EndedEarly != "" {
		f = append(f, archive.Field{Name: "body-ended-early", Value: ex.EndedEarly})
	}
	return f
}
