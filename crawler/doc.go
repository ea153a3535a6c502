// Package crawler runs a crawl end to end: seeds into the scheduler's
// durable frontier, each lease checked against its host's robots.txt and
// fetched by colly through one polite transport, every response archived
// (package archive), logged (package crawllog) and followed, until the
// frontier is drained or the context ends. Run is the whole crawl; DryRun
// fetches only the seed hosts' robots.txt and says what a crawl would do.
//
// # Pieces
//
//   - The polite transport (package wire, wired with the robots cache in
//     politestack.go) is the one choke point every request passes, pages,
//     robots.txt, sitemaps and redirect hops alike: it waits on the host's
//     pace, refuses what robots.txt does not permit, sets the User-Agent,
//     bounds each request by fetch.timeout and each body by
//     fetch.max_body, records the exchange as it went over the wire, and
//     reports status and timing back to the pace.
//   - The robots layer (package robotscache) fetches, caches
//     (robots.cache_ttl, at most 24 h) and persists each host's
//     robots.txt, and turns its group for the agent into the scheduler's
//     rules: the access rules of its RFC 9309 group, and the Crawl-delay,
//     Request-rate and Visit-time of the 1996 records naming the agent
//     (or "*"), or disallow-all while it cannot be fetched.
//   - colly (collector.go) is configured once: the polite transport, the
//     crawl's context, and no robots.txt handling of its own (the robots
//     layer decides); it parses pages for links and requisites.
//   - Seeds (seeds.go, seedfeed.go): a seed list is read line by line as
//     the crawl runs, at most 65,536 seeds ahead of it, so a list of
//     millions of lines starts at once in bounded memory.
//   - Logs (logs.go, summary.go, progress.go): crawl.jsonl, skips.jsonl,
//     robots.jsonl and runs.jsonl in --out, a live progress line (its cost
//     grows with the hosts changed, not with all hosts), and a summary
//     over every run of that --out.
//
// # Specifications followed
//
//   - RFC 9309 (robots.txt): fetched before any other request to a host,
//     redirects followed up to five hops (2.3.1.2), 4xx as allow-all and
//     5xx or network errors as disallow-all (2.3.1.3, 2.3.1.4), at least
//     500 KiB parsed (2.5), cached at most 24 h (2.4); the agent token is
//     letters, '_' and '-' only (2.2.1).
//   - The 1996 extended standard: Crawl-delay, Request-rate and Visit-time
//     are enforced per host by the scheduler.
//   - RFC 9110 Retry-After: honoured in full on 429 and 503; one beyond
//     politeness.max_wait defers the host to a later run.
//   - WARC 1.1 through package archive: request and response records hold
//     the bytes written to and read from the connection.
//   - Links are read as a browser reads them (linktags.go,
//     pageenc.CleanRef): <a> and <area> href, a <link> href naming a
//     related document (HTML Standard 4.6.7: search, alternate, next...),
//     <frame> and <iframe> src and a <meta http-equiv="refresh"> target
//     (HTML Standard 4.2.5.3) are pages; with fetch.requisites, <img> src and lowsrc, background on
//     <body>, <table>, <td> and <th>, <script>, <embed>, <audio>,
//     <source> and <track> src, <video> src and poster, <object> data,
//     <input type=image> src, style sheet and icon <link>s, every
//     candidate of the srcset of <img> and <source> (HTML Standard, "parse
//     a srcset attribute"), what a <link rel=preload> fetches for an as
//     that names a Fetch Standard destination (and its imagesrcset for
//     as=image) and a rel=modulepreload for a script-like one, and the
//     url()s of style attributes and the url()s and @import of <style>
//     elements (package cssref) are requisites. Tabs and newlines inside
//     a reference are dropped and a "\" before its query is a "/" (WHATWG
//     URL Standard, basic URL parser); a reference that is no URL at all
//     is logged invalid-url.
//   - A style sheet fetched as a requisite (stylesheet.go) is read as a
//     browser reads it: its content codings undone, in the encoding CSS
//     Syntax Level 3 section 3.2 gives it (the referring page's or
//     sheet's, within one run, where it declares none), its url(),
//     @import and image-set() URLs read by package cssref. They are
//     requisites at the sheet's own depth, so scope.max_depth cuts no
//     chain of @import short once the first sheet was taken; the frontier
//     fetches each URL once, which ends an @import loop.
//   - The robots <meta> element (HTML 4.01 appendix B.4.1.2) and the
//     X-Robots-Tag header (pagerobots.go): nofollow or none, for every
//     robot or for the agent token, leaves all of a 2xx page's links
//     unfollowed.
//
// # Deviations and decisions
//
//   - Every candidate of a srcset, and every URL of a CSS image-set(), is
//     fetched (as wget fetches every srcset candidate): a browser loads
//     one, chosen by the screen it draws on, and an archive or mirror
//     viewed on another screen needs another. The query of a URL in CSS is
//     written in the sheet's (inline: the page's) encoding, as a page's
//     links are; CSS Values and Units Level 4 section 4.5 would parse it
//     as UTF-8. The two differ only for a non-ASCII query in a sheet that
//     is not UTF-8.
//   - Page directives other than nofollow and none (noindex, noarchive,
//     nosnippet, unavailable_after) say what a search engine may show:
//     they are recorded in the page's metadata record, not acted on.
//     rel="nofollow" on one link means "not endorsed" in the HTML
//     standard, so it is followed unless politeness.obey_rel_nofollow is
//     on. A nofollow page's requisites are still fetched (they are part
//     of the page), and a redirect is followed whatever its headers say
//     (it is not a link on a page). Sitemaps are read whatever their
//     X-Robots-Tag says: they are lists made for robots.
//   - A link not followed is offered to the scheduler only to be reported:
//     a URL already seen or out of scope is reported as such; any other is
//     held (unfollowed.go, and appended to UnfollowedFile at once) and not
//     remembered, so a link to it from a page that may be followed still
//     brings it. At the end of a run, the held URLs the frontier has not
//     seen and no run logged for any reason are logged as nofollow, in the
//     order found, stamped when logged: for good when the crawl is
//     finished (the frontier empty, or a demo), else with "queued": true,
//     as a deferred host's URLs are, kept for the next run to check again.
//     Past 50,000 held URLs they are settled at once, so a link that comes
//     even later can bring a URL already logged.
//   - The seed list is read as the crawl runs: a link to a host whose seed
//     line is not read yet is held (at most 65,536 URLs) and offered again
//     once the list is read, as scope.hosts "seed" would have taken it;
//     past that bound, or with more seeds than the reader lets ahead, such
//     a link is refused as out of scope. A seed listed twice is logged as
//     a duplicate among the first 1,048,576 distinct seeds; later repeats
//     are only not queued twice. A URL left queued (its host deferred or
//     given up for the run) is logged once per reason, by the first run
//     that leaves it queued; later runs count it in runs.jsonl.
//   - HTTP/1.1 only (package wire): TLS offers only "http/1.1" by ALPN,
//     because WARC stores exchanges as HTTP/1.1 messages and HTTP/2 has
//     no standard form in a record.
//   - Response records keep the head exactly as received, but the body is
//     what net/http delivered: a chunked transfer coding is removed (its
//     Transfer-Encoding lines, and any Content-Length beside them, leave
//     the head; the metadata record says so and keeps the trailer
//     fields), content codings are kept. A response without a body (HEAD,
//     1xx, 204, 304) keeps its head whole. A body cut by fetch.max_body, a
//     disconnect or the timeout is archived as far as it arrived, with
//     WARC-Truncated length, disconnect or time. 1xx interim heads are
//     named in the metadata record, not archived.
//   - A response head with a line net/http's strict parser refuses (a
//     CGI's stray text line, a field name with characters outside RFC 9110
//     token characters, a NUL in a value, a lower-case "http/1.1") is read
//     repaired (package wire), as browsers read it, and archived as
//     received; the metadata record lists each repair (http-head-repair)
//     and the crawl.jsonl line carries a note.
//   - A body the server ended by closing the connection early (an
//     over-stated Content-Length, a chunked body without its last chunk)
//     is an answer, not a failure of the host: archived as far as it came
//     (WARC-Truncated disconnect) and its links read. It is fetched once
//     more (scheduler.Result.Retry), in case a passing fault cut it; the
//     second time alike, the part received is the page. A reset or
//     timeout mid-body is a failure; a robots.txt cut short stays
//     unreachable (RFC 9309 2.3.1.4).
//   - A fetch aborted because the crawl is stopping is neither logged nor
//     held against the host; its URL stays queued for the next run.
//   - The first write that fails, to the archive, a log (crawl.jsonl,
//     skips.jsonl, robots.jsonl, runs.jsonl, unfollowed.jsonl,
//     summary.json) or the frontier, stops the crawl as a cancelled
//     context does (writefail.go), and Run returns it as a *WriteError. A
//     page is archived, then logged, then its lease finished: a page whose
//     records were not written has no log line and stays queued. A log
//     line that failed is cut back off its file, which takes no more. The
//     frontier writes nothing after a failed commit, so it keeps every
//     change up to that one. Pages archived just before the frontier
//     failed, whose end it could not record, are fetched once more, as
//     pages in flight at a kill -9 are. A mirror file that could not be written is logged and the
//     crawl goes on: the WARC holds the page.
//   - Redirect targets keep the depth of the page that linked to them; a
//     chain of more than scheduler.MaxRedirects redirects is cut
//     (redirect-limit). Sitemap indexes nest at most
//     scheduler.MaxSitemapNesting levels; pages listed in a sitemap are at
//     depth 0.
//   - The configuration (package config) is read by the caller: Run and
//     DryRun take a config.Config.
package crawler
