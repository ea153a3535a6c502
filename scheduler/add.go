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
	o, sk := readOffer(&s.cfg, c, time.Now())
	if sk != nil {
		return s.skipped(sk), nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.awaitRoomLocked(); err != nil {
		return nil, err
	}
	if sk, err := s.screenLocked(&o); sk != nil || err != nil {
		return sk, err
	}
	h := s.host(o.auth)
	if sk := s.hostSkipLocked(h, &o); sk != nil {
		return sk, nil
	}
	s.queueLocked(h, &o)
	return nil, nil
}

// An offer is a candidate as Add reads it before taking the lock: its
// canonical URL, its host, and whether its path repeats like a trap's.
type offer struct {
	c       Candidate
	u       *url.URL
	key     string // canonical URL
	auth    string
	now     time.Time
	repeat  pathRepeatFinding
	repeats bool // the path repeats more than Scope.MaxPathRepeats allows
}

// readOffer canonicalises c's URL at now under cfg, or returns the skip of
// a URL that is invalid or longer than Scope.MaxURLLength. The path-repeat
// check runs here, outside the lock (a hostile path costs up to
// maxRepeatRun passes); it is acted on once the URL is known to be new and
// in scope. The trap limits spare the pages the operator named: the seeds,
// and their redirects on their own host.
func readOffer(cfg *Config, c Candidate, now time.Time) (offer, *Skip) {
	var base *url.URL
	if c.Parent != "" {
		if b, err := url.Parse(c.Parent); err == nil {
			base = b
		}
	}
	u, err := Canonicalize(c.URL, base)
	if err != nil {
		return offer{}, &Skip{URL: ResolveText(c.URL, base), Parent: c.Parent, Reason: ReasonInvalidURL, Detail: err.Error(), Time: now}
	}
	o := offer{c: c, u: u, key: u.String(), auth: Authority(u), now: now}
	trapExempt := c.Seed || c.SeedRedirect && base != nil && Authority(base) == o.auth
	if m := cfg.Scope.MaxURLLength; m > 0 && len(o.key) > m && !trapExempt {
		return offer{}, &Skip{URL: o.key, Parent: c.Parent, Authority: o.auth, Reason: ReasonURLTooLong, Time: now,
			Detail: fmt.Sprintf("URL of %d octets, longer than %d (scope.max_url_length)", len(o.key), m)}
	}
	if !trapExempt {
		o.repeat, o.repeats = pathRepeat(u.EscapedPath(), cfg.Scope.MaxPathRepeats)
	}
	return o, nil
}

// awaitRoomLocked applies back-pressure: it waits while maxPending
// changes are unwritten, so they never pile up in RAM. It returns
// ErrClosed or the store's sticky error instead. s.mu is held.
func (s *Scheduler) awaitRoomLocked() error {
	for len(s.pending) >= maxPending && !s.closed && s.err == nil {
		s.cond.Wait()
	}
	if s.closed {
		return ErrClosed
	}
	return s.err
}

// screenLocked returns the skip of o by the crawl's own rules, in order:
// already seen, out of scope, not to be followed, a repeating path, too
// many redirects, a sitemap nested too deep or a page too deep; nil if
// none applies. A seed's host joins the seed hosts once the seed is known
// to be new. s.mu is held.
func (s *Scheduler) screenLocked(o *offer) (*Skip, error) {
	seen, err := s.seenLocked(o.key)
	if err != nil {
		return nil, err
	}
	if seen {
		return s.skipLocked(o, ReasonDuplicate, ""), nil
	}
	if o.c.Seed {
		s.seedHosts[seedKey(o.u)] = true
	}
	if r, why := crawlRule(&s.cfg, s.scope, o, func(k string) bool { return s.seedHosts[k] }); r != "" {
		// Not remembered: the same URL may come back as a seed, another
		// page may allow following it (see linkRule).
		return s.skipLocked(o, r, why), nil
	}
	return nil, nil
}

// crawlRule returns the rule of the crawl that refuses o, and its detail:
// out of scope (seedHost reports whether a seedKey is a seed's), else
// linkRule's; "" if none.
func crawlRule(cfg *Config, sc *scope, o *offer, seedHost func(string) bool) (Reason, string) {
	if why := sc.check(o.u, o.c.Kind, o.c.Seed, seedHost); why != "" {
		return ReasonOutOfScope, why
	}
	return linkRule(cfg, o)
}

// linkRule returns the rule of the crawl that refuses o for the way it was
// reached, and its detail; "" if none. None of these refusals is
// remembered as seen: another page may link the URL and allow following
// it, a seed may name it, it may come back at a lower depth. Nofollow
// comes after scope, so another host's URL is out of scope whichever page
// links it.
func linkRule(cfg *Config, o *offer) (Reason, string) {
	c := &o.c
	switch {
	case c.Nofollow != "":
		return ReasonNofollow, c.Nofollow
	case o.repeats:
		return ReasonPathRepeats, o.repeat.describe(cfg.Scope.MaxPathRepeats)
	case c.Redirects > MaxRedirects:
		return ReasonRedirectLimit, fmt.Sprintf("redirect hop %d: more than %d redirects in a row from the URL first linked", c.Redirects, MaxRedirects)
	case c.Kind == KindSitemap && c.Depth > MaxSitemapNesting:
		return ReasonSitemapNesting, fmt.Sprintf("sitemap nested %d levels deep, more than %d (sitemaps.org: an index lists sitemaps, not indexes)", c.Depth, MaxSitemapNesting)
	case c.Kind != KindSitemap && cfg.Scope.MaxDepth > 0 && c.Depth > cfg.Scope.MaxDepth:
		return ReasonMaxDepth, fmt.Sprintf("depth %d > %d", c.Depth, cfg.Scope.MaxDepth)
	}
	return "", ""
}

// hostSkipLocked returns the skip of o by its host h: h was dropped for good, its
// robots.txt disallows o (Rules.Refuse in force) or a page limit is
// reached; nil if h takes it. A disallowed URL is skipped now rather than
// when its turn would come, and remembered as seen, as it would be had it
// been queued and skipped at its lease, so that the same link on the next
// page is a duplicate, not a second skip. s.mu is held.
func (s *Scheduler) hostSkipLocked(h *host, o *offer) *Skip {
	if h.rec.Dropped && h.kept.Reason == "" {
		// Dropped for good (crawl_delay_policy skip). A host given up
		// for the run keeps its URLs, new ones too: they are queued.
		return s.skipLocked(o, ReasonHostFailing, "host dropped: "+h.rec.DropReason)
	}
	if sk, ok := h.refusal(o.key, o.now); ok {
		if o.c.Seed {
			h.rec.Seed = true
			s.touch(h)
		}
		s.pendingSeen[o.key] = struct{}{}
		s.push(Op{Code: OpSeen, URL: o.key})
		s.stats.Skipped++
		sk.Parent = o.c.Parent
		return &sk
	}
	if LimitedKind(o.c.Kind) {
		if why := s.pageLimitReached(h); why != "" {
			return s.skipLocked(o, ReasonMaxPages, why)
		}
	}
	return nil
}

// queueLocked queues o on its host h: the URL enters the seen set and the
// host's queue, durably at the next flush. s.mu is held.
func (s *Scheduler) queueLocked(h *host, o *offer) {
	c := &o.c
	h.rec.Accepted++
	if c.Seed {
		h.rec.Seed = true
	}
	e := Entry{Authority: o.auth, Seq: h.nextSeq, URL: o.key, Parent: c.Parent, Depth: c.Depth, Kind: c.Kind, Seed: c.Seed, Redirects: c.Redirects}
	h.nextSeq++
	s.pendingSeen[o.key] = struct{}{}
	s.push(Op{Code: OpSeen, URL: o.key}, Op{Code: OpEnqueue, Entry: e})
	s.touch(h)
	s.enqueueLocked(h, e, o.now)
}

// skipLocked counts and returns the skip of o for reason r. s.mu is held.
func (s *Scheduler) skipLocked(o *offer, r Reason, detail string) *Skip {
	s.stats.Skipped++
	return o.skip(r, detail)
}

// skip returns the skip of o for reason r.
func (o *offer) skip(r Reason, detail string) *Skip {
	return &Skip{URL: o.key, Parent: o.c.Parent, Authority: o.auth, Reason: r, Detail: detail, Time: o.now}
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
