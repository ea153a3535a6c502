package crawler

import (
	"fmt"
	"path/filepath"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/mirror"
	"github.com/crawlproject/crawl/scheduler"
)

// schedulerConfig maps the crawl config onto the scheduler's settings.
func schedulerConfig(cfg config.Config, onSkip func(scheduler.Skip)) scheduler.Config {
	p := cfg.Politeness
	sc := scheduler.DefaultConfig()
	sc.DefaultDelay = p.DefaultDelay
	sc.FetchTimeFactor = p.FetchTimeFactor
	sc.MinDelay = p.MinDelay
	sc.Margin = p.Margin
	sc.PerHost = p.PerHost
	sc.MaxWait = p.MaxWait
	sc.MaxCrawlDelay = p.MaxCrawlDelay
	sc.CrawlDelayPolicy = p.CrawlDelayPolicy
	sc.Workers = cfg.Fetch.Workers
	sc.BackoffBase = p.BackoffBase
	sc.BackoffMax = max(p.BackoffMax, p.BackoffBase)
	sc.RetryAfterMax = p.RetryAfterMax
	sc.MaxFailures = p.MaxFailures
	sc.Retries = cfg.Fetch.Retries
	sc.RequestTimeout = cfg.Fetch.Timeout
	mode := scheduler.ScopeSeeds
	if cfg.Scope.Hosts == "any" {
		mode = scheduler.ScopeAny
	}
	sc.Scope = scheduler.ScopeConfig{
		Mode:              mode,
		Include:           cfg.Scope.Include,
		Exclude:           cfg.Scope.Exclude,
		MaxDepth:          cfg.Scope.MaxDepth,
		MaxPagesPerHost:   cfg.Scope.MaxPagesPerHost,
		MaxPages:          cfg.Scope.MaxPages,
		MaxURLLength:      cfg.Scope.MaxURLLength,
		MaxPathRepeats:    cfg.Scope.MaxPathRepeats,
		RequisitesAnyHost: true,
	}
	sc.OnSkip = onSkip
	return sc
}

// robotsPolicy is the warcinfo record's account of what the crawl obeys.
func robotsPolicy(p config.PolitenessConfig) string {
	s := "obey (RFC 9309; Crawl-delay, Request-rate, Visit-time; nofollow in robots meta and X-Robots-Tag"
	if p.ObeyRelNofollow {
		s += "; rel=nofollow"
	}
	return s + ")"
}

// archiveOptions maps the crawl config onto the WARC writer's options; the
// warcinfo record carries the politeness settings and the operator's agent.
// process names this process among those sharing frontier.url ("" with
// the embedded frontier): its WARC files are named for it, and the
// warcinfo record names it and the frontier, its password redacted.
func archiveOptions(cfg config.Config, process string) archive.Options {
	p := cfg.Politeness
	o := archive.Options{
		Dir:         filepath.Join(cfg.Out, ArchiveDir),
		Prefix:      "crawl",
		Process:     process,
		MaxFileSize: cfg.Archive.MaxFileSize,
		Digest:      cfg.Archive.Digest,
		NewMirror:   newMirror(cfg.Archive.Mirror),
		Dedupe:      cfg.Archive.Dedupe,
		Software:    fmt.Sprintf("crawl/%s (+%s)", config.Version, config.ProjectURL),
		Info: []archive.Field{
			{Name: "operator-agent", Value: cfg.Agent.Token},
			{Name: "http-header-user-agent", Value: cfg.UserAgentHeader()},
			{Name: "robots", Value: robotsPolicy(p)},
			{Name: "politeness-default-delay", Value: p.DefaultDelay.String()},
			{Name: "politeness-min-delay", Value: p.MinDelay.String()},
			{Name: "politeness-fetch-time-factor", Value: fmt.Sprint(p.FetchTimeFactor)},
			{Name: "politeness-per-host", Value: fmt.Sprint(p.PerHost)},
			{Name: "politeness-max-wait", Value: p.MaxWait.String()},
			{Name: "politeness-max-crawl-delay", Value: p.MaxCrawlDelay.String() + " (" + p.CrawlDelayPolicy + ")"},
		},
	}
	if cfg.Frontier.URL != "" {
		o.Info = append(o.Info, archive.Field{Name: "frontier", Value: config.RedactURL(cfg.Frontier.URL)},
			archive.Field{Name: "crawl-process", Value: process})
	}
	return o
}

// newMirror is the archive's maker of the browsable mirror when it is on,
// else nil.
func newMirror(on bool) func(root string) archive.Mirror {
	if !on {
		return nil
	}
	return func(root string) archive.Mirror { return mirror.New(root) }
}
