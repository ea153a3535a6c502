// Package scheduler decides when each URL of a crawl is fetched: one queue
// per host (authority), a heap of hosts ordered by the earliest instant each
// may be fetched, Visit-time parking, back-off with Retry-After, and a
// durable frontier so that a killed crawl resumes without losing URLs or
// bursting.
//
// # Specs followed
//
//   - An Extended Standard for Robot Exclusion (Sean Conner, 1996),
//     section Directives: Request-rate (optionally windowed, in UTC),
//     Visit-time, and its rule of thumb when no Request-rate is given:
//     "twice the amount of time it took to retrieve the document [or] 10
//     seconds, whichever is slower" (Config.FetchTimeFactor,
//     Config.DefaultDelay).
//   - Crawl-delay (de-facto): seconds between request starts.
//   - RFC 9110 10.2.3 Retry-After: delay-seconds or HTTP-date.
//   - RFC 9110 15.6.4 (503 Service Unavailable) and RFC 6585 section 4
//     (429 Too Many Requests): the statuses by which a server says it is
//     overloaded, the only ones that back a host off (see Failures).
//   - RFC 3986 5.2 (reference resolution, remove_dot_segments) and 6.2.2
//     (syntax-based normalisation) for Canonicalize.
//
// # Pacing
//
// Two request starts to one host are never closer than the interval in
// force: the slowest of Config.MinDelay, Crawl-delay, the Request-rate
// active at the start (among all lines active at that instant, the
// slowest), the adaptive delay (FetchTimeFactor x the last response time)
// and the back-off, plus Config.Margin. When robots.txt asks for no pace
// (no Crawl-delay, no Request-rate active) the 1996 default applies as well;
// it is labelled "default 10s (1996 rule of thumb)" only when
// Config.DefaultDelay is RuleOfThumbDelay, else "default 200ms
// (configured)": a demo's shortened default is not the rule of thumb.
// Retry-After and back-off also set a "not before" instant. HostStatus
// names the term that sets the interval (PaceSource; the adaptive term's
// label gives the measured fetch time to 3 significant digits, so that
// one rule keeps one label), and, apart from it, the Retry-After or
// back-off a next start waits for (BackoffReason, and DeferReason when it
// defers the host). For the latest start Wait granted, it gives the
// interval in force for that request (LastInterval, LastPaceSource): the
// pace, or, when a Retry-After or back-off deadline held the start longer
// after the previous one, that gap, named by the Retry-After or back-off.
//
// Request starts are taken in exactly one place, Wait, which the crawler's
// HTTP transport calls before every request. One computation decides each
// start, in whole nanoseconds: the earliest instant inside a Visit-time
// window, not before a back-off, Retry-After or restart floor, and at
// least the interval in force at that instant after the host's last start
// (which Answered moves to the end of the previous answer). Windowed
// Request-rates are followed across their boundaries: the interval is the
// one in force at the candidate start. No golang.org/x/time/rate.Limiter
// stands beside it, because a Limiter cannot keep the interval exactly: it
// counts time in float64 seconds and truncates the delay it computes, so
// one armed at a host's last start and asked before the interval is over
// grants a start 1 ns before lastStart+interval for about a third of
// intervals and instants (one in ten when asked at the last start itself;
// a million random cases each), and asked at or after lastStart+interval
// it only ever answers "now". A token bucket would also carry the tokens
// of a fast Request-rate window into a slow one, where the slow interval
// must apply from the switch on (12:59:48 + 12 s is 13:00, when a 1/10m
// rate begins: the next start is 13:09:48).
//
// # Host order
//
// Next hands out the host first due. A host whose pace lets it start
// again as soon as its request ends (no wait asked, or the interval
// already over) keeps its place for up to 64 leases in a row before it
// goes behind the other hosts due, as a queue keeps its session budget in
// Heritrix: its pages go over one kept-alive connection instead of a new
// connection each, which spares the server a handshake per page. Only the
// order changes; no start comes earlier than its pace allows, and a host
// that must wait gives its place up after every request.
//
// Outside every Visit-time window a host is parked until the next window
// opens. robots.txt is not a page: Visit-time does not hold back a host's
// robots.txt request, only its pace, Retry-After and back-off do. A host that cannot run within Config.MaxWait is deferred: its URLs
// stay in the store, Next ends with ErrDrained, and each deferred host is
// reported once through Config.OnSkip, with a reason naming whose pace
// holds it: visit-time-deferred (its windows), backoff-deferred (a
// back-off or Retry-After), crawl-delay-too-long (the site's Crawl-delay
// or Request-rate), pace-too-long (the crawl's own min-delay, default or
// adaptive pace).
//
// # Durable frontier
//
// The Store keeps the seen set, the per-host queues, each host's pacing
// state and a slot for the crawler's robots cache. A leased URL stays in
// its queue until Finish, so in-flight leases need no writes of their own.
// The scheduler keeps the heap of hosts and a bounded head of each queue in
// RAM (32 entries per host, 65,536 in all); the rest is read back from the
// store by the flusher when a due host's head is empty. All writes go
// through one flusher goroutine that group-commits everything pending in
// one transaction, so Add, Next and Finish do not wait for the disk (Add
// waits only when 8,192 operations are pending: back-pressure keeps memory
// bounded), while Wait waits until the request start is committed before
// the request goes out, whenever the host has a pace to keep. Operations
// are committed in order, so after a crash the store holds a prefix of the
// history: a page's links are committed before its lease is finished.
//
// OpenBolt uses go.etcd.io/bbolt: pure Go (no cgo), one file, ACID
// transactions with a single writer, maintained by the etcd project, and
// already a dependency. It opens with NoSync: a committed transaction is in
// the OS page cache, which survives kill -9 of the crawler; only a power
// loss or kernel crash can lose or (bbolt gives no guarantee without fsync)
// corrupt recent commits. BoltOptions.Sync turns fsync on for crawls that
// must survive power loss, at the cost of one fsync per group commit. The
// seen set stores the first 16 bytes of SHA-256 of each canonical URL; a
// queue entry is keyed by a 4-byte host id and an 8-byte sequence number
// and stores the URL without its origin. Each commit applies its operations
// sorted by bucket and key, which makes large commits much cheaper.
//
// On Open the URLs leased by the previous run are simply still queued (so
// each is fetched at most once more). A request whose end the previous
// process did not see (HostRecord.Unanswered) counts as lasting
// Config.RequestTimeout: its host's next start waits for its start plus the
// timeout plus its interval, held as a back-off deadline named "unanswered
// request". Each host's last request start
// and interval are a floor for its next start until SetRules installs fresh
// rules: until then the persisted interval stands in for the host's rules
// (the 1996 default does not apply on top), so a host that asked for 0.5 s
// is neither hit sooner nor made to wait 10 s after a restart. Its label
// is "previous run's interval" until then; a rule of the host's own that
// asks for as much names the pace instead. A host with nothing queued gets
// no robots lease, so it keeps that label unless the crawler hands it the
// rules it has cached with SetRules. Only an
// interval loaded at Open, from a previous process, counts as "previous
// run's interval", and only one the host's rules asked for
// (HostRecord.RulesPace): a 1996 default is a guess, not the host's pace.
// SetRules re-records the latest start's interval under the new rules, so a
// dry run that only read robots.txt leaves the rules' pace (Crawl-delay: 3
// gives 3 s), not the default its robots.txt request was paced by. The
// Visit-time windows of the host's latest rules, and what set its back-off
// deadline (HostRecord.VisitTimes, BackoffSource), are kept as well: a
// rerun reads a host's robots.txt first, whatever its Visit-time (from the
// crawler's cache if fresh), so a host deferred again before that is held
// by what its robots.txt request waits for (backoff-deferred naming the
// Retry-After), reported robots-unreachable only when robots.txt failed to
// load, and visit-time-deferred once its rules are known.
//
// Resident memory: the scheduler's own live heap is small (about 25 MiB
// with 1,000,000 URLs queued on 1,000 hosts: queue heads, host states and a
// Bloom filter of the seen set). bbolt maps the file, and the pages it
// touched count as file-backed resident memory (reclaimable page cache) up
// to the file size (about 180 MiB for 1,000,000 URLs). While URLs are added
// as fast as possible, each group commit materialises the B+tree pages it
// touches, and the Go heap grows with GC slack (VmRSS peaked near 350 MiB
// in a 1,000,000-URL bulk load at 40,000 adds/s; GOMEMLIMIT bounds the
// anonymous part). Run cmd/frontiermem to measure.
//
// # Failures
//
// A failure is charged where it belongs (Classify names the outcomes).
// Observe, called by the transport for every response, sets the host's
// pace; Finish, called once per lease, decides the URL's fate:
//
//	outcome                          URL                                host
//	2xx, 3xx, 4xx but 429            final                              back-off reset
//	5xx but 503                      retried, Config.Retries times      not slowed, not charged
//	429, 503                         retried, Config.Retries times      back-off; Retry-After in full
//	timeout, reset (no answer)       retried, Config.Retries times      back-off; counts towards a drop
//	refused, no such host            retried, Config.Retries times      back-off; counts towards a drop
//	body cut (deadline, reset)       retried once at most               back-off
//
// A URL retried goes to the tail of its host's queue, behind the host's
// other URLs; the back-off (Config.BackoffBase doubling up to
// Config.BackoffMax) paces its next request like any. A URL whose attempts
// are all used is skipped with fetch-failed, with its attempts and last
// error ("HTTP 500", or the error). A Retry-After beyond Config.MaxWait
// defers the host to a later run (its URLs stay queued, the persisted
// BackoffUntil holds the next run back too), and one beyond
// Config.RetryAfterMax is only flagged in the host's warning, never cut
// short. A failure never lowers the adaptive delay.
//
// A host is given up for the run only when it fails at the connection level
// (no answer, a reset, a refusal) on Config.MaxFailures different URLs in a
// row with no answer between (host-failing), when its robots.txt fails
// Config.MaxFailures times in a row (robots-unreachable), or, for a host
// that never answered and refuses connections or whose name does not
// resolve, when its next try would come more than RefusedGiveUp (one
// minute) after the first refusal. An HTTP status never gives a host up. A
// host given up keeps its URLs queued (new ones too): when the frontier
// drains each is reported once through Config.OnSkip, with Queued set, as a
// deferred host's are, and the next Open forgets the drop and tries the
// host again.
//
// # Deviations
//
//   - Pacing keeps no golang.org/x/time/rate.Limiter: its float64
//     arithmetic can grant a start 1 ns early (see Pacing), and a start
//     must never come before the interval is over.
//   - "Crawl-delay: 0" counts as asking for no pace, so the 1996 default
//     applies (the conservative reading).
//   - Among several Request-rate lines active at once (windowed and not),
//     the slowest applies; the 1996 text only says so for unwindowed lines.
//   - A Visit-time restriction applies to pages, not to robots.txt (the
//     1996 text says when the robot may visit; robots.txt is how it learns
//     so, and a first visit reads it whatever the hour). Wait takes a
//     request as the robots.txt request when the host's rules are not
//     current and no lease but a robots lease is out (page leases are
//     issued only under current rules), so a dry run's robots.txt, asked
//     without a lease, is not parked either. After ExpireRules and after a
//     restart, the old windows hold the pages back until new rules arrive.
//   - Config.MaxCrawlDelay (default 1 minute) only matters for the clamp and
//     skip policies; Request-rate is never clamped.
//   - Canonicalize does not convert internationalised host names to
//     punycode and drops user info.
//   - Scope.MaxURLLength refuses URLs whose canonical form is longer
//     (url-too-long), before any other check: the URLs of a trap that
//     adds a segment at every link grow without end. Seeds are exempt:
//     the operator chose them; so is a Candidate.SeedRedirect, a seed's
//     redirect on its own host.
//   - Scope.MaxPathRepeats refuses URLs whose path holds a run of 1 to 16
//     segments more than that many times in a row (path-repeats): /a/a/a/
//     at 2, the path a relative link "a/" on the page /a/ leads to after
//     two pages. A trap of relative links otherwise runs until
//     MaxURLLength (a thousand pages for a two-octet segment). Seeds and
//     seed redirects are exempt, and the check comes after the seen set
//     and scope, so a queued URL or another host's is not reported as a
//     trap.
//   - A Candidate with Nofollow set (a link on a page that asks robots not
//     to follow its links) is only reported: after the seen set, so a URL
//     already queued or fetched is a duplicate and nothing more, and after
//     scope, so another host's URL is out of scope, as from any page. It is
//     skipped as nofollow and not remembered, so a link to it from a page
//     that may be followed still queues it; Seen tells the caller later
//     whether that happened.
//   - Only queued URLs enter the seen set: a URL skipped as out of scope,
//     not followed, too deep, too long or over a page limit is skipped (and reported) again each
//     time it is offered, since it may later come as a seed or at a lower
//     depth. The crawler may de-duplicate its skip log.
//   - A redirect target is a new Candidate with the redirecting URL's
//     Depth and Redirects+1; chains longer than MaxRedirects (10, as in
//     browsers and net/http) are cut with redirect-limit. Sitemaps carry
//     their nesting level in Depth instead of a link distance, are exempt
//     from Scope.MaxDepth and are cut beyond MaxSitemapNesting (2) with
//     sitemap-nesting: sitemaps.org lets an index list sitemaps only, and
//     one extra level tolerates sites that nest anyway.
//   - Scope.MaxPages and Scope.MaxPagesPerHost count pages and requisites
//     fetched (a response that is not a redirect nor a failure retried):
//     robots.txt, sitemaps, redirects and URLs refused by robots.txt do not
//     count. Sitemaps are skipped with the pages once a limit of their host
//     is reached: they are read only for the pages they list. Add still accepts URLs until a limit is reached; the queued
//     ones beyond it are skipped with max-pages at once (a limit reached
//     is final, and a skip sends no request, so no host's pace is waited
//     out), and a page that could exceed a limit waits for the page leases
//     in flight. A host whose robots.txt is not read yet reads it first
//     while its pages may still be fetched; once a limit is reached its
//     queued pages are skipped without it (no robots.txt request, nor a
//     retry of an unreachable one, for pages that cannot be fetched), so
//     a crawl that reached max_pages ends when its leases do. HostRecord.Pages keeps the count across a restart (stores written
//     before it existed start from 0).
//   - A URL that the host's robots.txt disallows (Rules.Refuse, while
//     Rules.RefuseUntil has not passed) sends no request, so it does not
//     wait for the host's pace: Add skips it with robots-disallowed at
//     once, and a queued one is skipped as soon as it reaches the head of
//     its host's queue (with the rules' rule, line and words), even while
//     the host's leases are in flight. Such a URL enters the seen set, as
//     it did when it was skipped at its lease. Refuse is not persisted:
//     after a restart, and without a Refuse, the caller decides at lease
//     time. Refused URLs come before page limits: a URL both disallowed
//     and over a limit is skipped with robots-disallowed.
//   - Seeds are exempt from Scope.Include (but not Exclude) and define the
//     seed hosts. Scope "seeds" compares the host name and the effective
//     port, as a host is everywhere else (one queue, robots.txt and pace
//     per authority; RFC 9309 2.3), except that the scheme is not compared
//     and a scheme's default port (http 80, https 443) counts as one
//     "default port": for the seed http://example.com/, https://example.com/
//     is in scope (an http-to-https redirect stays in the crawl) but
//     http://example.com:8080/ is not; for http://h:8443/, https://h:8443/
//     is. Scope "hosts" compares host names only (ScopeConfig.Hosts).
//   - The host map is not bounded: a host is remembered for the whole run
//     since its pacing state constrains politeness.
//   - Wait makes the request start durable before returning only when the
//     host has a pace (an interval or a back-off) to keep; without one the
//     record is written behind, since nothing could be violated by losing it.
//   - Store.PutRobots returns an error (a write can fail); GetRobots treats
//     a read error as absent.
//   - Config.Margin defaults to 0 so fake-time schedules are exact; set a
//     few milliseconds against network jitter.
package scheduler
