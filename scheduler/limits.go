package scheduler

import (
	"fmt"
	"slices"
	"time"
)

// counted reports whether URLs of kind k count against Scope.MaxPages and
// Scope.MaxPagesPerHost: pages and requisites do, robots.txt and sitemaps
// do not.
func counted(k Kind) bool { return k == KindPage || k == KindRequisite }

// LimitedKind reports whether URLs of kind k are skipped once a page limit of
// their host is reached: the counted kinds, and sitemaps, which are read
// only for the pages they list (an index of 2,000 sitemaps was read whole
// after max_pages_per_host 3 was reached, and each of its 200,000 pages
// logged as a max-pages skip).
func LimitedKind(k Kind) bool { return counted(k) || k == KindSitemap }

// CountsAsPage reports whether a finished lease used up one page of the
// limits: a response arrived and it was not a redirect (whose target is
// counted when it is fetched) nor a failure to be retried.
func CountsAsPage(l *Lease, r Result) bool {
	return counted(l.Kind) && r.Skip == nil && !r.Requeue && !r.Retry && r.Status != 0 &&
		Classify(r.Status, r.Err) == OutcomeAnswer && (r.Status < 300 || r.Status >= 400)
}

// pageLimitReached says which page limit h's next page would exceed, or
// "" if none: the limits count pages fetched, not URLs queued.
func (s *Scheduler) pageLimitReached(h *host) string {
	return PageLimitReached(s.cfg.Scope, s.pages, h.rec.Pages, h.auth)
}

// atPageLimit reports whether h's next page would exceed a page limit:
// whether pageLimitReached names one, without wording it.
func (s *Scheduler) atPageLimit(h *host) bool {
	sc := &s.cfg.Scope
	return sc.MaxPages > 0 && s.pages >= sc.MaxPages ||
		sc.MaxPagesPerHost > 0 && h.rec.Pages >= sc.MaxPagesPerHost
}

// PageLimitReached says, as a max-pages skip's detail words it, which page
// limit of scope a page of host authority would exceed with pages fetched
// in all and hostPages from the host, or "" if none.
func PageLimitReached(scope ScopeConfig, pages, hostPages int, authority string) string {
	if m := scope.MaxPages; m > 0 && pages >= m {
		return fmt.Sprintf("max_pages %d reached: %d pages fetched", m, pages)
	}
	if m := scope.MaxPagesPerHost; m > 0 && hostPages >= m {
		return fmt.Sprintf("max_pages_per_host %d reached: %d pages fetched from %s", m, hostPages, authority)
	}
	return ""
}

// pageLimitPending reports whether h's next page must wait: no limit is
// reached yet, but the page leases outstanding could reach one. Whether
// the next page is fetched or skipped is decided once they end (a lease
// refused by robots.txt, say, does not count).
func (s *Scheduler) pageLimitPending(h *host) bool {
	if s.atPageLimit(h) {
		return false
	}
	if m := s.cfg.Scope.MaxPages; m > 0 && s.pages+s.pageLeases >= m {
		return true
	}
	m := s.cfg.Scope.MaxPagesPerHost
	return m > 0 && h.rec.Pages+h.pageLeases >= m
}

// heldForPageLeases reports whether h must wait with the page or
// requisite at its queue head (and, its rules unknown, its robots.txt
// request) for the page leases in flight (see pageLimitPending).
func (s *Scheduler) heldForPageLeases(h *host) bool {
	return len(h.cache) > 0 && counted(h.cache[0].Kind) && s.pageLimitPending(h)
}

// limitHeadLocked reports whether h's next lease would be skipped with
// max-pages at once: a page limit is reached (final: the counts only
// grow) and its queue head is a page, requisite or sitemap, or is still in
// the store (refilled at once, then decided). Whether h's rules are known
// does not matter: they would only decide about pages that cannot be
// fetched, so no robots.txt is asked for (or retried) for them.
func (s *Scheduler) limitHeadLocked(h *host) bool {
	if !s.atPageLimit(h) {
		return false
	}
	if len(h.cache) > 0 {
		return LimitedKind(h.cache[0].Kind)
	}
	return h.spill > 0 && !h.refilling
}

// limitSkipLocked skips the pages at the head of h's queue while a page
// limit is reached, as skips for OnSkip (the URLs leave the frontier). It
// reports whether it skipped any.
func (s *Scheduler) limitSkipLocked(h *host, now time.Time) bool {
	// Skipping changes no count: the limit reached, and its words, hold
	// for the whole head.
	why := s.pageLimitReached(h)
	if why == "" {
		return false
	}
	n := 0
	for len(h.cache) > 0 && LimitedKind(h.cache[0].Kind) {
		e := h.cache[0]
		s.skipHead(h, Skip{URL: e.URL, Parent: e.Parent, Authority: h.auth, Reason: ReasonMaxPages,
			Detail: why + "; not fetched", Time: now})
		n++
	}
	if n == 0 {
		return false
	}
	s.touch(h)
	s.fixAt(h, now)
	return true
}

// pageLeaseEnded accounts for the end of a page or requisite lease and
// lets the hosts held back by a page limit be reconsidered.
func (s *Scheduler) pageLeaseEnded(h *host, l *Lease, r Result, now time.Time) {
	if !counted(l.Kind) || l.seq == 0 {
		return
	}
	h.pageLeases--
	s.pageLeases--
	if CountsAsPage(l, r) {
		h.rec.Pages++
		s.pages++
		if s.pages == s.cfg.Scope.MaxPages {
			// max_pages is reached: every waiting host's queued pages
			// are skipped now, not when its pace would let it fetch.
			for _, hh := range slices.Clone(s.ready) {
				if hh != h {
					s.fixAt(hh, now)
				}
			}
		}
	}
	if len(s.held) == 0 {
		return
	}
	// Reconsidering a host may hold it again: take the set first.
	held := make([]*host, 0, len(s.held))
	for hh := range s.held {
		held = append(held, hh)
	}
	clear(s.held)
	for _, hh := range held {
		if hh != h { // the caller re-places h
			s.fixAt(hh, now)
		}
	}
}
