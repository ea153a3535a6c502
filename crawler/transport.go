package crawler

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// jobHeader carries a job id from a caller (colly, the robots layer) to the
// transport. The transport removes it before the request is sent.
const jobHeader = "X-Crawl-Job"

// pacer is the per-host pace: the scheduler's Wait and Observe.
type pacer interface {
	Wait(ctx context.Context, authority string) error
	Observe(authority string, status int, dur time.Duration, retryAfter string, err error)
	Answered(authority string, at time.Time)
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
	URL         string
	Authority   string
	Start       time.Time
	Duration    time.Duration
	Status      int
	Header      http.Header
	Body        []byte
	Truncated   bool
	Chunked     bool
	RawRequest  []byte
	RawResponse []byte
	IP          string
	PaceSeconds float64
	PaceRule    string
	Err         error

	robots bool  // a robots.txt fetch or one of its redirect hops: always permitted
	limit  int64 // a smaller body cap for this request (robots.max_bytes); 0: the transport's
}

// politeTransport is the one choke point every request passes: pages,
// robots.txt, sitemaps and redirect hops. It waits on the host's pace,
// refuses requests robots.txt does not permit, sets the User-Agent, bounds
// the request by a deadline and the body by a cap, and reports timing and
// status back to the pace. Safe for concurrent use.
type politeTransport struct {
	base      http.RoundTripper
	pace      pacer
	gate      gate
	userAgent string
	maxBody   int64
	timeout   time.Duration

	nextID atomic.Uint64
	jobs   sync.Map // id string -> *exchange
}

func newPoliteTransport(p pacer, userAgent string, maxBody int64, timeout time.Duration) *politeTransport {
	base := &http.Transport{
		Proxy:                 nil,
		DisableCompression:    true, // record bodies exactly as sent; no hidden Accept-Encoding
		MaxIdleConnsPerHost:   4,
		MaxIdleConns:          1024,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: timeout,
		TLSHandshakeTimeout:   timeout,
		ExpectContinueTimeout: time.Second,
	}
	return &politeTransport{base: base, pace: p, userAgent: userAgent, maxBody: maxBody, timeout: timeout}
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
		if err := t.gate.permit(auth, req.URL.String()); err != nil {
			ex.Err = err
			return nil, fmt.Errorf("%w: %w", errNotPermitted, err)
		}
	}
	if err := t.pace.Wait(req.Context(), auth); err != nil {
		ex.Err = err
		return nil, err
	}
	hs := t.pace.Host(auth)
	ex.PaceSeconds, ex.PaceRule = hs.Interval.Seconds(), hs.PaceSource
	req.Header.Set("User-Agent", t.userAgent)
	req.Header.Del("Accept-Encoding")
	ctx, cancel := context.WithTimeout(req.Context(), t.timeout)
	defer cancel()
	trace := &httptrace.ClientTrace{GotConn: func(ci httptrace.GotConnInfo) {
		if a := ci.Conn.RemoteAddr(); a != nil {
			ex.IP = hostOnly(a.String())
		}
	}}
	req = req.WithContext(httptrace.WithClientTrace(ctx, trace))
	ex.RawRequest = rawRequest(req)
	ex.Start = time.Now()
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		ex.Duration = time.Since(ex.Start)
		ex.Err = err
		t.pace.Observe(auth, 0, ex.Duration, "", err)
		return nil, err
	}
	limit := t.maxBody
	if ex.limit > 0 && ex.limit < limit {
		limit = ex.limit
	}
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	resp.Body.Close()
	ex.Duration = time.Since(ex.Start)
	// The server had received (and finished) the request by the time its
	// whole answer arrived: the next interval counts from here, so no delay
	// on the way can make two requests reach the server, or leave it,
	// closer than the pace.
	t.pace.Answered(auth, time.Now())
	if rerr != nil {
		ex.Err = rerr
		t.pace.Observe(auth, 0, ex.Duration, "", rerr)
		return nil, rerr
	}
	if int64(len(body)) > limit {
		body, ex.Truncated = body[:limit], true
	}
	ex.Status, ex.Header, ex.Body = resp.StatusCode, resp.Header, body
	ex.Chunked = len(resp.TransferEncoding) > 0
	ex.RawResponse = rawResponse(resp, body)
	t.pace.Observe(auth, resp.StatusCode, ex.Duration, resp.Header.Get("Retry-After"), nil)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.TransferEncoding = nil
	resp.Uncompressed = false
	return resp, nil
}

// rawRequest renders the request line and headers as net/http writes them:
// request line, Host, User-Agent, then the other headers sorted.
func rawRequest(req *http.Request) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\n", req.Method, req.URL.RequestURI())
	host := req.Host
	if host == "" {
		host = req.URL.Host
	}
	fmt.Fprintf(&b, "Host: %s\r\n", host)
	fmt.Fprintf(&b, "User-Agent: %s\r\n", req.Header.Get("User-Agent"))
	keys := make([]string, 0, len(req.Header))
	for k := range req.Header {
		if k != "User-Agent" && k != "Host" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range req.Header[k] {
			fmt.Fprintf(&b, "%s: %s\r\n", k, v)
		}
	}
	b.WriteString("\r\n")
	return b.Bytes()
}

// rawResponse renders the status line, headers and body as received. A
// chunked transfer coding has already been removed by net/http; the
// Transfer-Encoding header is then left out so the record stays consistent
// (the metadata record says the coding was removed).
func rawResponse(resp *http.Response, body []byte) []byte {
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
	keys := make([]string, 0, len(resp.Header))
	for k := range resp.Header {
		if k != "Transfer-Encoding" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, v := range resp.Header[k] {
			fmt.Fprintf(&b, "%s: %s\r\n", k, v)
		}
	}
	b.WriteString("\r\n")
	b.Write(body)
	return b.Bytes()
}

func hostOnly(addr string) string {
	for i := len(addr) - 1; i >= 0; i-- {
		if addr[i] == ':' {
			h := addr[:i]
			if len(h) > 1 && h[0] == '[' && h[len(h)-1] == ']' {
				return h[1 : len(h)-1]
			}
			return h
		}
	}
	return addr
}
