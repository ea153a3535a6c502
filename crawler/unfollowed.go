package crawler

import (
	"sync"

	"github.com/crawlproject/crawl/scheduler"
)

// maxHeldUnfollowed bounds the links not followed that wait to be logged;
// past it they are logged at once.
const maxHeldUnfollowed = 50_000

// unfollowed holds the links not followed (nofollow) until the run ends, by
// URL: a link to the same URL from a page that may be followed can still
// bring it, and a URL fetched in the run must not also be logged as not
// fetched. Safe for concurrent use.
type unfollowed struct {
	mu   sync.Mutex
	held map[string]scheduler.Skip // the first skip of each URL
}

// hold keeps s (the scheduler's nofollow skip of a URL not seen) and
// reports whether the held links reached maxHeldUnfollowed.
func (u *unfollowed) hold(s scheduler.Skip) (full bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.held == nil {
		u.held = map[string]scheduler.Skip{}
	}
	if _, ok := u.held[s.URL]; !ok {
		u.held[s.URL] = s
	}
	return len(u.held) >= maxHeldUnfollowed
}

// take returns the held skips and forgets them.
func (u *unfollowed) take() map[string]scheduler.Skip {
	u.mu.Lock()
	defer u.mu.Unlock()
	h := u.held
	u.held = nil
	return h
}

// logUnfollowed logs, once per run, each held link whose URL the frontier
// still has not seen (queued or fetched): the links not followed that
// nothing else brought.
// If the frontier cannot tell, the link is logged: it was not followed.
func (c *crawl) logUnfollowed() {
	var failed error
	for key, s := range c.unfollowed.take() {
		seen := false
		if failed == nil {
			if seen, failed = c.sched.Seen(key); failed != nil {
				c.log.Error("frontier read failed; the links not followed are logged without asking it", "err", failed)
			}
		}
		if seen || !c.logged.add(key) {
			continue
		}
		c.recordSkip(s)
	}
}
