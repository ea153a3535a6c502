package scheduler

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"
)

// An Outcome is what the result of one request says about its URL and its
// host, for the failure policy: what is retried, how often, and what slows
// the host down. Classify gives it.
type Outcome uint8

// The outcomes of a request, by what the failure policy makes of them.
const (
	// OutcomeAnswer: an HTTP answer that is final (1xx to 4xx but 429),
	// or no request at all. It resets the host's back-off.
	OutcomeAnswer Outcome = iota
	// OutcomeServerError: a 5xx answer other than 503. It concerns that
	// URL only: the URL is retried, the host is neither slowed nor
	// charged (an answer came).
	OutcomeServerError
	// OutcomeOverload: 429 or 503, the server saying it is overloaded.
	// The host backs off (Retry-After honoured in full) and the URL is
	// retried.
	OutcomeOverload
	// OutcomeCut: the answer's head came but its body did not (the
	// fetch deadline cut it, the connection broke). The host backs off,
	// as after a timeout; the URL is retried at most once, since a
	// server that drips a body drips it again.
	OutcomeCut
	// OutcomeNoAnswer: no answer came: a timeout, a reset, a connection
	// closed before the head. The host backs off, the URL is retried, and
	// the failure counts towards dropping the host.
	OutcomeNoAnswer
	// OutcomeUnreachable: the connection was refused, the host's name
	// does not resolve, no route leads to it, or its certificate was
	// refused: a fact, not a hiccup. As OutcomeNoAnswer, and a host that
	// never answered is given up within RefusedGiveUp.
	OutcomeUnreachable
)

// String names the outcome as the failure policy's table does.
func (o Outcome) String() string {
	switch o {
	case OutcomeAnswer:
		return "answer"
	case OutcomeServerError:
		return "server-error"
	case OutcomeOverload:
		return "overload"
	case OutcomeCut:
		return "cut"
	case OutcomeNoAnswer:
		return "no-answer"
	case OutcomeUnreachable:
		return "unreachable"
	}
	return "unknown"
}

// Classify returns the outcome of a request that ended with status (0 if
// no response head arrived) and err (nil if the whole answer arrived).
func Classify(status int, err error) Outcome {
	switch {
	case err != nil && status > 0:
		return OutcomeCut
	case err != nil && unreachable(err):
		return OutcomeUnreachable
	case err != nil:
		return OutcomeNoAnswer
	case status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable:
		return OutcomeOverload
	case status >= 500:
		return OutcomeServerError
	}
	return OutcomeAnswer
}

// answered reports whether the outcome came with an answer from the
// server: the host is there, whatever the status.
func (o Outcome) answered() bool {
	return o == OutcomeAnswer || o == OutcomeServerError || o == OutcomeOverload || o == OutcomeCut
}

// slows reports whether the outcome puts the whole host into back-off:
// what says the server is overloaded or not there (429, 503, timeouts,
// resets, refusals), never a plain 5xx.
func (o Outcome) slows() bool { return o != OutcomeAnswer && o != OutcomeServerError }

// connection reports whether the outcome is a failure at the connection
// level, the only kind that counts towards dropping a host.
func (o Outcome) connection() bool { return o == OutcomeNoAnswer || o == OutcomeUnreachable }

// unreachable reports whether err says the host cannot be reached at all:
// the connection was refused, the name does not resolve (a DNS timeout is
// a hiccup, not an answer), no route leads to it, or its TLS certificate
// was refused.
func unreachable(err error) bool {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return !dns.IsTimeout
	}
	var cert *tls.CertificateVerificationError
	return errors.As(err, &cert) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EHOSTUNREACH) || errors.Is(err, syscall.ENETUNREACH)
}

// RefusedGiveUp bounds how long a host that never answered is tried while
// it refuses connections (or its name does not resolve): it is given up
// when its next try would come later than this after its first refusal,
// or after Config.MaxFailures tries, whichever comes first. With the
// crawl's defaults (the 1996 rule's 10 s pace, a back-off from 2 s
// doubling, five failures) it is tried at 0, 10, 20, 30 and 46 s.
const RefusedGiveUp = time.Minute

// MaxAttempts returns how many times a URL is requested at most when its
// requests end with o: once for a final answer, 1+Retries for a failure,
// and at most twice for a cut body.
func (c *Config) MaxAttempts(o Outcome) int {
	switch o {
	case OutcomeAnswer:
		return 1
	case OutcomeCut:
		return 1 + min(1, c.Retries)
	}
	return 1 + c.Retries
}

// FailureDetail says what the last attempt of a URL ended with: its error,
// or its HTTP status.
func FailureDetail(r Result) string {
	if r.Err != nil {
		return r.Err.Error()
	}
	return fmt.Sprintf("HTTP %d", r.Status)
}
