package crawler

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
	"github.com/crawlproject/crawl/wire"
)

// RobotsFetch is how one robots.txt fetch came out.
type RobotsFetch struct {
	Body []byte
	// Status is the final HTTP status; when the body then failed, the
	// status the server answered with (0 if it never answered).
	Status int
	Err    error // the network error, before or during the body; nil if none
	// Redirects are the URLs the fetch was redirected to, in order (RFC
	// 9309 2.3.1.2: at least five are followed).
	Redirects []string
}

// FetchRobots fetches one robots.txt the way a crawl does: through the
// polite transport with cfg's User-Agent, deadline and body cap, following
// up to five redirects across hosts. robots.FromFetch takes its body,
// status and error. It writes nothing to disk.
func FetchRobots(ctx context.Context, cfg config.Config, robotsURL string) (RobotsFetch, error) {
	u, err := url.Parse(robotsURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return RobotsFetch{}, fmt.Errorf("crawler: %q is not an http(s) URL", robotsURL)
	}
	canon, err := scheduler.Canonicalize(robotsURL, nil)
	if err != nil {
		return RobotsFetch{}, fmt.Errorf("crawler: %w", err)
	}
	store := scheduler.NewMemStore()
	sched, err := scheduler.Open(schedulerConfig(cfg, nil), store)
	if err != nil {
		return RobotsFetch{}, err
	}
	defer sched.Close()
	var last crawllog.RobotsEntry // the final request's log line: its status survives a failed body
	_, cache := newPoliteStack(cfg, sched, store, nil, func(e crawllog.RobotsEntry, _ *wire.Exchange) { last = e })
	rec, err := cache.Fetch(ctx, scheduler.Authority(canon))
	if err != nil {
		return RobotsFetch{}, err
	}
	f := RobotsFetch{Body: rec.Body, Status: rec.Status, Redirects: rec.Redirects}
	if rec.Error != "" {
		f.Err = errors.New(rec.Error)
		if last.Status != 0 {
			// The status of the final request, whose body then failed
			// (rec keeps an earlier hop's redirect status).
			f.Status = last.Status
		}
	}
	return f, nil
}
