package crawler

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// progressEvery is how often the progress line and host states refresh.
const progressEvery = 500 * time.Millisecond

// startProgress runs the live progress line (if opts.Progress is set) and
// the host-state watcher that tells the operator when a host is parked,
// backs off, is deferred or dropped. The returned func stops and joins it.
func (c *crawl) startProgress(ctx context.Context) func() {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		seen := map[string]string{}
		start := time.Now()
		for {
			select {
			case <-ctx.Done():
				if c.opts.Progress != nil {
					fmt.Fprint(c.opts.Progress, "\r\033[K")
				}
				return
			case <-t.C:
			}
			c.watchHosts(seen)
			if c.opts.Progress != nil {
				fmt.Fprint(c.opts.Progress, "\r\033[K"+progressLine(c.sched.Stats(), c.sched.Hosts(), time.Since(start)))
			}
		}
	}()
	return func() { cancel(); wg.Wait() }
}

// watchHosts emits an event for each host whose state changed to one the
// operator must hear about.
func (c *crawl) watchHosts(seen map[string]string) {
	for _, hs := range c.sched.Hosts() {
		prev := seen[hs.Authority]
		if prev == hs.State {
			continue
		}
		seen[hs.Authority] = hs.State
		switch hs.State {
		case scheduler.StateParked, scheduler.StateBackingOff, scheduler.StateDeferred, scheduler.StateDropped:
			until := hs.NextAllowed
			if hs.State == scheduler.StateDeferred {
				until = hs.DeferredUntil
			}
			c.events.emit(Event{Kind: EventHost, Host: hs.Authority, Reason: hs.State, Until: until,
				Pace: hs.Interval, PaceRule: hs.PaceSource, Detail: describeHost(hs)})
		}
	}
}

func progressLine(s scheduler.Stats, hosts []scheduler.HostStatus, elapsed time.Duration) string {
	var active, parked, backing, deferred int
	for _, h := range hosts {
		switch h.State {
		case scheduler.StateActive, scheduler.StateWaiting:
			active++
		case scheduler.StateParked:
			parked++
		case scheduler.StateBackingOff:
			backing++
		case scheduler.StateDeferred:
			deferred++
		}
	}
	rate := 0.0
	if elapsed > 0 {
		rate = float64(s.Fetched) / elapsed.Seconds()
	}
	return fmt.Sprintf("pages %d | queued %d | hosts %d active, %d parked, %d backing off, %d deferred | errors %d | %.1f pages/s",
		s.Fetched, s.Queued, active, parked, backing, deferred, s.Errors, rate)
}
