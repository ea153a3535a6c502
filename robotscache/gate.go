package robotscache

import (
	"fmt"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// Permit implements wire.Gate: no request to a host before its robots.txt
// was fetched (or found unavailable), and none for a URL it disallows.
func (l *Cache) Permit(authority, target string) error {
	st, _ := l.Cached(authority, time.Time{})
	if st == nil {
		return fmt.Errorf("crawler: robots.txt of %s not fetched yet", authority)
	}
	if !st.Good() {
		return fmt.Errorf("crawler: robots.txt of %s unreachable", authority)
	}
	if v := st.group.Allowed(target); !v.Allowed {
		return fmt.Errorf("crawler: %s disallowed: %s", target, st.Refusal(v, l.cfg.Agent))
	}
	return nil
}

// Refusal says in words what refused a URL with verdict v: the robots.txt
// rule, or, when no line decided, the policy that stood in for the file
// (a 401/403 under robots.forbidden_disallows, as `crawl robots check`
// words it).
func (s *State) Refusal(v robots.Verdict, agent string) string {
	switch v.Reason {
	case robots.ReasonUnauthorized:
		return fmt.Sprintf("robots.txt HTTP %d: access restricted; everything but /robots.txt is disallowed "+
			"(robots.forbidden_disallows: 401 and 403 disallow all, as the 1996 draft recommended; RFC 9309 2.3.1.3 alone would allow all)", s.rec.Status)
	case robots.ReasonUnreachable:
		return fmt.Sprintf("robots.txt unreachable (%s): everything but /robots.txt is disallowed (RFC 9309 2.3.1.4)", s.rec.Failure())
	}
	return fmt.Sprintf("robots.txt line %d %q disallows it for %s", v.Line, v.Rule, agent)
}
