// Package wiretest holds what the tests of wire, robotscache and crawler
// share about the bytes that go over the wire: a server on 127.0.0.1 that
// answers with exact bytes and keeps the exact bytes it received, a
// self-signed certificate for it, a hostile robots.txt to serve, and
// reading a crawl's WARC records back. It is imported by tests only.
//
// Specs followed:
//   - RFC 9112 (HTTP/1.1): the server reads a request head up to its
//     empty line (section 2.1) and writes answers as given, so tests can
//     send heads the grammar does not allow.
//   - RFC 9309 section 2.5: HostileRobots is as large as the file a
//     crawler must parse.
//   - WARC 1.1 section 6 (the record types a crawl writes) and section
//     5.9 (WARC-Block-Digest, checked on every record read).
package wiretest
