package crawler

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/scheduler"
)

// errNotResent is the error of a request that net/http would have sent
// again on a new connection.
var errNotResent = errors.New("crawler: the server closed a kept-alive connection without answering; the request is not sent again at once")

// jobHeader carries a job id from a caller (colly, the robots layer) to the
// transport. The transport removes it before the request is sent.
const jobHeader = "X-Crawl-Job"

// pacer is the per-host pace: the scheduler's Wait and Observe.
type pacer interface {
	Wait(ctx context.Context, authority string) error
	Observe(authority string, status int, dur time.Duration, retryAfter string, err error)
	Answered(authority string, at time.Time)
	Release(authority string)
	WaitHop(ctx context.Context, authority string) error
	ReleaseHop(authority string)
	Host(authority string) scheduler.HostStatus
}

// gate decides whether a non-robots.txt request may go out: robots.txt must
// be known for the host and must allow the URL (invariants 1 and 2).
type gate interface {
	permit(authority, target string) error
}

// An exchange is what the transport saw of one request: timing, status, the
// raw bytes sent and received, and the pace in force when it started.
type exchange struct {
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
	// handleFetch adds what the crawl makes of it (endedEarlyNote). ""
	// otherwise.
	EndedEarly  string
	IP          string
	PaceSeconds float64
	PaceRule    string
	Err         error

	robots bool  // a robots.txt fetch or one of its redirect hops: always permitted
	hop    bool  // a redirect hop of a robots.txt fetch, to another host than the lease's
	limit  int64 // a smaller body cap for this request (robots.max_bytes); 0: the transport's
	// stopped reports that the request failed because its caller's
	// context ended: the crawl is stopping, and the failure is no outcome
	// of the host (see politeTransport.fail).
	stopped bool
}

// politeTransport is the one choke point every request passes: pages,
// robots.txt, sitemaps and redirect hops. It waits on the host's pace,
// refuses requests robots.txt does not permit, sets the User-Agent, bounds
// the request by a deadline and the body by a cap, and reports timing and
// status back to the pace. Safe for concurrent use.
type politeTransport struct {
	base      http.RoundTripper
	dialer    *rawDialer // opens base's connections; its tls config is the TLS client's
	pace      pacer
	gate      gate
	userAgent string
	maxBody   int64
	timeout   time.Duration

	nextID atomic.Uint64
	jobs   sync.Map // id string -> *exchange
}

// newPoliteTransport builds the transport over an HTTP/1.1-only
// http.Transport whose connections record the bytes they carry (rawConn),
// so the archive holds the messages as they went over the wire.
func newPoliteTransport(p pacer, userAgent string, maxBody int64, timeout time.Duration) *politeTransport {
	d := newRawDialer(timeout)
	var http1 http.Protocols
	http1.SetHTTP1(true) // no HTTP/2: see rawDialer
	base := &http.Transport{
		Proxy:                  nil,
		DialContext:            d.dial,
		DialTLSContext:         d.dialTLS,
		Protocols:              &http1,
		DisableCompression:     true, // record bodies exactly as sent; no hidden Accept-Encoding
		MaxIdleConnsPerHost:    4,
		MaxIdleConns:           1024,
		IdleConnTimeout:        30 * time.Second,
		ResponseHeaderTimeout:  timeout,
		MaxResponseHeaderBytes: maxResponseHead,
		ExpectContinueTimeout:  time.Second,
	}
	return &politeTransport{base: base, dialer: d, pace: p, userAgent: userAgent, maxBody: maxBody, timeout: timeout}
}

// track registers a new exchange and returns the header value that ties a
// request to it.
func (t *politeTransport) track() (string, *exchange) {
	id := strconv.FormatUint(t.nextID.Add(1), 10)
	ex := &exchange{}
	t.jobs.Store(id, ex)
	return id, ex
}

func (t *politeTransport) untrack(id string) { t.jobs.Delete(id) }

// closeIdle closes the keep-alive connections no request is using, and
// with them the goroutines net/http keeps for each. Call it once no request
// is in flight; the transport stays usable.
func (t *politeTransport) closeIdle() {
	if ci, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}

// errNotPermitted wraps refusals by the gate.
var errNotPermitted = errors.New("crawler: request not permitted")

// RoundTrip implements http.RoundTripper.
func (t *politeTransport) RoundTrip(in *http.Request) (*http.Response, error) {
	req := in.Clone(in.Context())
	ex := &exchange{}
	if id := req.Header.Get(jobHeader); id != "" {
		if v, ok := t.jobs.Load(id); ok {
			ex = v.(*exchange)
		}
		req.Header.Del(jobHeader)
	}
	auth := scheduler.Authority(req.URL)
	ex.URL, ex.Authority = req.URL.String(), auth
	if !ex.robots {
		if err := t.gate.permit(auth, ex.URL); err != nil {
			ex.Err = err
			return nil, fmt.Errorf("%w: %w", errNotPermitted, err)
		}
	}
	// A hop has no lease of this host: it takes a place among the host's
	// requests in flight (politeness.per_host) with WaitHop.
	wait, release := t.pace.Wait, t.pace.Release
	if ex.hop {
		wait, release = t.pace.WaitHop, t.pace.ReleaseHop
	}
	if err := wait(req.Context(), auth); err != nil {
		ex.Err = err
		return nil, err
	}
	defer release(auth)
	// The interval in force for this start: the pace, or a Retry-After or
	// back-off that held it longer (the scheduler names which).
	hs := t.pace.Host(auth)
	ex.PaceSeconds, ex.PaceRule = hs.Interval.Seconds(), hs.PaceSource
	if hs.LastPaceSource != "" {
		ex.PaceSeconds, ex.PaceRule = hs.LastInterval.Seconds(), hs.LastPaceSource
	}
	req.Header.Set("User-Agent", t.userAgent)
	req.Header.Del("Accept-Encoding")
	if ex.robots {
		// robots.txt is asked for as plain text (RFC 9110 12.5.3); the
		// robots layer undoes a content coding sent all the same.
		req.Header.Set("Accept-Encoding", "identity")
	}
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	defer cancel()
	limit := t.maxBody
	if ex.limit > 0 && ex.limit < limit {
		limit = ex.limit
	}
	// The request as written and the response head as read; body bytes
	// are taken from net/http, so the recorder only keeps heads.
	rec := newRawRecorder(maxRawRequest, maxResponseHead)
	defer rec.detach()
	ctx, refuse := context.WithCancelCause(ctx)
	defer refuse(nil)
	conns := 0
	trace := &httptrace.ClientTrace{GotConn: func(ci httptrace.GotConnInfo) {
		if conns++; conns > 1 {
			// net/http sends a GET again on a new connection when a
			// kept-alive one closed without an answer: a second request
			// the pace never allowed, at once. It is refused before it is
			// written; the failure goes through the back-off like any.
			ci.Conn.Close()
			refuse(errNotResent)
			return
		}
		if a := ci.Conn.RemoteAddr(); a != nil {
			ex.IP = hostOnly(a.String())
		}
		if rc, ok := ci.Conn.(*rawConn); ok {
			rc.attach(rec)
		}
	}}
	req = req.WithContext(httptrace.WithClientTrace(ctx, trace))
	ex.Start = time.Now()
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		if cause := context.Cause(ctx); errors.Is(cause, errNotResent) {
			err = cause
		}
		ex.Duration = time.Since(ex.Start)
		t.fail(in, ex, err)
		return nil, err
	}
	// A bad status's body is not read: its head is recorded, and the
	// request fails with it.
	var body []byte
	var rerr error
	bad := badStatus(resp)
	if bad == nil {
		body, rerr = io.ReadAll(io.LimitReader(resp.Body, limit+1))
	}
	resp.Body.Close()
	ex.Duration = time.Since(ex.Start)
	rec.detach()
	// The server had received (and finished) the request by the time its
	// whole answer arrived: the next interval counts from here, so no delay
	// on the way can make two requests reach the server, or leave it,
	// closer than the pace.
	t.pace.Answered(auth, time.Now())
	switch {
	case rerr != nil:
		// What arrived is archived, marked with why it ends early (fail
		// below sets Err).
		ex.Truncation = truncation(ctx, rerr)
	case int64(len(body)) > limit:
		body, ex.Truncation = body[:limit], archive.TruncatedLength
	}
	ex.Status, ex.Header, ex.Body = resp.StatusCode, resp.Header, body
	// net/http reports a chunked coding also for responses that have no
	// body (HEAD, 1xx, 204, 304), where it decodes nothing: their head is
	// kept whole.
	ex.Chunked = len(resp.TransferEncoding) > 0 && bodyAllowed(req.Method, resp.StatusCode)
	ex.Trailer = resp.Trailer
	ex.record(rec, req, resp)
	if rerr != nil && !ex.robots && endedByServer(ctx, rerr) {
		// An answer, cut: no failure of the host (the crawler decides
		// whether to fetch it once more, endedEarlyNote). robots.txt
		// keeps RFC 9309's reading (an incomplete answer is an
		// unreachable one).
		ex.EndedEarly = endedEarly(resp, len(body))
		rerr = nil
	}
	if err := cmp.Or(bad, rerr); err != nil {
		t.fail(in, ex, err)
		return nil, err
	}
	t.pace.Observe(auth, resp.StatusCode, ex.Duration, resp.Header.Get("Retry-After"), nil)
	parse := parseBody(resp.Header, req.URL.Path, body, t.maxBody)
	resp.Body = io.NopCloser(bytes.NewReader(parse))
	resp.ContentLength = int64(len(parse))
	resp.TransferEncoding = nil
	// Already inflated where colly would inflate (parseBody), with a bound.
	resp.Uncompressed = true
	return resp, nil
}

// badStatus returns why a response is no answer the crawler can use, or
// nil: a 101 Switching Protocols, whose body net/http hands back as the
// raw connection without watching the request's deadline (reading it
// could block past fetch.timeout and Ctrl-C for as long as the server
// holds it; the crawler never asks for an upgrade), or a status code
// under 100 (net/http reads "000" as 0).
func badStatus(resp *http.Response) error {
	switch {
	case resp.StatusCode == http.StatusSwitchingProtocols:
		return fmt.Errorf("crawler: the server switched protocols (101, Upgrade: %q), which the crawler never asks for", resp.Header.Get("Upgrade"))
	case resp.StatusCode < 100:
		return fmt.Errorf("crawler: status code %03d is no HTTP status", resp.StatusCode)
	}
	return nil
}

// fail ends a sent exchange that failed with err. It is the one place
// that decides whether the failure is the host's: when in's context has
// ended the crawl is stopping, so the pace does not see the failure and
// ex.stopped tells the callers to treat the request as not sent (nothing
// logged, stored or counted; its lease stays for the next run).
func (t *politeTransport) fail(in *http.Request, ex *exchange, err error) {
	ex.Err = err
	if ex.stopped = in.Context().Err() != nil; !ex.stopped {
		t.pace.Observe(ex.Authority, 0, ex.Duration, "", err)
	}
}

// truncated reports that Body is not the whole body (Truncation says why).
func (ex *exchange) truncated() bool { return ex.Truncation != "" }

// record sets the raw request and response from what rec captured, or
// rebuilds the parts it did not capture from the parsed messages.
func (ex *exchange) record(rec *rawRecorder, req *http.Request, resp *http.Response) {
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

// truncation maps a failed body read to its WARC-Truncated reason (WARC
// 1.1 section 5.13): the fetch deadline ran out ("time"), the connection
// ended or broke ("disconnect"), or anything else ("unspecified": the
// crawl was stopped, a malformed chunked coding).
func truncation(ctx context.Context, err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return archive.TruncatedTime
	case errors.Is(err, context.Canceled):
		return archive.TruncatedUnspecified
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, net.ErrClosed):
		return archive.TruncatedDisconnect
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return archive.TruncatedTime
	}
	return archive.TruncatedUnspecified
}

// endedByServer reports whether a body read failed because the server
// closed the connection cleanly before the body's end (a Content-Length
// larger than what it sent, a chunked body without its last chunk): net/http
// reads EOF there as io.ErrUnexpectedEOF. A reset, a timeout or the crawl
// stopping is not this.
func endedByServer(ctx context.Context, err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) && ctx.Err() == nil
}

// endedEarly says where the server ended a body early (endedByServer).
func endedEarly(resp *http.Response, got int) string {
	what := fmt.Sprintf("after %d of the %d body octets its Content-Length announced", got, resp.ContentLength)
	if resp.ContentLength < 0 {
		what = fmt.Sprintf("inside the chunked body, after %d octets, before its last chunk", got)
	}
	return "the server closed the connection " + what
}

// hostOnly returns the IP of a remote address "ip:port" ("[::1]:80" gives
// "::1"), or addr itself if it has no port.
func hostOnly(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

// bodyAllowed reports whether a response to method with status can carry
// a body (RFC 9110 6.4.1, 9.3.2): not to HEAD, not 1xx, 204 or 304.
func bodyAllowed(method string, status int) bool {
	return method != http.MethodHead && status >= 200 && status != http.StatusNoContent && status != http.StatusNotModified
}
