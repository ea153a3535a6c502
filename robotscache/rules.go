package robotscache

import (
	"weak"

	"github.com/crawlproject/crawl/scheduler"
)

// Rules maps the robots.txt group s applies to agent to the scheduler's
// rules: its pace, and its verdict on URLs until s expires, worded as the
// crawler's own check at lease time words it (Refusal), so that a skip
// reads the same whichever refuses the URL. The verdict reads only s,
// which is not changed once built: the scheduler may call it under its
// lock.
//
// The verdict holds s weakly. The scheduler keeps every host's rules for
// the whole run, and a parsed robots.txt (its body and compiled matcher)
// belongs in the cache, bounded by robots.cache_size and
// robots.cache_bytes: once s has left the cache and been collected, the
// verdict says "not refused", and the crawler's check at lease time
// decides, as it does for a host whose robots.txt was never cached.
func (s *State) Rules(agent string) scheduler.Rules {
	g := s.group // its matcher was compiled by Prepare
	ws := weak.Make(s)
	r := scheduler.Rules{
		Refuse: func(target string) (string, int, string, bool) {
			st := ws.Value()
			if st == nil {
				return "", 0, "", false
			}
			v := st.group.Allowed(target)
			if v.Allowed {
				return "", 0, "", false
			}
			return v.Rule, v.Line, st.Refusal(v, agent), true
		},
		RefuseUntil: s.rec.Expires,
	}
	if d, ok := g.CrawlDelay(); ok {
		r.CrawlDelay, r.HasCrawlDelay = d, true
		r.CrawlDelayLine, _ = g.CrawlDelayLine()
	}
	r.RequestRates = g.RequestRates()
	r.VisitTimes = g.VisitTimes()
	return r
}
