package config

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"

	"github.com/crawlproject/crawl/robots"
	"github.com/crawlproject/crawl/scheduler"
)

// Config is the whole effective configuration of a crawl. Every field has a
// key in config.yaml; Default returns the built-in values and Validate
// checks a loaded Config. A Config is a plain value: copy it freely.
type Config struct {
	Seed       string           `mapstructure:"seed"`
	Out        string           `mapstructure:"out"`
	DryRun     bool             `mapstructure:"dry_run"`
	Agent      AgentConfig      `mapstructure:"agent"`
	Politeness PolitenessConfig `mapstructure:"politeness"`
	Fetch      FetchConfig      `mapstructure:"fetch"`
	Frontier   FrontierConfig   `mapstructure:"frontier"`
	Robots     RobotsConfig     `mapstructure:"robots"`
	Seeds      SeedsConfig      `mapstructure:"seeds"`
	Scope      ScopeConfig      `mapstructure:"scope"`
	Archive    ArchiveConfig    `mapstructure:"archive"`
	Log        LogConfig        `mapstructure:"log"`
}

// AgentConfig is the crawler's identity.
type AgentConfig struct {
	// Token is the product token matched against robots.txt User-agent lines.
	Token string `mapstructure:"token"`
	// UserAgent is the User-Agent header; empty derives it from Token.
	UserAgent string `mapstructure:"user_agent"`
}

// PolitenessConfig sets the per-host pace.
type PolitenessConfig struct {
	DefaultDelay     time.Duration `mapstructure:"default_delay"`
	FetchTimeFactor  float64       `mapstructure:"fetch_time_factor"`
	MinDelay         time.Duration `mapstructure:"min_delay"`
	PerHost          int           `mapstructure:"per_host"`
	MaxWait          time.Duration `mapstructure:"max_wait"`
	MaxCrawlDelay    time.Duration `mapstructure:"max_crawl_delay"`
	CrawlDelayPolicy string        `mapstructure:"crawl_delay_policy"`
	BackoffBase      time.Duration `mapstructure:"backoff_base"`
	BackoffMax       time.Duration `mapstructure:"backoff_max"`
	RetryAfterMax    time.Duration `mapstructure:"retry_after_max"`
	MaxFailures      int           `mapstructure:"max_failures"`
	Margin           time.Duration `mapstructure:"margin"`
	ObeyRelNofollow  bool          `mapstructure:"obey_rel_nofollow"`
}

// FetchConfig sets how pages are fetched.
type FetchConfig struct {
	Workers    int           `mapstructure:"workers"`
	Timeout    time.Duration `mapstructure:"timeout"`
	MaxBody    int64         `mapstructure:"max_body"`
	Requisites bool          `mapstructure:"requisites"`
}

// FrontierConfig chooses where the frontier lives.
type FrontierConfig struct {
	// URL is "" for the embedded store inside the output dir.
	URL string `mapstructure:"url"`
}

// RobotsConfig tunes the robots.txt layer.
type RobotsConfig struct {
	MaxBytes           int64         `mapstructure:"max_bytes"`
	CacheTTL           time.Duration `mapstructure:"cache_ttl"`
	CacheSize          int           `mapstructure:"cache_size"`
	CacheBytes         int64         `mapstructure:"cache_bytes"`
	ForbiddenDisallows bool          `mapstructure:"forbidden_disallows"`
	RetryBase          time.Duration `mapstructure:"retry_base"`
}

// SeedsConfig tunes where seeds come from.
type SeedsConfig struct {
	Sitemaps bool `mapstructure:"sitemaps"`
}

// ScopeConfig limits which URLs are crawled.
type ScopeConfig struct {
	Hosts           string   `mapstructure:"hosts"`
	Include         []string `mapstructure:"include"`
	Exclude         []string `mapstructure:"exclude"`
	MaxDepth        int      `mapstructure:"max_depth"`
	MaxPagesPerHost int      `mapstructure:"max_pages_per_host"`
	MaxPages        int      `mapstructure:"max_pages"`
	MaxURLLength    int      `mapstructure:"max_url_length"`
	MaxPathRepeats  int      `mapstructure:"max_path_repeats"`
	MaxLinks        int      `mapstructure:"max_links_per_page"`
}

// ArchiveConfig sets the WARC archive and the mirror.
type ArchiveConfig struct {
	WARC        bool   `mapstructure:"warc"`
	Mirror      bool   `mapstructure:"mirror"`
	MaxFileSize int64  `mapstructure:"max_file_size"`
	Digest      string `mapstructure:"digest"`
	Dedupe      bool   `mapstructure:"dedupe"`
}

// LogConfig sets the diagnostic log and the progress line.
type LogConfig struct {
	Format   string `mapstructure:"format"`
	Level    string `mapstructure:"level"`
	Progress string `mapstructure:"progress"`
}

// MinRobotsCacheBytes is the smallest robots.cache_bytes: below it, a
// crawl of a few hosts with large robots.txt files would parse them again
// at every turn.
const MinRobotsCacheBytes = 1 << 20

// ProjectURL is the contact URL put in the default User-Agent.
const ProjectURL = "https://github.com/crawlproject/crawl"

// Version is the crawler's version, reported in the User-Agent and warcinfo.
const Version = "0.1.0"

// Default returns the built-in configuration. config.yaml at the repository
// root documents every key and equals it.
func Default() Config {
	return Config{
		Out:   "crawl-out",
		Agent: AgentConfig{Token: "crawl"},
		Politeness: PolitenessConfig{
			DefaultDelay:     scheduler.RuleOfThumbDelay,
			FetchTimeFactor:  2,
			PerHost:          1,
			MaxWait:          time.Hour,
			MaxCrawlDelay:    time.Minute,
			CrawlDelayPolicy: "wait",
			BackoffBase:      2 * time.Second,
			BackoffMax:       10 * time.Minute,
			RetryAfterMax:    time.Hour,
			MaxFailures:      5,
			Margin:           time.Millisecond,
		},
		Fetch: FetchConfig{
			Workers: 16,
			Timeout: 30 * time.Second,
			MaxBody: 10 << 20,
		},
		Robots: RobotsConfig{
			MaxBytes:   512 << 10,
			CacheTTL:   24 * time.Hour,
			CacheSize:  10000,
			CacheBytes: 256 << 20,
			RetryBase:  30 * time.Second,
		},
		Scope:   ScopeConfig{Hosts: "seed", Include: []string{}, Exclude: []string{}, MaxURLLength: 2048, MaxPathRepeats: 2, MaxLinks: 10000},
		Archive: ArchiveConfig{WARC: true, MaxFileSize: 1 << 30, Digest: "sha1", Dedupe: true},
		Log:     LogConfig{Format: "text", Level: "info", Progress: "auto"},
	}
}

// UserAgentHeader returns the User-Agent header to send: the configured one,
// or one derived from the token with the version and a contact URL.
func (c Config) UserAgentHeader() string {
	if c.Agent.UserAgent != "" {
		return c.Agent.UserAgent
	}
	return fmt.Sprintf("%s/%s (+%s)", c.Agent.Token, Version, ProjectURL)
}

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

// Validate reports every bad value in c, each as a *FieldError naming its key.
func (c Config) Validate() error {
	var errs []error
	bad := func(key, format string, a ...any) {
		errs = append(errs, &FieldError{Key: key, Reason: fmt.Sprintf(format, a...)})
	}
	clash := func(key string, related []string, format string, a ...any) {
		errs = append(errs, &FieldError{Key: key, Reason: fmt.Sprintf(format, a...), Related: related})
	}
	if c.Out == "" {
		bad("out", "must not be empty")
	}
	if !validToken(c.Agent.Token) {
		bad("agent.token", "%q is not a product token: RFC 9309 section 2.2.1 allows letters, '_' and '-' only (a digit would make robots.txt groups match a shorter name)", c.Agent.Token)
	}
	if ua := c.Agent.UserAgent; ua != "" {
		if !strings.Contains(strings.ToLower(ua), strings.ToLower(c.Agent.Token)) {
			bad("agent.user_agent", "must contain the agent token %q", c.Agent.Token)
		}
		if !strings.Contains(ua, "http://") && !strings.Contains(ua, "https://") && !strings.Contains(ua, "mailto:") {
			bad("agent.user_agent", "must contain a contact URL (http://, https:// or mailto:)")
		}
		if i := controlByte(ua); i >= 0 {
			bad("agent.user_agent", "holds the control character %q at byte %d: it is sent as the User-Agent header, and a header value cannot hold control characters (CR, LF, tab, ...)", ua[i], i)
		}
	}
	p := c.Politeness
	for key, d := range map[string]time.Duration{
		"politeness.default_delay": p.DefaultDelay, "politeness.min_delay": p.MinDelay,
		"politeness.max_wait": p.MaxWait, "politeness.max_crawl_delay": p.MaxCrawlDelay,
		"politeness.backoff_base": p.BackoffBase, "politeness.backoff_max": p.BackoffMax,
		"politeness.retry_after_max": p.RetryAfterMax, "politeness.margin": p.Margin,
	} {
		if d < 0 {
			bad(key, "must not be negative")
		}
	}
	if p.MaxWait == 0 {
		bad("politeness.max_wait", "must be positive (a host whose next request is further off than this is deferred)")
	}
	for _, floor := range []struct {
		key, who string
		d        time.Duration
	}{
		{"politeness.min_delay", "every host", p.MinDelay},
		{"politeness.default_delay", "every host whose robots.txt asks for no pace", p.DefaultDelay},
	} {
		if p.MaxWait > 0 && floor.d+p.Margin > p.MaxWait {
			clash(floor.key, []string{"politeness.max_wait", "politeness.margin"}, "%s (plus politeness.margin %s) is above politeness.max_wait %s: %s would be deferred after its first request, and nothing else fetched from it",
				floor.d, p.Margin, p.MaxWait, floor.who)
		}
	}
	if p.BackoffMax < p.BackoffBase {
		clash("politeness.backoff_max", []string{"politeness.backoff_base"}, "%s is below politeness.backoff_base %s (the ceiling of the back-off cannot be below its first step)", p.BackoffMax, p.BackoffBase)
	}
	if math.IsNaN(p.FetchTimeFactor) || math.IsInf(p.FetchTimeFactor, 0) {
		bad("politeness.fetch_time_factor", "%v is not a finite number", p.FetchTimeFactor)
	} else if p.FetchTimeFactor < 0 {
		bad("politeness.fetch_time_factor", "must not be negative")
	}
	if p.PerHost < 1 {
		bad("politeness.per_host", "must be at least 1")
	}
	switch p.CrawlDelayPolicy {
	case "wait", "clamp", "skip":
	default:
		bad("politeness.crawl_delay_policy", "%q is not one of wait, clamp, skip", p.CrawlDelayPolicy)
	}
	if p.MaxFailures < 1 {
		bad("politeness.max_failures", "must be at least 1")
	}
	if c.Fetch.Workers < 1 {
		bad("fetch.workers", "must be at least 1")
	}
	if c.Fetch.Timeout <= 0 {
		bad("fetch.timeout", "must be positive")
	}
	if c.Fetch.MaxBody <= 0 {
		bad("fetch.max_body", "must be positive")
	}
	if c.Archive.Mirror && !c.Archive.WARC {
		bad("archive.mirror", "needs archive.warc: true (the mirror is written from the archived responses)")
	}
	if u := c.Frontier.URL; u != "" {
		// crawler.Run refuses any other frontier; say so before a crawl starts.
		bad("frontier.url", "%q: only the embedded frontier is available in this version; leave frontier.url empty", u)
	}
	if c.Robots.MaxBytes < robots.MaxSize || c.Robots.MaxBytes > robots.MaxLimit {
		bad("robots.max_bytes", "must be from %d (RFC 9309 asks parsers to read at least 500 KiB) to %d (4 MiB)", robots.MaxSize, robots.MaxLimit)
	}
	if c.Robots.CacheTTL <= 0 || c.Robots.CacheTTL > 24*time.Hour {
		bad("robots.cache_ttl", "must be positive and at most 24h (RFC 9309 2.4)")
	}
	if c.Robots.CacheSize < 1 {
		bad("robots.cache_size", "must be at least 1")
	}
	if c.Robots.CacheBytes < MinRobotsCacheBytes {
		bad("robots.cache_bytes", "must be at least %d (1 MiB)", MinRobotsCacheBytes)
	}
	if c.Robots.RetryBase <= 0 {
		bad("robots.retry_base", "must be positive")
	}
	switch c.Scope.Hosts {
	case "seed", "any":
	default:
		bad("scope.hosts", "%q is not one of seed, any", c.Scope.Hosts)
	}
	for i, re := range c.Scope.Include {
		if _, err := regexp.Compile(re); err != nil {
			bad(fmt.Sprintf("scope.include[%d]", i), "%v", err)
		}
	}
	for i, re := range c.Scope.Exclude {
		if _, err := regexp.Compile(re); err != nil {
			bad(fmt.Sprintf("scope.exclude[%d]", i), "%v", err)
		}
	}
	for key, n := range map[string]int{"scope.max_depth": c.Scope.MaxDepth, "scope.max_pages_per_host": c.Scope.MaxPagesPerHost, "scope.max_pages": c.Scope.MaxPages,
		"scope.max_url_length": c.Scope.MaxURLLength, "scope.max_path_repeats": c.Scope.MaxPathRepeats, "scope.max_links_per_page": c.Scope.MaxLinks} {
		if n < 0 {
			bad(key, "must not be negative (0 means no limit)")
		}
	}
	if c.Archive.MaxFileSize < 1<<20 {
		bad("archive.max_file_size", "must be at least 1048576")
	}
	switch c.Archive.Digest {
	case "sha1", "sha256":
	default:
		bad("archive.digest", "%q is not one of sha1, sha256", c.Archive.Digest)
	}
	switch c.Log.Format {
	case "text", "json":
	default:
		bad("log.format", "%q is not one of text, json", c.Log.Format)
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		bad("log.level", "%q is not one of debug, info, warn, error", c.Log.Level)
	}
	switch c.Log.Progress {
	case "auto", "always", "never":
	default:
		bad("log.progress", "%q is not one of auto, always, never", c.Log.Progress)
	}
	return errors.Join(errs...)
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
