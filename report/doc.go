// Package report turns the files a crawl writes (summary.json, crawl.jsonl,
// skips.jsonl, robots.jsonl, as package crawllog defines them) into one
// self-contained HTML page, report.html, that shows how polite the crawl
// was: per host, a timeline of every request against the interval the host
// asked for and its Visit-time windows, the status mix, the pace and the
// rule that set it, events, deferred URLs, the site's Comment: lines, and
// its robots.txt with each deciding line linked to the URLs it allowed or
// blocked; plus why URLs were skipped, grouped by reason.
//
// The page is rendered entirely on the server side with html/template, so
// every robots.txt body, URL and message from the crawl (all hostile input)
// is escaped, and the page is complete without any script: inline CSS,
// inline SVG scaled by viewBox, no external fonts, images or fetches. A
// viewport meta and media queries make it readable on a phone.
//
// Specs followed:
//   - The output-file contract between crawler and report: the types of
//     package crawllog, which both the crawler and the report use.
//   - An Extended Standard for Robot Exclusion (Sean Conner, 1996), section
//     Directives: Comment: lines are passed on to the operator; Visit-time
//     windows are UTC and shown as such.
//   - RFC 9309, Robots Exclusion Protocol, section 2.3.1 (access results:
//     success, redirects, unavailable, unreachable) for the meaning of the
//     robots.txt outcomes named in the skip reasons.
//
// Deviations:
//   - "ran" and the Run table's Duration are the sum of the runs' own
//     durations (summary.json runs), with the span of the runs beside it;
//     a run without a recorded end is counted to its last logged request
//     and marked "at least". A summary without runs uses finished minus
//     started.
//   - All host timelines share the crawl's time span (start to finish,
//     widened to every logged request and event) so hosts can be compared;
//     in a long crawl a host active for a few seconds becomes a narrow
//     cluster. Each mark has a tooltip with its exact time.
//   - A gap counts as shorter than the interval in force only when it falls
//     short by more than max(5 ms, 1%), to allow for clock and log rounding.
//     The interval compared is the pace_seconds of the later request, and
//     the band drawn after a request shows that same interval (the last
//     request's band its own), so band and verdict never disagree; a
//     robots.txt request's own pace_seconds (the pace before the file was
//     read) is not drawn forward.
//   - "Pace used" lists one line per kind of pace rule (the rule's label
//     with its durations taken out), with the range of intervals it set:
//     the adaptive pace names the measured fetch time, so its labels differ
//     from request to request. Robots rules from different lines stay
//     apart; a kind whose requests all carry one label shows that label.
//   - Timelines draw at most 3000 requests per host (fewer when more than 20
//     hosts have requests: the hosts share 60,000 marks, each drawing at
//     least 200, as a drawn request takes about 450 bytes of the page) and
//     tables list the first 60 requests; the rest are counted. A robots.txt body of up to 300
//     lines is shown whole; of a longer one, the first 100 lines, then only
//     the lines that decided something with one line either side, and the
//     number of lines left out between them; at most 1500 lines in all,
//     deciding lines first, then their neighbours, then the head; a gap
//     that holds deciding lines says how many (summary.json keeps the first
//     64 KiB of a body). A skip or request links to its robots.txt line
//     when the listing shows it. Each deciding line
//     lists at most 8 URLs per outcome: the requests it allowed oldest
//     first, the skips in log order.
//   - A crawl of more than 100,000 requests or 200 hosts is not held in
//     memory: crawl.jsonl is read twice, one request at a time. The first
//     reading counts every host's requests and short gaps, taking the log
//     in time order through a window of 65,536 requests (a request logged
//     later than that is counted, its gap not checked); the second reads
//     the requests of the 200 hosts that most need a look (short gaps,
//     deferred or dropped, errors, then the most requests), which get a
//     section each, drawn from their first requests. The hosts table then
//     lists the first 1,000 hosts in that order and counts the rest, and
//     the deferred hosts table lists 1,000. With every host in a section,
//     the page is the one a reading of the whole log gives, but for the
//     order of the hosts table. crawl.jsonl keeps every request's detail.
//   - A URL left queued (queued: true, its host deferred) is logged once,
//     by the first run that left it queued; the report reads such a line
//     of an earlier run while its host still has URLs queued and no later
//     request fetched it, and reads it once however many runs of an older
//     crawler logged it again.
//   - Hosts are taken from summary.json first, then from any log line that
//     names another host (for example the target of a robots.txt redirect);
//     such hosts are marked "no summary". A host named only by skips that
//     are out-of-scope or invalid-url (links the crawl declined) gets no
//     section: its out-of-scope links are counted in one table, most
//     linked first, at most 500 rows, the rest counted.
//   - The template and CSS are embedded with go:embed, which requires two
//     package-level variables; they are never written.
package report
