package scheduler

import (
	"time"

	"github.com/crawlproject/crawl/robots"
)

// A Kind says what a URL is fetched for. The zero Kind is KindPage.
type Kind uint8

// The kinds of URL the scheduler hands out.
const (
	KindPage      Kind = iota // an HTML page whose links are followed
	KindRobots                // a host's /robots.txt
	KindSitemap               // a sitemap or sitemap index
	KindRequisite             // an image, stylesheet or script a page needs
)

// String returns the kind's lower-case name ("page", "robots", ...).
func (k Kind) String() string {
	switch k {
	case KindPage:
		return "page"
	case KindRobots:
		return "robots"
	case KindSitemap:
		return "sitemap"
	case KindRequisite:
		return "requisite"
	}
	return "unknown"
}

// A Candidate is a URL offered to the scheduler by a seed list, a link, a
// redirect or a sitemap. URL may be relative to Parent.
type Candidate struct {
	URL    string // the URL as found; resolved against Parent when relative
	Parent string // the page the URL was found on; empty for seeds
	// Depth is the link distance from the seed (0 for seeds). A redirect
	// target keeps the Depth of the URL that redirected. For KindSitemap it
	// is the sitemap's nesting level instead: 0 for a sitemap named by
	// robots.txt or the seeds, 1 for one listed in such a sitemap index,
	// and so on (see MaxSitemapNesting); sitemaps are not links, so
	// Scope.MaxDepth does not apply to them.
	Depth int
	Kind  Kind // what the URL is fetched for
	Seed  bool // the URL came from the seed list: it defines the scope
	// SeedRedirect marks the target of a seed's redirect (Parent is the
	// seed). On the seed's own host (its slash form, say) it is still the
	// page the operator named, so Add exempts it like a seed from
	// Scope.MaxURLLength and Scope.MaxPathRepeats, but not from the
	// scope's patterns. Only the first hop carries it (the frontier does
	// not keep it).
	SeedRedirect bool
	// Nofollow, when not empty, says why the link may not be followed:
	// the page it is on, or the link itself, asks robots not to. Add then
	// only reports the URL: a URL already seen is a duplicate, one out of
	// scope is out of scope, any other is skipped with ReasonNofollow
	// (this text is the Skip's Detail) and not remembered, so that a link
	// elsewhere that may be followed still brings it (Seen tells).
	Nofollow string
	// Redirects is the number of redirect hops that led to URL: 0 for a
	// URL found on a page, the redirecting URL's Redirects+1 for a
	// redirect target. Beyond MaxRedirects the URL is skipped with
	// redirect-limit.
	Redirects int
}

// MaxRedirects is the longest redirect chain the scheduler follows: the
// target of the MaxRedirects-th hop is still fetched, the next one is
// skipped with ReasonRedirectLimit. Ten is what browsers and Go's
// net/http client allow.
const MaxRedirects = 10

// MaxSitemapNesting is the deepest sitemap nesting level fetched. The
// sitemaps.org protocol lets a sitemap index list sitemaps, not indexes;
// two levels allow one index of indexes, which some sites publish anyway,
// and stop a chain of indexes each listing the next.
const MaxSitemapNesting = 2

// A Reason is the machine-readable cause of a skip, as written to the skip
// log.
type Reason string

// The reasons a URL is not fetched.
const (
	ReasonRobotsDisallowed  Reason = "robots-disallowed"   // robots.txt disallows the path for our agent
	ReasonRobotsUnreachable Reason = "robots-unreachable"  // robots.txt could not be fetched: MaxFailures times in a row, or refused within RefusedGiveUp
	ReasonVisitTimeDeferred Reason = "visit-time-deferred" // the host's Visit-time window opens after MaxWait
	// ReasonCrawlDelayTooLong: the site asks for a slower pace than the
	// crawl allows: its Crawl-delay is beyond MaxCrawlDelay (policy
	// skip), or its Crawl-delay or Request-rate line (both are the site
	// asking for a slow pace), or the previous run's interval standing in
	// for them until robots.txt is read, holds the host past MaxWait.
	ReasonCrawlDelayTooLong Reason = "crawl-delay-too-long"
	// ReasonPaceTooLong: the crawl's own pace holds the host past
	// MaxWait: Config.MinDelay, Config.DefaultDelay or the adaptive pace
	// (FetchTimeFactor x a slow response). The skip's Rule names which.
	ReasonPaceTooLong     Reason = "pace-too-long"
	ReasonBackoffDeferred Reason = "backoff-deferred" // a back-off or Retry-After ends after MaxWait
	ReasonOutOfScope      Reason = "out-of-scope"     // host or include/exclude pattern rules the URL out
	ReasonMaxDepth        Reason = "max-depth"        // deeper than Scope.MaxDepth
	ReasonDuplicate       Reason = "duplicate"        // the canonical URL was seen before
	ReasonHostFailing     Reason = "host-failing"     // the host failed at the connection level on MaxFailures URLs in a row: given up for the run, its URLs kept queued
	ReasonMaxPages        Reason = "max-pages"        // Scope.MaxPages or Scope.MaxPagesPerHost reached
	ReasonInvalidURL      Reason = "invalid-url"      // not an absolute http(s) URL after resolution
	ReasonFetchFailed     Reason = "fetch-failed"     // every attempt failed (1+Config.Retries; a cut body at most 2)
	// ReasonRedirectLimit: the URL is the target of a redirect chain
	// longer than MaxRedirects hops.
	ReasonRedirectLimit Reason = "redirect-limit"
	// ReasonSitemapNesting: a sitemap listed by a sitemap index nested
	// deeper than MaxSitemapNesting levels.
	ReasonSitemapNesting Reason = "sitemap-nesting"
	// ReasonURLTooLong: the canonical URL is longer than
	// ScopeConfig.MaxURLLength octets, as the URLs of a trap that adds a
	// path segment at every link grow to be.
	ReasonURLTooLong Reason = "url-too-long"
	// ReasonPathRepeats: a run of path segments occurs more than
	// ScopeConfig.MaxPathRepeats times in a row (/a/a/a/), as on the
	// pages of a trap whose relative links add the same segments again.
	ReasonPathRepeats Reason = "path-repeats"
	// ReasonMaxLinks: the link is past the crawler's limit of links
	// followed from one page (the scheduler never sees it).
	ReasonMaxLinks Reason = "max-links"
	// ReasonNofollow: the only links to the URL found so far are on a page
	// that asks robots not to follow its links (robots <meta> or
	// X-Robots-Tag nofollow), or are marked rel="nofollow" where the
	// crawler is set to obey that (Candidate.Nofollow).
	ReasonNofollow Reason = "nofollow"
)

// A Skip records why a URL was not fetched: the rule and its robots.txt line
// where one decided it.
type Skip struct {
	URL       string    `json:"url"`
	Parent    string    `json:"parent,omitempty"`
	Authority string    `json:"authority,omitempty"`
	Reason    Reason    `json:"reason"`
	Detail    string    `json:"detail,omitempty"`
	Rule      string    `json:"rule,omitempty"`
	Line      int       `json:"line,omitempty"`
	Time      time.Time `json:"time"`
	// Queued is set for a URL of a deferred host, or of a host given up
	// for the run: it stays queued for a later run, which fetches it or
	// reports it again (not a final skip).
	Queued bool `json:"queued,omitempty"`
	// Attempts and LastError are set for fetch-failed: how many times
	// the URL was requested, and what the last request ended with (its
	// error, or "HTTP 500").
	Attempts  int    `json:"attempts,omitempty"`
	LastError string `json:"last_error,omitempty"`
}

// Rules is the pacing part of a host's robots.txt group, and optionally its
// verdict on URLs (Refuse), filled in by the crawler. The zero Rules asks
// for no pace (the 1996 rule of thumb applies), has no Visit-time
// restriction and refuses nothing.
type Rules struct {
	CrawlDelay     time.Duration        // Crawl-delay; meaningful only if HasCrawlDelay
	HasCrawlDelay  bool                 // the group has a Crawl-delay line
	CrawlDelayLine int                  // 1-based line of the Crawl-delay
	RequestRates   []robots.RequestRate // all Request-rate lines of the group
	VisitTimes     []robots.Window      // all Visit-time windows; none means any time

	// Refuse, if set, says whether the group disallows url (a canonical
	// absolute URL), with the rule, its 1-based line and the words the
	// skip log gives; rule and line are empty when a policy rather than a
	// line decided (a 401/403 under a disallow-all reading). The
	// scheduler calls it with its lock held: it must be a pure function
	// of the parsed group, safe for concurrent use, and must not call
	// back into the scheduler. A URL it refuses is skipped with
	// robots-disallowed without waiting for the host's pace: at once by
	// Add, or as soon as it reaches the head of its host's queue. Nil
	// means the scheduler does not check (the caller checks at lease
	// time). It is not persisted: after a restart it is nil until
	// SetRules is called again.
	Refuse func(url string) (rule string, line int, detail string, refused bool)
	// RefuseUntil is when Refuse's verdicts expire (the robots.txt's
	// cache lifetime): from then on the scheduler no longer refuses, and
	// the caller decides at lease time, with a fresh copy. The zero time
	// means they do not expire.
	RefuseUntil time.Time
}

// A Lease is one URL handed out by Next. It is outstanding (counts as in
// flight for its host) until passed to Finish.
type Lease struct {
	URL       string    // canonical absolute URL to fetch
	Parent    string    // the page it was found on
	Authority string    // "scheme://host:port" of URL
	Depth     int       // link distance from the seed
	Kind      Kind      // what the URL is fetched for
	Seed      bool      // the URL is a seed
	Attempt   int       // 0 on the first try, incremented on each retry
	Redirects int       // redirect hops that led to URL (see Candidate.Redirects)
	Issued    time.Time // when Next handed it out

	seq uint64 // queue sequence number; 0 for robots leases
}

// Result is the outcome of a lease, reported with Finish.
type Result struct {
	Status     int           // HTTP status of the final response; 0 if none
	Duration   time.Duration // time the fetch took
	Err        error         // network error, timeout or body read failure; nil if the whole answer arrived
	RetryAfter string        // raw Retry-After header of the response
	Requeue    bool          // put the URL back unchanged (e.g. robots expired)
	// Retry puts the URL back to be fetched once more, as one more
	// attempt but no failure of the host: an answer that may have been
	// cut by a passing fault (a body the server ended early).
	Retry bool
	Skip  *Skip // the URL was not fetched (e.g. robots-disallowed); no request start was taken
}

// HostStatus describes one host's pace and queue for status displays. It is
// a snapshot; the zero value means the host is unknown.
type HostStatus struct {
	Authority     string        `json:"authority"`
	State         string        `json:"state"` // active|waiting|parked|backing-off|deferred|dropped|done
	Interval      time.Duration `json:"interval"`
	PaceSource    string        `json:"pace_source"` // the term that sets Interval, e.g. "crawl-delay 2s (line 3)"
	Warning       string        `json:"warning,omitempty"`
	NextAllowed   time.Time     `json:"next_allowed,omitzero"` // earliest next request start; zero for a dropped host
	DeferredUntil time.Time     `json:"deferred_until,omitzero"`
	DeferReason   string        `json:"defer_reason,omitempty"`   // what holds a deferred host back: Visit-time, Retry-After/back-off, or PaceSource
	BackoffReason string        `json:"backoff_reason,omitempty"` // while the next start waits for a back-off deadline, what set it, e.g. "retry-after 2h (Retry-After: 7200)"
	// LastInterval is the interval in force for the host's latest
	// request start at or before the snapshot (the request a transport
	// starts right after Wait returns): the pace interval then, or, when a
	// Retry-After, back-off, robots.txt retry or restart floor held that
	// start longer after the previous one, the time from the previous
	// start to that deadline. Zero before this process's first start.
	LastInterval   time.Duration `json:"last_interval,omitempty"`
	LastPaceSource string        `json:"last_pace_source,omitempty"` // what set LastInterval: a PaceSource, or e.g. "retry-after 2s (Retry-After: 2)"
	Queued         int           `json:"queued"`
	InFlight       int           `json:"in_flight"`
	// Leased counts the host's URLs leased and not finished (InFlight
	// without a robots.txt lease): when a run stops, they stay in the
	// frontier with the queued ones.
	Leased     int    `json:"leased"`
	Fetched    int    `json:"fetched"`
	Failures   int    `json:"failures"`
	DropReason string `json:"drop_reason,omitempty"`
	RulesKnown bool   `json:"rules_known"`
}

// The host states reported in HostStatus.State.
const (
	StateActive     = "active"      // ready now or fetching
	StateWaiting    = "waiting"     // waiting for its pace interval
	StateParked     = "parked"      // outside its Visit-time windows, opening within MaxWait
	StateBackingOff = "backing-off" // waiting for a back-off or Retry-After
	StateDeferred   = "deferred"    // cannot run within MaxWait; URLs stay in the store
	StateDropped    = "dropped"     // given up for the run (its URLs stay queued), or dropped for good by crawl_delay_policy skip
	StateDone       = "done"        // nothing queued or in flight
)

// Stats summarises the whole frontier.
type Stats struct {
	Fetched         int `json:"fetched"` // leases finished with a response or final error
	Queued          int `json:"queued"`  // URLs waiting in the frontier
	InFlight        int `json:"in_flight"`
	Leased          int `json:"leased"`  // URLs leased and not finished (InFlight without robots.txt leases)
	Skipped         int `json:"skipped"` // skips reported since Open
	Errors          int `json:"errors"`  // failed attempts (network errors, cut bodies, 429, 5xx) since Open
	Retries         int `json:"retries"`
	Hosts           int `json:"hosts"`
	HostsActive     int `json:"hosts_active"`
	HostsWaiting    int `json:"hosts_waiting"`
	HostsParked     int `json:"hosts_parked"`
	HostsBackingOff int `json:"hosts_backing_off"`
	HostsDeferred   int `json:"hosts_deferred"`
	HostsDropped    int `json:"hosts_dropped"`
	HostsDone       int `json:"hosts_done"`
}
