package crawler

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// UnfollowedFile, in the output directory, holds the links not followed
// (nofollow) that a crawl which has not finished (interrupted, or with
// hosts deferred to a later run) still has to check: pages left in its
// frontier may link their URLs. The run that finishes the crawl logs
// those nothing brought, and removes it.
const UnfollowedFile = "unfollowed.jsonl"

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

// logUnfollowed logs each held link whose URL the frontier still has not
// seen (queued or fetched), and that no run of the crawl logged yet: the
// links not followed that nothing else brought. They are logged in the
// order they were found, each stamped with the time it is logged. If the
// frontier cannot tell, the link is logged: it was not followed.
func (c *crawl) logUnfollowed() {
	held := c.unfollowed.take()
	keys := make([]string, 0, len(held))
	for k := range held {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if c := held[a].Time.Compare(held[b].Time); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	var failed error
	for _, key := range keys {
		s := held[key]
		s.Time = time.Now()
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

// endUnfollowed settles the held links at the end of a run: a crawl that
// has finished (nothing left in its frontier, or a demo, which cannot be
// resumed) logs them; one that has not keeps them in UnfollowedFile for
// the run that continues it.
func (c *crawl) endUnfollowed(finished bool) {
	path := filepath.Join(c.cfg.Out, UnfollowedFile)
	if finished {
		c.logUnfollowed()
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			c.log.Error("unfollowed links file not removed", "err", err)
		}
		return
	}
	if err := saveUnfollowed(path, c.unfollowed.take()); err != nil {
		c.log.Error("links not followed not saved for the next run; they are not logged", "err", err)
	}
}

// saveUnfollowed writes held to path (through a temporary file, so a crash
// leaves the old file or the new one).
func saveUnfollowed(path string, held map[string]scheduler.Skip) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("crawler: save unfollowed links: %w", err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, s := range held {
		if err := enc.Encode(s); err != nil {
			f.Close()
			return fmt.Errorf("crawler: save unfollowed links: %w", err)
		}
	}
	if err := errors.Join(w.Flush(), f.Close()); err != nil {
		return fmt.Errorf("crawler: save unfollowed links: %w", err)
	}
	return os.Rename(tmp, path)
}

// loadUnfollowed holds again the links an unfinished run saved in dir.
func (u *unfollowed) load(dir string) error {
	return scanJSONL(filepath.Join(dir, UnfollowedFile), func(s scheduler.Skip) {
		if s.URL != "" && s.Reason == scheduler.ReasonNofollow {
			u.hold(s)
		}
	})
}
