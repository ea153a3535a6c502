package crawler

import (
	"net/http"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robotscache"
	"github.com/crawlproject/crawl/wire"
)

// newPoliteStack wires the transport and the robots cache that gates it,
// paced by pace (the crawl's frontier): the same pair serves a crawl, a dry run and a live
// robots.txt lookup. The transport hands colly the body parseBody gives.
func newPoliteStack(cfg config.Config, pace wire.Pacer, store robotscache.Store, busy func(string) bool, onFetch func(crawllog.RobotsEntry, *wire.Exchange)) (*wire.Transport, *robotscache.Cache) {
	tr := wire.NewTransport(pace, cfg.UserAgentHeader(), cfg.Fetch.MaxBody, cfg.Fetch.Timeout)
	maxBody := cfg.Fetch.MaxBody
	tr.ParseBody = func(h http.Header, path string, body []byte) []byte { return parseBody(h, path, body, maxBody) }
	return tr, robotscache.New(tr, store, robotsCacheConfig(cfg), busy, onFetch)
}

// robotsCacheConfig maps the crawl config onto the robots cache's.
func robotsCacheConfig(cfg config.Config) robotscache.Config {
	r := cfg.Robots
	return robotscache.Config{
		Agent:              cfg.Agent.Token,
		MaxBytes:           r.MaxBytes,
		CacheTTL:           r.CacheTTL,
		CacheSize:          r.CacheSize,
		CacheBytes:         r.CacheBytes,
		ForbiddenDisallows: r.ForbiddenDisallows,
		RetryBase:          r.RetryBase,
		ConnectRetryBase:   cfg.Politeness.BackoffBase,
		MaxURLLength:       cfg.Scope.MaxURLLength,
		Shared:             cfg.Frontier.URL != "",
	}
}
