// Package wire sends the crawler's HTTP requests and records them as they
// went over the wire.
//
// Transport is the one choke point every request of a crawl passes:
// pages, robots.txt, sitemaps and redirect hops alike. It consumes the
// per-host pace (Pacer: the scheduler's Wait, Observe and Answered) in one
// place, RoundTrip, so nothing can bypass it; it asks the Gate (the robots
// cache) before every request but robots.txt fetches, sets the User-Agent,
// bounds each request by a deadline and each body by a cap, and reports
// status and timing back to the pace.
//
// Its connections (rawConn, opened by rawDialer) record the bytes written
// and the response heads read (rawRecorder), so an Exchange holds the
// request and the response head exactly as they went over the connection,
// and the body net/http delivered. Exchange.Archived is the exchange as
// the archive writes it, with Exchange.Notes saying where the records
// differ from the bytes on the wire. DecodeContent undoes content codings
// with a bound, for robots.txt, pages, sitemaps, the mirror and the WACZ
// page titles; the archive keeps bodies as received.
//
// # Specifications followed
//
//   - RFC 9112 (HTTP/1.1): a head ends at its first empty line, CRLF or a
//     bare LF (section 2.2); empty lines before the status line are no
//     part of the message (section 2.2); a chunked coding (section 7.1)
//     and its trailer fields (section 7.1.2) are removed by net/http, and
//     Content-Length is ignored beside it (section 6.3).
//   - RFC 9110 (HTTP semantics): 1xx interim responses precede the final
//     one (section 15.2), 101 is final (section 15.2.2); HEAD, 1xx, 204
//     and 304 responses carry no body (section 6.4.1); content codings
//     are undone last applied first (section 8.4: gzip and x-gzip 8.4.1.3,
//     deflate in its zlib form 8.4.1.2); every request but robots.txt's
//     sends Accept-Encoding: gzip, br (section 12.5.3), robots.txt's
//     identity.
//   - RFC 7932 (Brotli): the br content coding, undone like gzip.
//   - RFC 7301 (ALPN): only "http/1.1" is offered over TLS.
//   - WARC 1.1: request and response records (sections 6.3, 6.4) hold the
//     application/http messages as sent and received; a body cut short is
//     marked WARC-Truncated length, time or disconnect (section 5.13).
//
// # Deviations
//
//   - HTTP/1.1 only: HTTP/2 is never offered, because WARC stores
//     exchanges as HTTP/1.1 messages and HTTP/2's binary frames have no
//     standard form in a record.
//   - A response head with a line net/http's strict parser refuses is
//     read repaired (repairHead), as browsers read it, in the ways RFC
//     9112 and RFC 9110 let a recipient (dropping a line with no colon,
//     RFC 9112 section 5; a field name that is not a token, RFC 9110
//     section 5.1; whitespace before the colon, RFC 9112 section 5.1;
//     control octets in a value replaced with SP, RFC 9110 section 5.5;
//     "http/" written "HTTP/", RFC 9112 section 2.3), and archived as
//     received; Exchange.HeadRepairs lists each change.
//   - A GET that net/http would send again at once on a new connection,
//     after a kept-alive one closed without an answer, is refused
//     (ErrNotResent): a second request the pace never allowed.
//   - A 101 Switching Protocols answer and a status code under 100 are
//     failures: the crawler never asks for an upgrade.
//   - A body the server ended by closing the connection early is an
//     answer (Exchange.EndedEarly), not a failure, except for robots.txt,
//     which RFC 9309 section 2.3.1.4 reads as unreachable.
//   - Errors say "crawler:", not "wire:": the crawl log and robots.jsonl
//     record their text, which stays as it was when this code was part of
//     package crawler.
package wire
