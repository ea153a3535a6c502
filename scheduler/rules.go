package scheduler

import (
	"fmt"
	"slices"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// SetRules installs the pacing rules of authority's robots.txt group and
// releases the host's held URLs. A Crawl-delay above MaxCrawlDelay is
// handled by CrawlDelayPolicy: wait obeys it (the host is deferred if that
// exceeds MaxWait), clamp uses MaxCrawlDelay and records a warning, skip
// drops the host's URLs with crawl-delay-too-long (through OnSkip).
func (s *Scheduler) SetRules(authority string, r Rules) {
	now := time.Now()
	s.mu.Lock()
	h := s.host(authority)
	h.rules = r
	h.rulesKnown, h.rulesSet = true, true
	h.allowedSeq = 0
	if !slices.Equal(h.rec.VisitTimes, r.VisitTimes) {
		h.rec.VisitTimes = r.VisitTimes
		s.touch(h)
	}
	h.robotsFailures = 0
	h.robotsRetryAt = time.Time{}
	h.floor = time.Time{}
	var skips []Skip
	h.warning = ""
	if too := CrawlDelayExceeds(&s.cfg, r); too != "" {
		if s.cfg.CrawlDelayPolicy == PolicySkip {
			if !h.rec.Dropped {
				tmpl := Skip{Authority: h.auth, Reason: ReasonCrawlDelayTooLong, Detail: too,
					Rule: "Crawl-delay: " + crawlDelayValue(r.CrawlDelay), Line: r.CrawlDelayLine}
				skips = s.dropLocked(h, tmpl, now)
			}
		} else {
			done := "obeyed"
			if s.cfg.CrawlDelayPolicy == PolicyClamp {
				done = "clamped"
			}
			h.warning = fmt.Sprintf("crawl-delay %s (line %d) exceeds max_crawl_delay %s: %s", robots.ShortDuration(r.CrawlDelay), r.CrawlDelayLine, robots.ShortDuration(s.cfg.MaxCrawlDelay), done)
		}
	}
	if !h.rec.LastStart.IsZero() {
		// The latest request (robots.txt itself, usually) was paced
		// before the rules were known: record the pace the rules ask for
		// from it, as this run applies it, so that a later run neither
		// keeps the 1996 default as its restart floor nor comes sooner.
		p := h.pace(&s.cfg)
		iv, _ := interval(&s.cfg, &p, h.rec.LastStart)
		h.rec.Interval = iv
		h.rec.RulesPace = p.robotsPaced(h.rec.LastStart)
		h.rec.NextAllowed = h.rec.LastStart.Add(iv)
		s.touch(h)
	}
	s.stats.Skipped += len(skips)
	s.fixAt(h, now)
	s.notify()
	s.mu.Unlock()
	s.emit(skips)
}

func crawlDelayValue(d time.Duration) string {
	return fmt.Sprintf("%g", d.Seconds())
}

// RulesFailed reports that authority's robots.txt could not be fetched. The
// host stays blocked and its robots lease is issued again at retryAt (or
// after its back-off, if later). After MaxFailures failures in a row, or,
// for a host that never answered and refuses connections (or whose name
// does not resolve), once the next try would come later than RefusedGiveUp
// after the first refusal, the host is given up for the run: its URLs stay
// queued, each reported with robots-unreachable and Queued set through
// OnSkip when the frontier drains, and the next Open tries it again.
func (s *Scheduler) RulesFailed(authority string, retryAt time.Time) {
	now := time.Now()
	s.mu.Lock()
	h := s.host(authority)
	h.rulesKnown = false
	h.robotsFailures++
	if !h.rec.Dropped {
		if why := s.robotsGiveUpReason(h, retryAt, now); why != "" {
			s.giveUpLocked(h, ReasonRobotsUnreachable, why, RobotsURL(h.auth), now)
		} else {
			h.robotsRetryAt = retryAt
		}
	}
	s.fixAt(h, now)
	s.notify()
	s.mu.Unlock()
}

// ExpireRules marks authority's robots rules as stale: the host's next
// lease is a robots lease again. Until new rules arrive the old ones keep
// pacing the host (and its Visit-time), which is the conservative reading.
func (s *Scheduler) ExpireRules(authority string) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.host(authority)
	h.rulesKnown = false
	s.fixAt(h, now)
	s.notify()
}

// CrawlDelayExceeds says, as a skip's detail words it, that r asks for a
// Crawl-delay longer than cfg.MaxCrawlDelay ("crawl-delay 2m exceeds
// max_crawl_delay 30s"); "" when it asks for none or a shorter one.
func CrawlDelayExceeds(cfg *Config, r Rules) string {
	if !crawlDelayTooLong(cfg, r) {
		return ""
	}
	return fmt.Sprintf("crawl-delay %s exceeds max_crawl_delay %s", robots.ShortDuration(r.CrawlDelay), robots.ShortDuration(cfg.MaxCrawlDelay))
}

// crawlDelayTooLong reports whether r asks for a Crawl-delay longer than
// cfg.MaxCrawlDelay (none is too long when MaxCrawlDelay is 0).
func crawlDelayTooLong(cfg *Config, r Rules) bool {
	return r.HasCrawlDelay && cfg.MaxCrawlDelay > 0 && r.CrawlDelay > cfg.MaxCrawlDelay
}
