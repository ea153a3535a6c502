package robots

import "fmt"

// Availability is how a robots.txt fetch came out, in RFC 9309 2.3.1 terms.
type Availability uint8

// The outcomes of a robots.txt fetch.
const (
	Available   Availability = iota // 2xx: the body is parsed and followed
	Unavailable                     // 4xx (or too many redirects): everything is allowed
	Unreachable                     // 5xx, 429, other codes, network errors: everything is disallowed
	Restricted                      // 401/403 with PolicyOptions.RestrictedDisallows: everything is disallowed
)

// String names the outcome.
func (a Availability) String() string {
	switch a {
	case Available:
		return "available"
	case Unavailable:
		return "unavailable (allow all)"
	case Unreachable:
		return "unreachable (disallow all)"
	case Restricted:
		return "restricted (disallow all)"
	}
	return fmt.Sprintf("availability(%d)", uint8(a))
}

// PolicyOptions tune FromFetch. The zero value follows RFC 9309.
type PolicyOptions struct {
	// RestrictedDisallows makes 401 and 403 answers disallow everything, as
	// the 1996 draft recommended, instead of RFC 9309's allow-all.
	RestrictedDisallows bool
	// ParseLimit is the parsing limit for an available robots.txt (see
	// ParseLimit); 0 is MaxSize.
	ParseLimit int
}

// Classify maps the outcome of a robots.txt fetch to an Availability: a
// network error (err != nil) and 5xx, 429 and any code outside 200..499
// are Unreachable; 2xx is Available; 3xx (redirects still left after the
// fetcher's five hops) and other 4xx are Unavailable; 401 and 403 are
// Restricted if opts.RestrictedDisallows is set.
func Classify(status int, err error, opts PolicyOptions) Availability {
	switch {
	case err != nil:
		return Unreachable
	case status >= 200 && status <= 299:
		return Available
	case status >= 300 && status <= 399:
		return Unavailable
	case status == 429:
		return Unreachable
	case (status == 401 || status == 403) && opts.RestrictedDisallows:
		return Restricted
	case status >= 400 && status <= 499:
		return Unavailable
	}
	return Unreachable
}

// FromFetch turns the outcome of a robots.txt fetch into the Robots to
// follow: the parsed body if Available, AllowAll if Unavailable,
// DisallowAll if Unreachable or Restricted. It is a pure function; like
// Parse, it keeps body, which the caller must not modify afterwards.
func FromFetch(status int, body []byte, err error, opts PolicyOptions) *Robots {
	switch Classify(status, err, opts) {
	case Available:
		return ParseLimit(body, opts.ParseLimit)
	case Unavailable:
		return AllowAll()
	case Restricted:
		return denyAll(ReasonUnauthorized, Restricted)
	}
	return DisallowAll()
}
