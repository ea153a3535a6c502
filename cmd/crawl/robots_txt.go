package main

import (
	"fmt"

	"github.com/crawlproject/crawl/robots"
)

// robotsTxt is a robots.txt as a robots command got it: read from --file,
// or fetched, with how the fetch came out and the Robots that follows
// from it (robots.FromFetch).
type robotsTxt struct {
	source  string // the --file path or the robots.txt URL
	fetched bool   // fetched, not read from --file
	status  int    // the final HTTP status of the fetch; 0 if none
	err     error  // the fetch's network error, if any
	// redirects are the URLs the fetch was redirected to, in order.
	redirects []string
	r         *robots.Robots
}

// outcome says how the robots.txt was had: "read from file", "HTTP 200",
// "HTTP 503: unreachable", "unreachable: dial tcp ...: connection refused".
func (t robotsTxt) outcome() string {
	if n := len(t.redirects); n > 0 {
		final := t
		final.redirects = nil // the outcome of the last answer, which the redirects led to
		return fmt.Sprintf("redirected %d time(s), to %s; ", n, t.redirects[n-1]) + final.outcome()
	}
	switch {
	case !t.fetched:
		return "read from file"
	case t.err != nil && t.status != 0:
		// The server answered, but the body did not come whole (cut
		// short, or slower than fetch.timeout): RFC 9309 2.3.1.4's
		// unreachable reading, with the status a site owner needs.
		return fmt.Sprintf("HTTP %d, but the body was not received whole (%s): unreachable", t.status, t.err.Error())
	case t.err != nil:
		return "unreachable: " + t.err.Error()
	}
	switch t.r.Availability() {
	case robots.Unavailable:
		if t.redirectLimited() {
			return fmt.Sprintf("HTTP %d after the redirects a crawler follows: unavailable", t.status)
		}
		return fmt.Sprintf("HTTP %d: unavailable", t.status)
	case robots.Unreachable:
		return fmt.Sprintf("HTTP %d: unreachable", t.status)
	case robots.Restricted:
		return fmt.Sprintf("HTTP %d: access restricted", t.status)
	}
	return fmt.Sprintf("HTTP %d", t.status)
}

// redirectLimited reports whether an unavailable robots.txt ended on a
// redirect: more redirects than a crawler follows (RFC 9309 2.3.1.2).
func (t robotsTxt) redirectLimited() bool { return t.status >= 300 && t.status <= 399 }

// policy says what applies instead of rules when the robots.txt could not
// be had (effect, "everything is allowed") and why (basis, the RFC 9309
// section); "" and "" when its rules are followed.
func (t robotsTxt) policy() (effect, basis string) {
	const allowed, disallowed = "everything is allowed", "everything but /robots.txt is disallowed"
	switch t.r.Availability() {
	case robots.Unavailable:
		if t.redirectLimited() {
			return allowed, "RFC 9309 2.3.1.2: after more than five redirects a robots.txt may be taken as unavailable; 2.3.1.3: then any resource may be accessed"
		}
		return allowed, "RFC 9309 2.3.1.3: when robots.txt is unavailable, any resource may be accessed"
	case robots.Unreachable:
		return disallowed, "RFC 9309 2.3.1.4: an unreachable robots.txt means complete disallow"
	case robots.Restricted:
		return disallowed, "robots.forbidden_disallows: 401 and 403 disallow all, as the 1996 draft recommended; RFC 9309 2.3.1.3 alone would allow all"
	}
	return "", ""
}

// policyText is the policy with its basis, or "".
func (t robotsTxt) policyText() string {
	if effect, basis := t.policy(); effect != "" {
		return effect + " (" + basis + ")"
	}
	return ""
}

// warning is the warning that the robots.txt could not be had, or "".
func (t robotsTxt) warning() string {
	if p := t.policyText(); p != "" {
		return "robots.txt " + t.outcome() + "; " + p
	}
	return ""
}

// warnings are the warnings "robots explain" lists: that the robots.txt
// could not be had (warning), then the parser's.
func (t robotsTxt) warnings() []string {
	var ws []string
	if w := t.warning(); w != "" {
		ws = append(ws, w)
	}
	for _, warn := range t.r.Warnings() {
		ws = append(ws, warn.String())
	}
	return ws
}

// robotsTxtJSON is the "robots_txt" object of the JSON output.
type robotsTxtJSON struct {
	Source    string  `json:"source"`
	Fetched   bool    `json:"fetched"`
	Status    *int    `json:"status"`  // null if read from file or not answered; set when the body then failed
	Error     *string `json:"error"`   // the network error (before or during the body), or null
	Outcome   string  `json:"outcome"` // available, unavailable, unreachable or restricted
	Policy    string  `json:"policy"`  // rules, allow_all or disallow_all
	Truncated bool    `json:"truncated"`
	// Redirects are the URLs the fetch was redirected to, in order ([]
	// when none or read from a file).
	Redirects []string `json:"redirects"`
}

func (t robotsTxt) json() robotsTxtJSON {
	j := robotsTxtJSON{Source: t.source, Fetched: t.fetched, Truncated: t.r.Truncated(), Policy: "rules", Redirects: append([]string{}, t.redirects...)}
	if t.fetched && (t.err == nil || t.status != 0) {
		j.Status = &t.status // the server's answer, even if its body then failed
	}
	if t.err != nil {
		e := t.err.Error()
		j.Error = &e
	}
	switch a := t.r.Availability(); a {
	case robots.Available:
		j.Outcome = "available"
	case robots.Unavailable:
		j.Outcome, j.Policy = "unavailable", "allow_all"
	case robots.Restricted:
		j.Outcome, j.Policy = "restricted", "disallow_all"
	default:
		j.Outcome, j.Policy = "unreachable", "disallow_all"
	}
	return j
}
