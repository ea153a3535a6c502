package config

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// MinRobotsCacheBytes is the smallest robots.cache_bytes: below it, a
// crawl of a few hosts with large robots.txt files would parse them again
// at every turn.
const MinRobotsCacheBytes = 1 << 20

// A FieldError is a bad value for one config key.
type FieldError struct {
	Key    string
	Reason string
	// Related are the other keys of a clash between keys (min_delay above
	// max_wait): the error is reported from where one of them was set
	// when Key has its default.
	Related []string
}

func (e *FieldError) Error() string { return fmt.Sprintf("%s: %s", e.Key, e.Reason) }

// Validate reports every bad value in c, each as a *FieldError naming its
// key, one section after another.
func (c Config) Validate() error {
	var errs fieldErrors
	errs.out(c.Out)
	errs.agent(c.Agent)
	errs.politenessDurations(c.Politeness)
	errs.politenessLimits(c.Politeness)
	errs.fetch(c.Fetch)
	errs.mirror(c.Archive)
	errs.frontier(c.Frontier)
	errs.robots(c.Robots)
	errs.scope(c.Scope)
	errs.archive(c.Archive)
	errs.log(c.Log)
	return errors.Join(errs...)
}

// fieldErrors collects the *FieldErrors of one Validate.
type fieldErrors []error

// bad records a bad value for key.
func (errs *fieldErrors) bad(key, format string, a ...any) {
	*errs = append(*errs, &FieldError{Key: key, Reason: fmt.Sprintf(format, a...)})
}

// clash records a bad value for key that is bad only beside the values of
// the related keys.
func (errs *fieldErrors) clash(key string, related []string, format string, a ...any) {
	*errs = append(*errs, &FieldError{Key: key, Reason: fmt.Sprintf(format, a...), Related: related})
}

// oneOf records a bad value for key unless val is one of allowed.
func (errs *fieldErrors) oneOf(key, val string, allowed ...string) {
	if !slices.Contains(allowed, val) {
		errs.bad(key, "%s is not one of %s", quoteValue(val), strings.Join(allowed, ", "))
	}
}

func (errs *fieldErrors) out(out string) {
	if out == "" {
		errs.bad("out", "must not be empty")
	}
}

// agent checks the product token and the User-Agent header: the header
// names the token, gives a contact and is one clean header value.
func (errs *fieldErrors) agent(a AgentConfig) {
	if !validToken(a.Token) {
		errs.bad("agent.token", "%q is not a product token: RFC 9309 section 2.2.1 allows letters, '_' and '-' only (a digit would make robots.txt groups match a shorter name)", quoteValue(a.Token))
	}
	ua := a.UserAgent
	if ua == "" {
		return
	}
	if !strings.Contains(strings.ToLower(ua), strings.ToLower(a.Token)) {
		errs.bad("agent.user_agent", "must contain the agent token %s", quoteValue(a.Token))
	}
	if !strings.Contains(ua, "http://") && !strings.Contains(ua, "https://") && !strings.Contains(ua, "mailto:") {
		errs.bad("agent.user_agent", "must contain a contact URL (http://, https:// or mailto:)")
	}
	if i := controlByte(ua); i >= 0 {
		errs.bad("agent.user_agent", "holds the control character %q at byte %d: it is sent as the User-Agent header, and a header value cannot hold control characters (CR, LF, tab, ...)", ua[i], i)
	}
}

// politenessDurations checks the pace's durations, alone and against each
// other, as the scheduler would refuse or replace them.
func (errs *fieldErrors) politenessDurations(p PolitenessConfig) {
	for key, d := range map[string]time.Duration{
		"politeness.default_delay": p.DefaultDelay, "politeness.min_delay": p.MinDelay,
		"politeness.max_wait": p.MaxWait, "politeness.max_crawl_delay": p.MaxCrawlDelay,
		"politeness.backoff_base": p.BackoffBase, "politeness.backoff_max": p.BackoffMax,
		"politeness.retry_after_max": p.RetryAfterMax, "politeness.margin": p.Margin,
	} {
		if d < 0 {
			errs.bad(key, "must not be negative")
		}
	}
	if p.MaxWait == 0 {
		errs.bad("politeness.max_wait", "must be positive (a host whose next request is further off than this is deferred)")
	}
	for _, floor := range []struct {
		key, who string
		d        time.Duration
	}{
		{"politeness.min_delay", "every host", p.MinDelay},
		{"politeness.default_delay", "every host whose robots.txt asks for no pace", p.DefaultDelay},
	} {
		if p.MaxWait > 0 && floor.d+p.Margin > p.MaxWait {
			errs.clash(floor.key, []string{"politeness.max_wait", "politeness.margin"}, "%s (plus politeness.margin %s) is above politeness.max_wait %s: %s would be deferred after its first request, and nothing else fetched from it",
				floor.d, p.Margin, p.MaxWait, floor.who)
		}
	}
	if p.BackoffMax < p.BackoffBase {
		errs.clash("politeness.backoff_max", []string{"politeness.backoff_base"}, "%s is below politeness.backoff_base %s (the ceiling of the back-off cannot be below its first step)", p.BackoffMax, p.BackoffBase)
	}
}

// politenessLimits checks the pace's factor, counts and policy.
func (errs *fieldErrors) politenessLimits(p PolitenessConfig) {
	if math.IsNaN(p.FetchTimeFactor) || math.IsInf(p.FetchTimeFactor, 0) {
		errs.bad("politeness.fetch_time_factor", "%v is not a finite number", p.FetchTimeFactor)
	} else if p.FetchTimeFactor < 0 {
		errs.bad("politeness.fetch_time_factor", "must not be negative")
	}
	if p.PerHost < 1 {
		errs.bad("politeness.per_host", "must be at least 1")
	}
	errs.oneOf("politeness.crawl_delay_policy", p.CrawlDelayPolicy, "wait", "clamp", "skip")
	if p.MaxFailures < 1 {
		errs.bad("politeness.max_failures", "must be at least 1")
	}
}

func (errs *fieldErrors) fetch(f FetchConfig) {
	if f.Workers < 1 {
		errs.bad("fetch.workers", "must be at least 1")
	}
	if f.Timeout <= 0 {
		errs.bad("fetch.timeout", "must be positive")
	}
	if f.MaxBody <= 0 {
		errs.bad("fetch.max_body", "must be positive")
	}
	if f.Retries < 0 || f.Retries > MaxRetries {
		errs.bad("fetch.retries", "must be 0 to %d", MaxRetries)
	}
}

// mirror checks that the mirror and the WACZ have the WARC files they are
// made from.
func (errs *fieldErrors) mirror(a ArchiveConfig) {
	if a.Mirror && !a.WARC {
		errs.bad("archive.mirror", "needs archive.warc: true (the mirror is written from the archived responses)")
	}
	if a.WACZ && !a.WARC {
		errs.bad("archive.wacz", "needs archive.warc: true (the WACZ packages the WARC files)")
	}
}

// frontier checks that frontier.url, when set, is a Redis URL go-redis
// reads (checkFrontierURL); the URL is quoted redacted (RedactURL).
func (errs *fieldErrors) frontier(f FrontierConfig) {
	if u := f.URL; u != "" {
		if err := checkFrontierURL(u); err != nil {
			errs.bad("frontier.url", "%s: %v", quoteValue(RedactURL(u)), err)
		}
	}
}

// robots checks the robots.txt layer's bounds (RFC 9309 sections 2.4 and
// 2.5).
func (errs *fieldErrors) robots(r RobotsConfig) {
	if r.MaxBytes < robots.MaxSize || r.MaxBytes > robots.MaxLimit {
		errs.bad("robots.max_bytes", "must be from %d (RFC 9309 asks parsers to read at least 500 KiB) to %d (4 MiB)", robots.MaxSize, robots.MaxLimit)
	}
	if r.CacheTTL <= 0 || r.CacheTTL > 24*time.Hour {
		errs.bad("robots.cache_ttl", "must be positive and at most 24h (RFC 9309 2.4)")
	}
	if r.CacheSize < 1 {
		errs.bad("robots.cache_size", "must be at least 1")
	}
	if r.CacheBytes < MinRobotsCacheBytes {
		errs.bad("robots.cache_bytes", "must be at least %d (1 MiB)", MinRobotsCacheBytes)
	}
	if r.RetryBase <= 0 {
		errs.bad("robots.retry_base", "must be positive")
	}
}

// scope checks the scope's mode, that every pattern compiles (each named
// by its index) and that no limit is negative.
func (errs *fieldErrors) scope(s ScopeConfig) {
	errs.oneOf("scope.hosts", s.Hosts, "seed", "any")
	for i, re := range s.Include {
		if _, err := regexp.Compile(re); err != nil {
			errs.bad(fmt.Sprintf("scope.include[%d]", i), "%s", echoMessage(err.Error()))
		}
	}
	for i, re := range s.Exclude {
		if _, err := regexp.Compile(re); err != nil {
			errs.bad(fmt.Sprintf("scope.exclude[%d]", i), "%s", echoMessage(err.Error()))
		}
	}
	for key, n := range map[string]int{"scope.max_depth": s.MaxDepth, "scope.max_pages_per_host": s.MaxPagesPerHost, "scope.max_pages": s.MaxPages,
		"scope.max_url_length": s.MaxURLLength, "scope.max_path_repeats": s.MaxPathRepeats, "scope.max_links_per_page": s.MaxLinks} {
		if n < 0 {
			errs.bad(key, "must not be negative (0 means no limit)")
		}
	}
}

// archive checks the WARC files' size and digest.
func (errs *fieldErrors) archive(a ArchiveConfig) {
	if a.MaxFileSize < 1<<20 {
		errs.bad("archive.max_file_size", "must be at least 1048576")
	}
	errs.oneOf("archive.digest", a.Digest, "sha1", "sha256")
}

func (errs *fieldErrors) log(l LogConfig) {
	errs.oneOf("log.format", l.Format, "text", "json")
	errs.oneOf("log.level", l.Level, "debug", "info", "warn", "error")
	errs.oneOf("log.progress", l.Progress, "auto", "always", "never")
}

// controlByte returns the index of the first control byte in s (below
// 0x20, or 0x7f), or -1. Go's HTTP client refuses a header value holding
// any of them but tab, and CR or LF would end the header; a tab is refused
// here too: servers' access logs (the common log format among them) quote
// the User-Agent, and a site owner should read it as it was sent.
func controlByte(s string) int {
	for i := range len(s) {
		if s[i] < 0x20 || s[i] == 0x7f {
			return i
		}
	}
	return -1
}

// validToken reports whether s is a whole RFC 9309 2.2.1 product token,
// as robots.ProductToken reads one when it matches groups: a name it would
// cut short would obey another crawler's group.
func validToken(s string) bool {
	return s != "" && robots.ProductToken(s) == s
}
