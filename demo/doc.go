// Package demo serves a handful of tiny web sites on 127.0.0.1, each built to
// show one point of crawler etiquette: Crawl-delay, Request-rate with UTC
// windows, Visit-time windows open and closed, wildcard and "$" rules where
// the longer Allow wins, a robots.txt that answers 503, a robots.txt that
// redirects to another host, a 429 with Retry-After, a crawler trap behind a
// Disallow and one of relative links, pages that ask robots not to follow
// their links, and Comment: lines meant for the crawler's operator.
//
// Everything is built into the binary: pages are generated from Go values,
// nothing is read from disk at run time. Each site listens on its own
// ephemeral port so that each is a separate authority ("host") to a crawler.
//
// Specs followed:
//   - RFC 9309, Robots Exclusion Protocol: 2.2.2 longest match with Allow
//     winning ties, 2.2.3 "*" and "$", 2.3.1.2 redirects, 2.3.1.4 5xx
//     means "disallow all".
//   - An Extended Standard for Robot Exclusion (Sean Conner, 1996), section
//     Directives: Request-rate with UTC windows, Visit-time, Comment:.
//   - Crawl-delay as commonly deployed (not part of any standard).
//   - RFC 9110 15.5.21 / RFC 6585 4: 429 Too Many Requests with Retry-After.
//
// Deviations:
//   - The windows in the Request-rate and Visit-time sites are computed from
//     the now passed to Start, so the demo shows the same lessons at any time
//     of day; a real site would write fixed hours.
//   - Request-rate is written "1/2s": the 1996 text gives the unit letters
//     m and h in its examples and seconds as the default; "s" is accepted by
//     common parsers and reads more plainly.
package demo
