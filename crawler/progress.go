package crawler

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// progressEvery is how often the progress line and host states refresh,
// unless reading the hosts changed since the last refresh takes longer
// than a twentieth of it: then the refresh waits twenty times that read.
// The read costs in proportion to the hosts changed (scheduler.Progress),
// not to all hosts, so this only slows a crawl changing thousands of
// hosts every half second.
const progressEvery = 500 * time.Millisecond

// nextRefresh is the wait before the next refresh after a read of the
// host states that took took.
func nextRefresh(took time.Duration) time.Duration { return max(progressEvery, 20*took) }

// startProgress runs the live progress line (if opts.Progress is set) and
// the host-state watcher that tells the operator when a host is parked,
// backs off, is deferred or dropped. The returned func stops and joins it.
func (c *crawl) startProgress(ctx context.Context) func() {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTimer(progressEvery)
		defer t.Stop()
		start := time.Now()
		// The frontier counts pages of earlier runs too: the rate is
		// this run's pages over this run's time.
		before, _ := c.sched.Progress()
		for {
			select {
			case <-ctx.Done():
				// A last look at every host: a host that changed state
				// as the run ended (deferred while others finished) is
				// recorded too.
				c.watchHosts(c.sched.Hosts())
				if c.opts.Progress != nil {
					fmt.Fprint(c.opts.Progress, "\r\033[K")
				}
				return
			case <-t.C:
			}
			read := time.Now()
			st, changed := c.sched.Progress()
			took := time.Since(read)
			c.watchHosts(changed)
			if c.opts.Progress != nil {
				fmt.Fprint(c.opts.Progress, "\r\033[K"+progressLine(st, before.Fetched, time.Since(start)))
			}
			t.Reset(nextRefresh(took))
		}
	}()
	return func() { cancel(); wg.Wait() }
}

// watchHosts records each host's state through the event sink, which
// emits an event when it changed to one the operator must hear about
// (parked, backing off, deferred, dropped) and records it once.
func (c *crawl) watchHosts(hosts []scheduler.HostStatus) {
	for _, hs := range hosts {
		c.events.observe(hs, c.opts.Ephemeral)
	}
}

// progressLine is the live line: pages fetched by the whole crawl of the
// output directory (before of them by earlier runs), hosts by state (as
// scheduler.Progress counts them), the errors of this run (named so after
// a resume) and the rate of this run (its pages over its elapsed time). A
// host waiting only for its pace interval is counted as waiting, not
// active.
func progressLine(s scheduler.Stats, before int, elapsed time.Duration) string {
	run := max(s.Fetched-before, 0)
	rate := 0.0
	if elapsed > 0 {
		rate = float64(run) / elapsed.Seconds()
	}
	pages, errs := fmt.Sprintf("pages %d", s.Fetched), fmt.Sprintf("errors %d", s.Errors)
	if before > 0 {
		// The scheduler counts errors since it opened: this run's.
		pages, errs = fmt.Sprintf("pages %d (%d this run)", s.Fetched, run), fmt.Sprintf("errors %d this run", s.Errors)
	}
	return fmt.Sprintf("%s | queued %d | hosts %d active, %d waiting, %d parked, %d backing off, %d deferred | %s | %.1f pages/s",
		pages, s.Queued, s.HostsActive, s.HostsWaiting, s.HostsParked, s.HostsBackingOff, s.HostsDeferred, errs, rate)
}
