package crawler

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// maxListedSeeds bounds the seeds remembered to tell a seed listed twice
// (logged as a duplicate) from one an earlier run queued: some 40 MB of
// hashes. Past it, a seed listed again is not logged, only not queued
// twice.
const maxListedSeeds = 1 << 20

// maxHeldLinks bounds the links held while seeds are still read
// (heldLinks); past it, such a link is refused as out of scope at once.
const maxHeldLinks = 1 << 16

// maxSeedsAhead is how many seeds the seed list is read ahead of the
// crawl: seeds queued, less leases handled. Reading ten million lines as
// fast as they come would fill the frontier with them, and memory with
// the frontier's pages, while the crawl waits on its writes.
const maxSeedsAhead = 1 << 16

// feedPace counts the seeds queued and the leases handled, for the seed
// reader to keep at most maxSeedsAhead seeds ahead of the crawl. Safe for
// concurrent use; extra is the reader's own.
type feedPace struct {
	queued, handled atomic.Int64
	extra           int64 // seeds let ahead beyond maxSeedsAhead while the crawl stood still
}

// stall is how long the crawl may handle no lease before the seed reader
// goes on regardless: the seeds ahead may all wait on deferred hosts, and
// the crawl cannot end before the list is read.
const stall = 200 * time.Millisecond

// wait waits until fewer than maxSeedsAhead seeds are ahead of the crawl,
// the crawl stands still for stall (then maxSeedsAhead more may go ahead)
// or ctx ends.
func (f *feedPace) wait(ctx context.Context) {
	last, since := f.handled.Load(), time.Now()
	for f.queued.Load()-f.handled.Load() >= maxSeedsAhead+f.extra && ctx.Err() == nil {
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Millisecond):
		}
		if h := f.handled.Load(); h != last {
			last, since = h, time.Now()
		} else if time.Since(since) >= stall {
			f.extra += maxSeedsAhead
			return
		}
	}
}

// feedSeeds reads stream, if set, in a goroutine that offers each seed as
// the crawl runs (at most maxSeedsAhead ahead of it), reports bad lines to
// Options.BadSeed, and holds the
// frontier open (scheduler.Feed) until the stream is read and the links
// held meanwhile are offered again. The returned func stops the reading if
// it is still going, waits for it and returns its read error.
func (c *crawl) feedSeeds(ctx context.Context, stream *SeedReader) (wait func() error) {
	if stream == nil {
		return func() error { return nil }
	}
	ctx, cancel := context.WithCancel(ctx)
	done := c.sched.Feed()
	if c.cfg.Scope.Hosts == "seed" {
		c.held.start()
	}
	var err error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer done()
		err = c.readSeeds(ctx, stream)
		for _, cand := range c.held.release() {
			c.add(cand)
		}
	}()
	return func() error {
		cancel()
		wg.Wait()
		return err
	}
}

// readSeeds offers the seeds of stream until it ends or ctx does.
func (c *crawl) readSeeds(ctx context.Context, stream *SeedReader) error {
	for ctx.Err() == nil {
		seed, bad, err := stream.Next()
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case err != nil:
			return err
		case bad != nil:
			if c.opts.BadSeed != nil {
				c.opts.BadSeed(bad)
			}
		default:
			c.feed.wait(ctx)
			c.addSeed(seed)
		}
	}
	return nil
}

// heldLinks holds the links refused as out of scope while the seed list
// is still read in scope.hosts "seed" mode: the host of a seed not read
// yet is not a seed host yet, and its links would be refused for good.
// Once every seed is read they are offered again. At most maxHeldLinks
// URLs are held. Safe for concurrent use; the zero value holds nothing.
type heldLinks struct {
	mu      sync.Mutex
	holding bool
	links   map[string]scheduler.Candidate // by canonical URL
}

// start makes hold take links.
func (h *heldLinks) start() {
	h.mu.Lock()
	h.holding, h.links = true, map[string]scheduler.Candidate{}
	h.mu.Unlock()
}

// hold keeps cand, refused as out of scope with canonical URL u, and
// reports whether it did.
func (h *heldLinks) hold(cand scheduler.Candidate, u string) bool {
	if cand.Seed {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.holding {
		return false
	}
	if _, ok := h.links[u]; !ok && len(h.links) >= maxHeldLinks {
		return false
	}
	h.links[u] = cand
	return true
}

// release stops holding and returns the links held.
func (h *heldLinks) release() []scheduler.Candidate {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]scheduler.Candidate, 0, len(h.links))
	for _, cand := range h.links {
		out = append(out, cand)
	}
	h.holding, h.links = false, nil
	return out
}
