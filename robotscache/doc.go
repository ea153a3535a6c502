// Package robotscache is the crawler's robots.txt layer: it fetches each
// authority's robots.txt once through the wire.Transport (paced like
// every request), keeps it, and answers from it. The files hold one
// concept each:
//
//   - fetch.go, redirect.go, outcome.go: the fetch (Cache.Refresh,
//     single-flight per authority; Cache.Fetch), its redirects across
//     hosts, and the status rules that map its answer to a policy.
//   - cache.go, bounds.go: the in-memory cache (Cache.Cached, Cache.Peek)
//     with its time to live and its two bounds, robots.cache_size files
//     (never a host with queued URLs) and robots.cache_bytes bytes (busy
//     hosts too, parsed again from the crawl state when next needed).
//   - record.go, state.go: the persisted Record of each authority, kept
//     in the frontier store, and the State parsed from it; stored.go: its
//     stored form, the body's octets as they are after the record's JSON
//     (the plain JSON of earlier versions, body in base64, still reads).
//   - gate.go: Cache.Permit, the wire.Gate: no request to a host before
//     its robots.txt is known, none for a URL it disallows.
//   - rules.go: State.Rules, the bridge to the scheduler: the group's
//     pace and its verdict on URLs.
//
// Parsing and matching are package robots's; this package knows HTTP.
//
// # Specifications followed
//
//   - RFC 9309 section 2.3.1: a 2xx is parsed (2.3.1.1); redirects are
//     followed up to MaxRedirects (five) hops, across hosts, each hop
//     paced by its own host, and a 3xx not followed is the answer
//     (2.3.1.2); a 4xx is unavailable: everything allowed (2.3.1.3); a
//     5xx, 429 or network error is unreachable: everything but
//     /robots.txt disallowed, tried again after robots.retry_base, doubled
//     on each failure (2.3.1.4); a host that refuses the connection (or
//     whose name does not resolve) and never gave a copy is tried again
//     after Config.ConnectRetryBase instead, the host's back-off.
//   - RFC 9309 section 2.4: a file is used at most robots.cache_ttl (at
//     most 24 hours), less when Cache-Control max-age (RFC 9111 section
//     5.2.2.1) asks, and a previous copy is used while the host is
//     unreachable.
//   - RFC 9309 section 2.5: robots.max_bytes (at least 500 KiB) are
//     parsed; one octet more is read to tell a whole last line from a cut
//     one, and a cut line is no rule.
//   - RFC 9110 section 12.5.3: robots.txt is asked for with
//     Accept-Encoding: identity; a content coding sent all the same is
//     undone (section 8.4) before parsing.
//   - "A Method for Web Robots Control" (the 1996 draft): 401 and 403
//     disallow everything, with robots.forbidden_disallows.
//
// # Deviations
//
//   - With robots.forbidden_disallows, a 401 or 403 disallows everything,
//     as the 1996 draft recommended; RFC 9309 section 2.3.1.3 alone
//     allows everything.
//   - A Cache-Control max-age under five minutes counts as five minutes:
//     fetching robots.txt before every page would double a host's load.
//   - A body in a content coding the crawler cannot undo, or one that
//     does not decode, is read as unreachable (a server error), not as a
//     file with no rules.
//   - A redirect to a host whose pace refuses it now (parked, deferred,
//     dropped), or to a URL longer than scope.max_url_length, is not
//     followed: the first makes the file unreachable, the second leaves
//     the 3xx as the answer, as a sixth redirect does.
//   - A redirect to exactly another host's /robots.txt is answered by
//     that host's fresh cached copy, with no request, and the file a
//     redirect ends on is kept as that host's own: N hosts redirecting to
//     one ask it once.
//   - Errors say "crawler:", not "robotscache:": the crawl log, the skip
//     log and robots.jsonl record their text, which stays as it was when
//     this code was part of package crawler.
package robotscache
