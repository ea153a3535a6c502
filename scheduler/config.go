package scheduler

import (
	"errors"
	"fmt"
	"regexp"
	"time"
)

// The crawl-delay policies of Config.CrawlDelayPolicy.
const (
	PolicyWait  = "wait"  // obey any Crawl-delay; defer the host when the wait exceeds MaxWait
	PolicyClamp = "clamp" // use MaxCrawlDelay instead of a longer Crawl-delay and warn
	PolicySkip  = "skip"  // skip the host's URLs with crawl-delay-too-long
)

// The scope modes of ScopeConfig.Mode.
const (
	ScopeSeeds = "seeds" // a URL's host name and port must be a seed's, http 80 and https 443 alike (default)
	ScopeAny   = "any"   // any host
	ScopeHosts = "hosts" // a URL's host must be in ScopeConfig.Hosts
)

// ScopeConfig decides which URLs the crawl may fetch. The zero value is the
// default: same host name and port as a seed, no patterns, no limits.
type ScopeConfig struct {
	Mode              string   `mapstructure:"mode"`                // seeds|any|hosts; empty means seeds
	Hosts             []string `mapstructure:"hosts"`               // host names for Mode hosts (port and scheme ignored)
	Include           []string `mapstructure:"include"`             // RE2 patterns on the canonical URL; if any, one must match (seeds exempt)
	Exclude           []string `mapstructure:"exclude"`             // RE2 patterns on the canonical URL; none may match
	MaxDepth          int      `mapstructure:"max_depth"`           // deepest link distance from a seed; 0 = unlimited
	MaxPagesPerHost   int      `mapstructure:"max_pages_per_host"`  // pages fetched per host (see MaxPages); 0 = unlimited
	MaxPages          int      `mapstructure:"max_pages"`           // pages and requisites fetched (a non-redirect response received) in all; 0 = unlimited
	MaxURLLength      int      `mapstructure:"max_url_length"`      // longest canonical URL taken but for seeds, in octets; 0 = unlimited
	MaxPathRepeats    int      `mapstructure:"max_path_repeats"`    // most times a run of path segments may occur in a row but for seeds; 0 = unlimited
	RequisitesAnyHost bool     `mapstructure:"requisites_any_host"` // page requisites may come from any host
}

// RuleOfThumbDelay is the pace the 1996 extended standard's rule of thumb
// asks for when robots.txt asks for none: one request every 10 s (or twice
// the fetch time, whichever is slower; see Config.FetchTimeFactor). It is
// DefaultConfig's DefaultDelay; a pace set by any other DefaultDelay is
// labelled "configured", not "1996 rule of thumb".
const RuleOfThumbDelay = 10 * time.Second

// Config holds the scheduler's settings. Use DefaultConfig and change what
// you need; Validate reports settings that cannot work.
type Config struct {
	DefaultDelay     time.Duration `mapstructure:"default_delay"`      // pace when robots.txt asks for none (1996: RuleOfThumbDelay)
	FetchTimeFactor  float64       `mapstructure:"fetch_time_factor"`  // adaptive pace: factor x last response time (1996: 2); 0 disables
	MinDelay         time.Duration `mapstructure:"min_delay"`          // floor for every host
	Margin           time.Duration `mapstructure:"margin"`             // added to every interval so observed gaps never undercut it
	PerHost          int           `mapstructure:"per_host"`           // leases in flight per host
	MaxWait          time.Duration `mapstructure:"max_wait"`           // longest wait for one host before it is deferred
	MaxCrawlDelay    time.Duration `mapstructure:"max_crawl_delay"`    // longest Crawl-delay accepted by policies clamp and skip
	CrawlDelayPolicy string        `mapstructure:"crawl_delay_policy"` // wait|clamp|skip
	Workers          int           `mapstructure:"workers"`            // fetch workers the crawler runs (not used by the scheduler itself)
	BackoffBase      time.Duration `mapstructure:"backoff_base"`       // first back-off after a 429, 503, timeout, reset or refusal
	BackoffMax       time.Duration `mapstructure:"backoff_max"`        // longest back-off
	RetryAfterMax    time.Duration `mapstructure:"retry_after_max"`    // a longer Retry-After is flagged in the host's warning; every Retry-After is honoured in full (0: never flagged)
	MaxFailures      int           `mapstructure:"max_failures"`       // connection failures on different URLs in a row, with no answer between, before a host is given up for the run
	Retries          int           `mapstructure:"retries"`            // times a URL is requested again after a failed attempt (a cut body: at most once)
	Scope            ScopeConfig   `mapstructure:"scope"`
	// RequestTimeout is the longest a request may last (the crawler's
	// fetch.timeout). A request the previous process sent and saw no end
	// of counts as lasting this long: its host's next start after a
	// restart is no sooner than its start plus RequestTimeout plus the
	// interval, as if it had run to its deadline. 0: counted from its
	// start.
	RequestTimeout time.Duration `mapstructure:"-"`

	// OnSkip, if set, receives every skip the scheduler decides on its own
	// (dropped hosts, exhausted retries, deferred hosts). Skips returned by
	// Add are not repeated here. It is called without locks held, from the
	// goroutines calling Next, Finish, SetRules, RulesFailed or Close,
	// possibly several at once; it may call the Scheduler.
	OnSkip func(Skip) `mapstructure:"-"`
}

// DefaultConfig returns the settings the crawler starts from: the 1996 rule
// of thumb (10 s or twice the fetch time, whichever is slower), one request
// in flight per host, hosts deferred beyond one hour.
func DefaultConfig() Config {
	return Config{
		DefaultDelay:     RuleOfThumbDelay,
		FetchTimeFactor:  2,
		MinDelay:         0,
		Margin:           0,
		PerHost:          1,
		MaxWait:          time.Hour,
		MaxCrawlDelay:    time.Minute,
		CrawlDelayPolicy: PolicyWait,
		Workers:          8,
		BackoffBase:      5 * time.Second,
		BackoffMax:       10 * time.Minute,
		RetryAfterMax:    time.Hour,
		MaxFailures:      5,
		Retries:          2,
		Scope:            ScopeConfig{Mode: ScopeSeeds},
	}
}

// Validate reports the first setting that cannot work, naming its key.
func (c Config) Validate() error {
	var errs []error
	neg := func(name string, d time.Duration) {
		if d < 0 {
			errs = append(errs, fmt.Errorf("scheduler: %s must not be negative, got %s", name, d))
		}
	}
	neg("default_delay", c.DefaultDelay)
	neg("min_delay", c.MinDelay)
	neg("margin", c.Margin)
	neg("max_crawl_delay", c.MaxCrawlDelay)
	neg("backoff_base", c.BackoffBase)
	neg("retry_after_max", c.RetryAfterMax)
	if c.FetchTimeFactor < 0 {
		errs = append(errs, fmt.Errorf("scheduler: fetch_time_factor must not be negative, got %g", c.FetchTimeFactor))
	}
	if c.PerHost < 1 {
		errs = append(errs, fmt.Errorf("scheduler: per_host must be at least 1, got %d", c.PerHost))
	}
	if c.Workers < 1 {
		errs = append(errs, fmt.Errorf("scheduler: workers must be at least 1, got %d", c.Workers))
	}
	if c.MaxWait <= 0 {
		errs = append(errs, fmt.Errorf("scheduler: max_wait must be positive, got %s", c.MaxWait))
	}
	if c.BackoffMax < c.BackoffBase {
		errs = append(errs, fmt.Errorf("scheduler: backoff_max %s is below backoff_base %s", c.BackoffMax, c.BackoffBase))
	}
	if c.MaxFailures < 1 {
		errs = append(errs, fmt.Errorf("scheduler: max_failures must be at least 1, got %d", c.MaxFailures))
	}
	if c.Retries < 0 {
		errs = append(errs, fmt.Errorf("scheduler: retries must not be negative, got %d", c.Retries))
	}
	switch c.CrawlDelayPolicy {
	case PolicyWait, PolicyClamp, PolicySkip:
	default:
		errs = append(errs, fmt.Errorf("scheduler: crawl_delay_policy must be wait, clamp or skip, got %q", c.CrawlDelayPolicy))
	}
	switch c.Scope.Mode {
	case "", ScopeSeeds, ScopeAny:
	case ScopeHosts:
		if len(c.Scope.Hosts) == 0 {
			errs = append(errs, errors.New("scheduler: scope.hosts must list at least one host when scope.mode is hosts"))
		}
	default:
		errs = append(errs, fmt.Errorf("scheduler: scope.mode must be seeds, any or hosts, got %q", c.Scope.Mode))
	}
	if c.Scope.MaxDepth < 0 || c.Scope.MaxPages < 0 || c.Scope.MaxPagesPerHost < 0 {
		errs = append(errs, errors.New("scheduler: scope.max_depth, scope.max_pages and scope.max_pages_per_host must not be negative"))
	}
	for _, p := range append(append([]string(nil), c.Scope.Include...), c.Scope.Exclude...) {
		if _, err := regexp.Compile(p); err != nil {
			errs = append(errs, fmt.Errorf("scheduler: scope pattern %q: %w", p, err))
		}
	}
	return errors.Join(errs...)
}
