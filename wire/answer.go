package wire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"syscall"

	"github.com/crawlproject/crawl/archive"
)

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
