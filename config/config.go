package config

import (
	"fmt"
	"time"

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
	// Retries is how many times a URL is fetched again after a failed
	// attempt (a 5xx, 429, a timeout, a reset, a refused connection):
	// 0 to MaxRetries. A body cut by fetch.timeout is fetched again at
	// most once.
	Retries int `mapstructure:"retries"`
}

// MaxRetries is the most fetch.retries may be.
const MaxRetries = 10

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
	WACZ        bool   `mapstructure:"wacz"`
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
			Retries: 2,
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
