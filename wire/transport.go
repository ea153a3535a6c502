package wire

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/scheduler"
)

// ErrNotResent is the error of a request that net/http would have sent
// again on a new connection.
var ErrNotResent = errors.New("crawler: the server closed a kept-alive connection without answering; the request is not sent again at once")

// ErrNotPermitted wraps refusals by the gate.
var ErrNotPermitted = errors.New("crawler: request not permitted")

// JobHeader carries a job id (Transport.Track) from a caller to the
// transport. The transport removes it before the request is sent.
const JobHeader = "X-Crawl-Job"

// Pacer is the per-host pace the transport waits on and reports to: the
// scheduler's Wait and Observe. Its methods are called concurrently.
type Pacer interface {
	Wait(ctx context.Context, authority string) error
	Observe(authority string, status int, dur time.Duration, retryAfter string, err error)
	Answered(authority string, at time.Time)
	Release(authority string)
	WaitHop(ctx context.Context, authority string) error
	ReleaseHop(authority string)
	Host(authority string) scheduler.HostStatus
}

// Gate decides whether a request other than a robots.txt fetch may go
// out: robots.txt must be known for the host and must allow the URL. Its
// Permit is called concurrently.
type Gate interface {
	Permit(authority, target string) error
}

// Transport is the one choke point every request passes: pages,
// robots.txt, sitemaps and redirect hops. It waits on the host's pace,
// refuses requests the Gate does not permit, sets the User-Agent, bounds
// the request by a deadline and the body by a cap, records the bytes on
// the wire, and reports timing and status back to the pace. Build it with
// NewTransport; set Gate (and ParseBody) before the first request. Safe
// for concurrent use.
type Transport struct {
	// Gate is asked before every request but robots.txt fetches.
	Gate Gate
	// ParseBody, if set, gives the body handed back in the response
	// (what the caller parses) from the body as received, which the
	// Exchange keeps; path is the request's. The response is marked
	// Uncompressed. Nil hands back the body as received.
	ParseBody func(h http.Header, path string, body []byte) []byte

	base      http.RoundTripper
	dialer    *rawDialer // opens base's connections; its tls config is the TLS client's
	pace      Pacer
	userAgent string
	maxBody   int64
	timeout   time.Duration

	nextID atomic.Uint64
	jobs   sync.Map // id string -> *Exchange
}

// NewTransport builds the transport over an HTTP/1.1-only http.Transport
// whose connections record the bytes they carry (rawConn), so the archive
// holds the messages as they went over the wire. Every request is paced
// by p, sent with userAgent, ended after timeout, and its body read up to
// maxBody octets.
func NewTransport(p Pacer, userAgent string, maxBody int64, timeout time.Duration) *Transport {
	d := newRawDialer(timeout)
	var http1 http.Protocols
	http1.SetHTTP1(true) // no HTTP/2: see rawDialer
	base := &http.Transport{
		Proxy:                  nil,
		DialContext:            d.dial,
		DialTLSContext:         d.dialTLS,
		Protocols:              &http1,
		DisableCompression:     true, // record bodies exactly as sent; setHeaders asks for the codings
		MaxIdleConnsPerHost:    4,
		MaxIdleConns:           1024,
		IdleConnTimeout:        30 * time.Second,
		ResponseHeaderTimeout:  timeout,
		MaxResponseHeaderBytes: maxResponseHead,
		ExpectContinueTimeout:  time.Second,
	}
	return &Transport{base: base, dialer: d, pace: p, userAgent: userAgent, maxBody: maxBody, timeout: timeout}
}

// Track registers a new exchange and returns the JobHeader value that
// ties a request to it. Untrack it once the request has returned.
func (t *Transport) Track() (string, *Exchange) {
	id := strconv.FormatUint(t.nextID.Add(1), 10)
	ex := &Exchange{}
	t.jobs.Store(id, ex)
	return id, ex
}

// Untrack forgets the exchange of id.
func (t *Transport) Untrack(id string) { t.jobs.Delete(id) }

// CloseIdle closes the keep-alive connections no request is using, and
// with them the goroutines net/http keeps for each. Call it once no request
// is in flight; the transport stays usable.
func (t *Transport) CloseIdle() {
	if ci, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}

// RoundTrip implements http.RoundTripper: it sends in once the gate and
// the pace allow it, and records the exchange in the Exchange its
// JobHeader names (or in one of its own).
func (t *Transport) RoundTrip(in *http.Request) (*http.Response, error) {
	req, ex := t.begin(in)
	if err := t.admit(req.Context(), ex); err != nil {
		return nil, err
	}
	defer t.release(ex)
	t.notePace(ex)
	t.setHeaders(req, ex)
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	defer cancel()
	// The request as written and the response head as read; body bytes
	// are taken from net/http, so the recorder only keeps heads.
	rec := newRawRecorder(maxRawRequest, maxResponseHead)
	defer rec.detach()
	ctx, refuse := context.WithCancelCause(ctx)
	defer refuse(nil)
	req = req.WithContext(httptrace.WithClientTrace(ctx, t.trace(ex, rec, refuse)))
	ex.Start = time.Now()
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		if cause := context.Cause(ctx); errors.Is(cause, ErrNotResent) {
			err = cause
		}
		ex.Duration = time.Since(ex.Start)
		t.fail(in, ex, err)
		return nil, err
	}
	if err := t.answer(ctx, in, req, resp, ex, rec); err != nil {
		return nil, err
	}
	t.pace.Observe(ex.Authority, resp.StatusCode, ex.Duration, resp.Header.Get("Retry-After"), nil)
	return t.handBack(req, resp, ex.Body), nil
}

// begin returns the request to send, a clone of in without JobHeader, and
// the exchange that header names (a fresh one without it), its URL and
// authority set.
func (t *Transport) begin(in *http.Request) (*http.Request, *Exchange) {
	req := in.Clone(in.Context())
	ex := &Exchange{}
	if id := req.Header.Get(JobHeader); id != "" {
		if v, ok := t.jobs.Load(id); ok {
			ex = v.(*Exchange)
		}
		req.Header.Del(JobHeader)
	}
	ex.URL, ex.Authority = req.URL.String(), scheduler.Authority(req.URL)
	return req, ex
}

// admit asks the gate (robots.txt fetches pass) and then waits for the
// host's pace. A hop has no lease of its host: it takes a place among
// the host's requests in flight (politeness.per_host) with WaitHop. On
// an error the request is not sent and ex.Err says why.
func (t *Transport) admit(ctx context.Context, ex *Exchange) error {
	if !ex.Robots {
		if err := t.Gate.Permit(ex.Authority, ex.URL); err != nil {
			ex.Err = err
			return fmt.Errorf("%w: %w", ErrNotPermitted, err)
		}
	}
	wait := t.pace.Wait
	if ex.Hop {
		wait = t.pace.WaitHop
	}
	if err := wait(ctx, ex.Authority); err != nil {
		ex.Err = err
		return err
	}
	return nil
}

// release gives back the place admit took.
func (t *Transport) release(ex *Exchange) {
	if ex.Hop {
		t.pace.ReleaseHop(ex.Authority)
		return
	}
	t.pace.Release(ex.Authority)
}

// notePace records the interval in force for this start: the pace, or a
// Retry-After or back-off that held it longer (the scheduler names which).
func (t *Transport) notePace(ex *Exchange) {
	hs := t.pace.Host(ex.Authority)
	ex.PaceSeconds, ex.PaceRule = hs.Interval.Seconds(), hs.PaceSource
	if hs.LastPaceSource != "" {
		ex.PaceSeconds, ex.PaceRule = hs.LastInterval.Seconds(), hs.LastPaceSource
	}
}

// setHeaders sets the User-Agent and the Accept-Encoding (RFC 9110
// 12.5.3): every request but robots.txt's asks for PageCodings, which the
// crawler undoes for reading (the archive keeps the body as received);
// robots.txt is asked for as plain text, and the robots layer undoes a
// content coding sent all the same. The header is set here, not by
// net/http: DisableCompression keeps net/http from adding its own gzip and
// from inflating the body before it is recorded.
func (t *Transport) setHeaders(req *http.Request, ex *Exchange) {
	req.Header.Set("User-Agent", t.userAgent)
	req.Header.Set("Accept-Encoding", PageCodings)
	if ex.Robots {
		req.Header.Set("Accept-Encoding", "identity")
	}
}

// trace attaches rec to the connection the request gets and notes its IP.
// net/http sends a GET again on a new connection when a kept-alive one
// closed without an answer: a second request the pace never allowed, at
// once. It is refused (refuse) before it is written; the failure goes
// through the back-off like any.
func (t *Transport) trace(ex *Exchange, rec *rawRecorder, refuse context.CancelCauseFunc) *httptrace.ClientTrace {
	conns := 0
	return &httptrace.ClientTrace{GotConn: func(ci httptrace.GotConnInfo) {
		if conns++; conns > 1 {
			ci.Conn.Close()
			refuse(ErrNotResent)
			return
		}
		if a := ci.Conn.RemoteAddr(); a != nil {
			ex.IP = hostOnly(a.String())
		}
		if rc, ok := ci.Conn.(*rawConn); ok {
			rc.attach(rec)
		}
	}}
}

// limit returns the body cap for ex.
func (t *Transport) limit(ex *Exchange) int64 {
	if ex.Limit > 0 && ex.Limit < t.maxBody {
		return ex.Limit
	}
	return t.maxBody
}

// answer reads resp's body up to the cap and records the answer in ex.
// It returns the error that makes the answer a failure (reported to the
// pace by fail), or nil.
func (t *Transport) answer(ctx context.Context, in, req *http.Request, resp *http.Response, ex *Exchange, rec *rawRecorder) error {
	body, bad, rerr := t.readBody(ctx, resp, ex, rec)
	ex.Status, ex.Header, ex.Body = resp.StatusCode, resp.Header, body
	// net/http reports a chunked coding also for responses that have no
	// body (HEAD, 1xx, 204, 304), where it decodes nothing: their head is
	// kept whole.
	ex.Chunked = len(resp.TransferEncoding) > 0 && bodyAllowed(req.Method, resp.StatusCode)
	ex.Trailer = resp.Trailer
	ex.record(rec, req, resp)
	if rerr != nil && !ex.Robots && endedByServer(ctx, rerr) {
		// An answer, cut: no failure of the host (the crawler decides
		// whether to fetch it once more). robots.txt keeps RFC 9309's
		// reading (an incomplete answer is an unreachable one).
		ex.EndedEarly = endedEarly(resp, len(body))
		rerr = nil
	}
	if err := cmp.Or(bad, rerr); err != nil {
		t.fail(in, ex, err)
		return err
	}
	return nil
}

// readBody reads resp's body up to the cap, closes it, detaches rec (the
// exchange's bytes are all read), and tells the pace the host answered.
// A bad status's body is not read: its head is
// recorded, and the request fails with it (bad). rerr is the read's
// error; what arrived is kept all the same, marked (ex.Truncation) with
// why it ends early or was cut at the cap.
func (t *Transport) readBody(ctx context.Context, resp *http.Response, ex *Exchange, rec *rawRecorder) (body []byte, bad, rerr error) {
	limit := t.limit(ex)
	if bad = badStatus(resp); bad == nil {
		body, rerr = io.ReadAll(io.LimitReader(resp.Body, limit+1))
	}
	resp.Body.Close()
	ex.Duration = time.Since(ex.Start)
	rec.detach()
	// The server had received (and finished) the request by the time its
	// whole answer arrived: the next interval counts from here, so no delay
	// on the way can make two requests reach the server, or leave it,
	// closer than the pace.
	t.pace.Answered(ex.Authority, time.Now())
	switch {
	case rerr != nil:
		ex.Truncation = truncation(ctx, rerr)
	case int64(len(body)) > limit:
		body, ex.Truncation = body[:limit], archive.TruncatedLength
	}
	return body, bad, rerr
}

// handBack gives resp the body its caller reads: ParseBody's, already
// inflated where colly would inflate, with a bound.
func (t *Transport) handBack(req *http.Request, resp *http.Response, body []byte) *http.Response {
	parse := body
	if t.ParseBody != nil {
		parse = t.ParseBody(resp.Header, req.URL.Path, body)
	}
	resp.Body = io.NopCloser(bytes.NewReader(parse))
	resp.ContentLength = int64(len(parse))
	resp.TransferEncoding = nil
	resp.Uncompressed = true
	return resp
}

// fail ends a sent exchange that failed with err. It is the one place
// that decides whether the failure is the host's: when in's context has
// ended the crawl is stopping, so the pace does not see the failure and
// ex.Stopped tells the callers to treat the request as not sent (nothing
// logged, stored or counted; its lease stays for the next run).
func (t *Transport) fail(in *http.Request, ex *Exchange, err error) {
	ex.Err = err
	if ex.Stopped = in.Context().Err() != nil; !ex.Stopped {
		t.pace.Observe(ex.Authority, 0, ex.Duration, "", err)
	}
}
