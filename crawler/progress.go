package crawler

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// progressEvery is how often the progress line and host states refresh,
// unless reading every host's state takes longer than a twentieth of it:
// then the refresh waits twenty times that read (a crawl of 100,000 hosts
// took a quarter of a second per read, under the scheduler's lock, twice
// every half second).
const progressEvery = 500 * time.Millisecond

// nextRefresh is the wait before the next refresh after a read of every
// host's state that took took.
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
		before := c.sched.Stats().Fetched
		for {
			select {
			case <-ctx.Done():
				// A last look: a host that changed state as the run
				// ended (deferred while others finished) is recorded too.
				c.watchHosts(c.sched.Hosts())
				if c.opts.Progress != nil {
					fmt.Fprint(c.opts.Progress, "\r\033[K")
				}
				return
			case <-t.C:
			}
			read := time.Now()
			hosts := c.sched.Hosts()
			took := time.Since(read)
			c.watchHosts(hosts)
			if c.opts.Progress != nil {
				fmt.Fprint(c.opts.Progress, "\r\033[K"+progressLine(c.sched.Stats(), before, hosts, time.Since(start)))
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
// output directory (before of them by earlier runs), hosts by state, the
// errors of this run (named so after a resume) and the rate of this run
// (its pages over its elapsed time). A host waiting
// only for its pace interval is counted as waiting, not active.
func progressLine(s scheduler.Stats, before int, hosts []scheduler.HostStatus, elapsed time.Duration) string {
	var active, waiting, parked, backing, deferred int
	for _, h := range hosts {
		switch h.State {
		case scheduler.StateActive:
			active++
		case scheduler.StateWaiting:
			waiting++
		case scheduler.StateParked:
			parked++
		case scheduler.StateBackingOff:
			backing++
		case scheduler.StateDeferred:
			deferred++
		}
	}
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
		pages, s.Queued, active, waiting, parked, backing, deferred, errs, rate)
}
