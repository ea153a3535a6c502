package crawler

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// UnfollowedFile, in the output directory, holds the links not followed
// (nofollow) whose URLs are not settled yet: a page still in the frontier
// may link them in a way that may be followed. Each is appended as it is
// found, so a kill -9 loses none; the run that finishes the crawl settles
// them all and removes the file.
const UnfollowedFile = "unfollowed.jsonl"

// maxHeldUnfollowed bounds the links not followed held in memory; past it
// they are settled at once, as at the end of the crawl.
const maxHeldUnfollowed = 50_000

// unfollowed holds the links not followed, by URL, until they are settled:
// a link to the same URL from a page that may be followed can still bring
// it, and a URL that is fetched must not be logged as not fetched. It
// mirrors them in UnfollowedFile. Safe for concurrent use.
type unfollowed struct {
	mu     sync.Mutex
	path   string
	f      *os.File                  // UnfollowedFile open for appending, once a link is held
	broken error                     // why appending failed: not tried again until keep
	held   map[string]scheduler.Skip // the first skip of each URL
}

// load reads dir's UnfollowedFile, if an earlier run left one, into the
// held links (a torn last line is passed over), and keeps its path.
func (u *unfollowed) load(dir string) error {
	u.path = filepath.Join(dir, UnfollowedFile)
	return scanJSONL(u.path, func(s scheduler.Skip) {
		if s.URL != "" && s.Reason == scheduler.ReasonNofollow {
			u.remember(s)
		}
	})
}

// remember adds s to the held links unless its URL is held; u.mu held (or
// u not shared yet).
func (u *unfollowed) remember(s scheduler.Skip) bool {
	if _, ok := u.held[s.URL]; ok {
		return false
	}
	if u.held == nil {
		u.held = map[string]scheduler.Skip{}
	}
	u.held[s.URL] = s
	return true
}

// hold keeps s (the scheduler's nofollow skip of a URL not seen), appends
// it to UnfollowedFile, and reports whether the held links reached
// maxHeldUnfollowed. err is the first failure to append: later links are
// held in memory only, without another try or error, until keep.
func (u *unfollowed) hold(s scheduler.Skip) (full bool, err error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.remember(s) {
		return false, nil
	}
	if u.path != "" && u.broken == nil {
		if err = u.append(s); err != nil {
			u.broken = err
		}
	}
	return len(u.held) >= maxHeldUnfollowed, err
}

// append writes s as one line of UnfollowedFile, in one write; u.mu held.
func (u *unfollowed) append(s scheduler.Skip) error {
	if u.f == nil {
		f, err := openLines(u.path)
		if err != nil {
			return fmt.Errorf("crawler: keep links not followed: %w", err)
		}
		u.f = f
	}
	b, err := json.Marshal(s)
	if err == nil {
		_, err = u.f.Write(append(b, '\n'))
	}
	if err != nil {
		return fmt.Errorf("crawler: keep links not followed: %w", err)
	}
	return nil
}

// take returns the held links and forgets them; keep writes the file
// again once they are settled.
func (u *unfollowed) take() map[string]scheduler.Skip {
	u.mu.Lock()
	defer u.mu.Unlock()
	h := u.held
	u.held = nil
	return h
}

// keep holds rest again, with the links held since take, and rewrites
// UnfollowedFile to hold just those (through a temporary file, so a crash
// leaves the old file or the new one), or removes it if there are none.
func (u *unfollowed) keep(rest map[string]scheduler.Skip) error {
	u.mu.Lock()
	defer u.mu.Unlock()
	for _, s := range rest {
		u.remember(s)
	}
	u.broken = nil
	if u.f != nil {
		u.f.Close()
		u.f = nil
	}
	if u.path == "" {
		return nil
	}
	if len(u.held) == 0 {
		if err := os.Remove(u.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("crawler: settle links not followed: %w", err)
		}
		return nil
	}
	tmp := u.path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return fmt.Errorf("crawler: keep links not followed: %w", err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, s := range u.held {
		if err = enc.Encode(s); err != nil {
			break
		}
	}
	if err = errors.Join(err, w.Flush(), f.Close()); err != nil {
		return fmt.Errorf("crawler: keep links not followed: %w", err)
	}
	return os.Rename(tmp, u.path)
}

// close closes UnfollowedFile.
func (u *unfollowed) close() {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.f != nil {
		u.f.Close()
		u.f = nil
	}
}

// holdUnfollowed holds a link not followed; past maxHeldUnfollowed it
// settles the held links at once, as the end of the crawl would.
func (c *crawl) holdUnfollowed(s scheduler.Skip) {
	full, err := c.unfollowed.hold(s)
	if err != nil {
		c.fail(WroteLog, err) // the link stays held: the end of the run logs it
	}
	if full {
		c.settleUnfollowed(true)
	}
}

// settleUnfollowed logs each held link whose URL the frontier has not seen
// (queued or fetched) and no run of the crawl logged for any reason: a
// link not followed that nothing else brought. Final, when the crawl is
// finished, the lines are final and the file is removed; otherwise
// (interrupted, or hosts deferred) they carry "queued": true, as a
// deferred host's URLs do (the next run fetches the URL or logs it
// again), and the links stay held in UnfollowedFile. Lines come in the
// order the links were found, stamped when logged. If the frontier cannot
// tell, the link is logged: it was not followed.
func (c *crawl) settleUnfollowed(final bool) {
	held := c.unfollowed.take()
	keys := slices.SortedFunc(maps.Keys(held), func(a, b string) int {
		if c := held[a].Time.Compare(held[b].Time); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	rest := map[string]scheduler.Skip{}
	var failed error
	for _, key := range keys {
		s := held[key]
		seen := false
		if failed == nil {
			if seen, failed = c.sched.Seen(key); failed != nil {
				c.log.Error("frontier read failed; the links not followed are logged without asking it", "err", failed)
			}
		}
		if seen || !c.firstLog(key) {
			continue // brought by another link, or logged for another reason
		}
		s.Time = time.Now()
		if !final {
			rest[key] = s
			s.Queued = true
			s.Detail += "; the crawl is unfinished, and a page still queued may yet link it in a way that may be followed: the next run checks it again"
		}
		c.recordSkip(s)
	}
	if err := c.unfollowed.keep(rest); err != nil {
		c.fail(WroteLog, err) // they stay logged as queued
	}
}
