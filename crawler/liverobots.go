package crawler

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

// FetchRobots fetches one robots.txt the way a crawl does: through the
// polite transport with cfg's User-Agent, deadline and body cap, following
// up to five redirects across hosts. It returns the final body, the final
// HTTP status and the network error, if any (for robots.FromFetch). It
// writes nothing to disk.
func FetchRobots(ctx context.Context, cfg Config, robotsURL string) ([]byte, int, error) {
	u, err := url.Parse(robotsURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, 0, fmt.Errorf("crawler: %q is not an http(s) URL", robotsURL)
	}
	canon, err := scheduler.Canonicalize(robotsURL, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("crawler: %w", err)
	}
	store := scheduler.NewMemStore()
	sched, err := scheduler.Open(schedulerConfig(cfg, nil), store)
	if err != nil {
		return nil, 0, err
	}
	defer sched.Close()
	_, layer := newPoliteStack(cfg, sched, store, nil, func(crawllog.RobotsEntry, *exchange) {})
	rec, err := layer.fetch(ctx, scheduler.Authority(canon), nil)
	if err != nil {
		return nil, 0, err
	}
	var netErr error
	if rec.Error != "" {
		netErr = errors.New(rec.Error)
	}
	return rec.Body, rec.Status, netErr
}
