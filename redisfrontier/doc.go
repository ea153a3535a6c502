// Package redisfrontier keeps a crawl's frontier and each host's pace in
// Redis (a single server or a Redis Cluster), shared by every crawler
// process that opens it, so that N processes never send a host more than
// one process would.
//
// # Behaviour
//
//   - The pace is decided in Redis, atomically, on Redis's clock: starting
//     a request is one Lua script (EVALSHA; the Redis documentation,
//     "Scripting with Lua") reading TIME, which computes the host's next
//     permitted start (the slowest of the pace terms, back-off,
//     Retry-After, the next Visit-time opening) and either records the
//     start or answers how long to wait, writing nothing. Claiming a URL,
//     observing an answer and finishing a lease are scripts too.
//   - Go computes a host's pace table from its rules
//     (scheduler.NewPaceTable: the UTC day cut at every windowed
//     Request-rate and Visit-time boundary); Lua applies it with the
//     adaptive delay, the back-off and the margin, porting the scheduler's
//     earliest (tested equal at chosen instants).
//   - Leases expire: a lease lives Options.LeaseDuration (by default the
//     request timeout + 5 s, at least 10 s) and is renewed every third of
//     it while its holder lives. A claim takes back the
//     expired leases of its shard: the URL returns to the front of its
//     queue, and a request started and never answered counts as lasting
//     the request timeout (the host's next start waits for start +
//     timeout + pace, the scheduler's "unanswered request" rule). A finish
//     on a lease taken back is refused and applies nothing. Close gives
//     back the leases its process still holds in the same way, at once,
//     so the other processes do not wait for them to expire.
//   - A claim takes the host of its shard first due. Unlike the
//     embedded scheduler, a host with no pace to wait does not keep its
//     turn: its next page may go to any process, whose connection to the
//     host would not be the one kept alive, so the order stays by due
//     time alone.
//   - Every request keeps the host's Visit-time windows once its rules
//     are known: pages, robots.txt fetched again, and robots.txt redirect
//     hops, as the scheduler's Wait does.
//   - robots.txt is leased once per host for the whole crawl; its record
//     is kept in Redis with a TTL (RobotsStore) and its version bumped at
//     each SetRules, so that ExpireRules drops only the copy it saw.
//   - Keys spread across a cluster: hosts are spread over Shards shards by
//     CRC-32 of the authority, every key of a shard shares the hash tag
//     {sN} (the Redis Cluster specification, "Hash tags"), so each script
//     touches one slot. The seen set is 1,024 hashes per shard of 6-octet
//     binary fields (the first 8 octets of SHA-256 of the canonical URL:
//     2 choose the bucket), stored as listpacks while small (the Redis
//     documentation, "Memory optimization").
//   - Connection loss: every call retries with back-off (100 ms doubling
//     to 5 s) and logs "frontier unreachable, retrying" once, then
//     "frontier back"; Wait never returns nil without the start script's
//     answer "ok", so nothing is fetched without a lease and a recorded
//     start.
//   - Only the authority reaches Wait: a Wait binds one lease of the host
//     that this process holds and no other Wait holds (the robots lease
//     first, else the first issued), so under PerHost > 1 concurrent Waits
//     record their starts on distinct leases; Release frees one. A Wait
//     for a host with no free lease here is paced as a hop (WaitHop).
//   - Page limits across processes: the host record counts its pages
//     (scheduler.CountsAsPage), the crawl's counter {g}:pages the crawl's.
//     Once a limit is reached, a claim takes the limited URLs off the
//     host's queue head and they are reported with max-pages, each by the
//     process that claimed it. MaxPagesPerHost is exact with PerHost 1
//     (at most PerHost - 1 over otherwise); MaxPages may be exceeded by
//     the page leases out when it is reached: at most Workers x processes.
//   - At a drain, the queued URLs of the hosts deferred beyond MaxWait and
//     of the hosts given up are reported through OnSkip with Queued true;
//     the report script lets one process claim each host between two of
//     its leases, so the skip logs of several processes list each URL
//     once.
//   - Progress lists the hosts this process changed (queued, leased,
//     finished, observed, gave rules to) whose state moved since its
//     previous call: this process's view. Hosts and Status read every
//     host, in pipelines.
//   - A password in the URL is never printed: Redact.
//
// # Deviations
//
//   - Times in Redis are whole milliseconds: intervals are rounded up and a
//     start is recorded rounded up, so a gap is never shorter than the
//     interval, and may be up to 2 ms longer than the scheduler's.
//   - Scripts build the keys of the one host they work on from KEYS[1],
//     the shard's prefix, rather than declaring each: all are in KEYS[1]'s
//     slot (hash tag), which Redis Cluster serves from the same node.
//   - MaxPages is not exact across processes (see above), and the
//     pages leased while a limit may be reached do not wait for the
//     leases in flight as the scheduler's do.
//   - The reason of a deferred host's skips is read from its shared
//     record: visit-time-deferred, robots-unreachable, backoff-deferred,
//     crawl-delay-too-long (its rules' pace above the crawl's default) or
//     pace-too-long; the robots.txt line is not given.
//   - A deferred host is reported once between two of its leases, not
//     once per run: a process that drains again later does not report it
//     again unless it was leased since.
//   - Rules.Refuse is kept by the process that called SetRules: other
//     processes decide at lease time, as the scheduler does after a
//     restart.
package redisfrontier
