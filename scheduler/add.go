package scheduler

import (
	"fmt"
	"net/url"
	"time"
)

// Add offers a candidate URL. It canonicalises the URL (resolving it against
// Parent), drops duplicates through the durable seen set, and applies scope,
// depth and page limits, and the host's robots.txt when SetRules gave a
// Rules.Refuse still in force. A nil Skip means the URL was queued; otherwise the
// Skip says why not (the caller logs it; OnSkip does not repeat it). Seeds
// also define the scope's seed hosts. The error is non-nil only when the
// store fails or the scheduler is closed.
func (s *Scheduler) Add(c Candidate) (*Skip, error) {
	now := time.Now()
	var base *url.URL
	if c.Parent != "" {
		if b, err := url.Parse(c.Parent); err == nil {
			base = b
		}
	}
	u, err := Canonicalize(c.URL, base)
	if err != nil {
		return s.skipped(&Skip{URL: c.URL, Parent: c.Parent, Reason: ReasonInvalidURL, Detail: err.Error(), Time: now}), nil
	}
	key := u.String()
	auth := Authority(u)
	// The trap limits spare the pages the operator named: the seeds, and
	// their redirects on their own host.
	trapExempt := c.Seed || c.SeedRedirect && base != nil && Authority(base) == auth
	if m := s.cfg.Scope.MaxURLLength; m > 0 && len(key) > m && !trapExempt {
		return s.skipped(&Skip{URL: key, Parent: c.Parent, Authority: auth, Reason: ReasonURLTooLong, Time: now,
			Detail: fmt.Sprintf("URL of %d octets, longer than %d (scope.max_url_length)", len(key), m)}), nil
	}
	// Looked for outside the lock (a hostile path costs up to maxRepeatRun
	// passes), acted on once the URL is known to be new and in scope.
	var repeat pathRepeatFinding
	repeats := false
	if !trapExempt {
		repeat, repeats = pathRepeat(u.EscapedPath(), s.cfg.Scope.MaxPathRepeats)
	}
	skip := func(r Reason, detail string) (*Skip, error) { // s.mu held
		s.stats.Skipped++
		return &Skip{URL: key, Parent: c.Parent, Authority: auth, Reason: r, Detail: detail, Time: now}, nil
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	// Back-pressure: never let unwritten changes pile up in RAM.
	for len(s.pending) >= maxPending && !s.closed && s.err == nil {
		s.cond.Wait()
	}
	if s.closed {
		return nil, ErrClosed
	}
	if s.err != nil {
		return nil, s.err
	}
	seen, err := s.seenLocked(key)
	if err != nil {
		return nil, err
	}
	if seen {
		return skip(ReasonDuplicate, "")
	}
	if c.Seed {
		s.seedHosts[seedKey(u)] = true
	}
	if why := s.scope.check(u, c.Kind, c.Seed, s.seedHosts); why != "" {
		// Not remembered: the same URL may come back as a seed.
		return skip(ReasonOutOfScope, why)
	}
	if c.Nofollow != "" {
		// Not remembered: another page may link the URL and allow
		// following it. After scope: another host's URL is out of scope
		// whichever page links it.
		return skip(ReasonNofollow, c.Nofollow)
	}
	if repeats {
		// Not remembered either: a seed may name the URL.
		return skip(ReasonPathRepeats, repeat.describe(s.cfg.Scope.MaxPathRepeats))
	}
	if c.Redirects > MaxRedirects {
		return skip(ReasonRedirectLimit, fmt.Sprintf("redirect hop %d: more than %d redirects in a row from the URL first linked", c.Redirects, MaxRedirects))
	}
	if c.Kind == KindSitemap {
		if c.Depth > MaxSitemapNesting {
			return skip(ReasonSitemapNesting, fmt.Sprintf("sitemap nested %d levels deep, more than %d (sitemaps.org: an index lists sitemaps, not indexes)", c.Depth, MaxSitemapNesting))
		}
	} else if d := s.cfg.Scope.MaxDepth; d > 0 && c.Depth > d {
		return skip(ReasonMaxDepth, fmt.Sprintf("depth %d > %d", c.Depth, d))
	}
	h := s.host(auth)
	if h.rec.Dropped {
		return skip(ReasonHostFailing, "host dropped: "+h.rec.DropReason)
	}
	if sk, ok := h.refusal(key, now); ok {
		// Disallowed by the host's robots.txt: skipped now rather than
		// when its turn would come. Remembered as seen, as the URL would
		// be had it been queued and skipped at its lease, so that the
		// same link on the next page is a duplicate, not a second skip.
		if c.Seed {
			h.rec.Seed = true
			s.touch(h)
		}
		s.pendingSeen[key] = struct{}{}
		s.push(Op{Code: OpSeen, URL: key})
		s.stats.Skipped++
		sk.Parent = c.Parent
		return &sk, nil
	}
	if limited(c.Kind) {
		if why := s.pageLimitReached(h); why != "" {
			return skip(ReasonMaxPages, why)
		}
	}
	h.rec.Accepted++
	if c.Seed {
		h.rec.Seed = true
	}
	e := Entry{Authority: auth, Seq: h.nextSeq, URL: key, Parent: c.Parent, Depth: c.Depth, Kind: c.Kind, Seed: c.Seed, Redirects: c.Redirects}
	h.nextSeq++
	s.pendingSeen[key] = struct{}{}
	s.push(Op{Code: OpSeen, URL: key}, Op{Code: OpEnqueue, Entry: e})
	s.touch(h)
	s.enqueueLocked(h, e, now)
	return nil, nil
}

// skipped counts a skip returned to the caller.
func (s *Scheduler) skipped(sk *Skip) *Skip {
	s.mu.Lock()
	s.stats.Skipped++
	s.mu.Unlock()
	return sk
}

// Seen reports whether the canonical URL key (a Skip's URL, say) is in the
// seen set: queued, fetched or refused by robots.txt, in this run or an
// earlier one.
func (s *Scheduler) Seen(key string) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false, ErrClosed
	}
	return s.seenLocked(key)
}

// seenLocked consults the unflushed seen entries, then the store.
func (s *Scheduler) seenLocked(key string) (bool, error) {
	if _, ok := s.pendingSeen[key]; ok {
		return true, nil
	}
	if _, ok := s.flushSeen[key]; ok {
		return true, nil
	}
	return s.store.Seen(key)
}

// enqueueLocked puts a stored entry at the tail of h's queue: in the RAM
// head if nothing is spilled and there is room, else in the spill.
func (s *Scheduler) enqueueLocked(h *host, e Entry, now time.Time) {
	if h.spill == 0 && len(h.cache) < perHostCache && (s.cacheTotal < cacheBudget || len(h.cache) == 0) {
		h.cache = append(h.cache, e)
		h.spillFrom = e.Seq
		s.cacheTotal++
	} else {
		h.spill++
	}
	if h.idx < 0 {
		s.fixAt(h, now)
		s.notify()
	}
}
