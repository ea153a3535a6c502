package crawler

import (
	"fmt"
	"strings"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robotscache"
	"github.com/crawlproject/crawl/scheduler"
)

// describeRobots says in plain words what a host's robots.txt asked of us.
func describeRobots(st *robotscache.State, hs scheduler.HostStatus) string {
	var b strings.Builder
	rec := st.Record()
	switch rec.Outcome {
	case robotscache.OutcomeParsed:
		fmt.Fprintf(&b, "robots.txt of %s read (HTTP %d)", rec.Authority, rec.Status)
	case robotscache.OutcomeUnavailable:
		if rec.Policy == "disallow-all" {
			fmt.Fprintf(&b, "robots.txt of %s answered %d: treated as disallow-all (robots.forbidden_disallows)", rec.Authority, rec.Status)
		} else {
			fmt.Fprintf(&b, "robots.txt of %s unavailable (HTTP %d): everything allowed (RFC 9309 2.3.1.3)", rec.Authority, rec.Status)
		}
	default:
		fmt.Fprintf(&b, "robots.txt of %s unreachable, using the copy fetched %s", rec.Authority, rec.Fetched.UTC().Format(time.RFC3339))
	}
	if n := len(rec.Redirects); n > 0 {
		fmt.Fprintf(&b, " after %d redirect(s) to %s", n, rec.Redirects[n-1])
	}
	if hs.PaceSource != "" {
		fmt.Fprintf(&b, "; pace %s set by %s", crawllog.RoundDuration(hs.Interval), hs.PaceSource)
	}
	if vt := st.Group().VisitTimes(); len(vt) > 0 {
		ws := make([]string, len(vt))
		for i, w := range vt {
			ws[i] = w.String()
		}
		fmt.Fprintf(&b, "; visits only %s UTC", strings.Join(ws, ", "))
	}
	if cs := st.Group().Comments(); len(cs) > 0 {
		fmt.Fprintf(&b, "; the site says: %q", strings.Join(cs, " "))
	}
	return b.String()
}

func describeFetch(e crawllog.CrawlEntry) string {
	if e.Error != "" {
		return fmt.Sprintf("%s failed: %s", e.URL, e.Error)
	}
	s := fmt.Sprintf("fetched %s: %d, %d bytes in %s", e.URL, e.Status, e.Bytes, crawllog.RoundDuration(time.Duration(e.DurationMS*float64(time.Millisecond))))
	if e.PaceRule != "" {
		s += fmt.Sprintf("; pace %s (%s)", crawllog.RoundSeconds(e.PaceSeconds), e.PaceRule)
	}
	if e.Redirect != "" {
		s += "; redirects to " + e.Redirect + " (queued as a new URL, checked against its own host's robots.txt)"
	}
	if e.Nofollow != "" {
		s += "; its links are not followed: the page asks robots not to (" + e.Nofollow + ")"
	}
	return s
}

// describeHost says in words where a host stands; for a deferred host of a
// crawl that can be resumed (not ephemeral) it says how to continue.
func describeHost(hs scheduler.HostStatus, ephemeral bool) string {
	switch hs.State {
	case scheduler.StateParked:
		return fmt.Sprintf("%s parked outside its Visit-time windows until %s UTC", hs.Authority, hs.NextAllowed.UTC().Format("15:04:05"))
	case scheduler.StateBackingOff:
		why := hs.BackoffReason
		if why == "" {
			why = hs.PaceSource
		}
		return fmt.Sprintf("%s backing off until %s UTC (%s)", hs.Authority, hs.NextAllowed.UTC().Format("15:04:05"), why)
	case scheduler.StateDeferred:
		s := fmt.Sprintf("%s deferred until %s: %s", hs.Authority, hs.DeferredUntil.UTC().Format(time.RFC3339), hs.DeferReason)
		if !ephemeral {
			s += "; run the same command again then to continue"
		}
		return s
	case scheduler.StateDropped:
		s := fmt.Sprintf("%s dropped: %s", hs.Authority, hs.DropReason)
		if hs.Queued+hs.Leased > 0 && !ephemeral {
			s += "; its URLs stay queued: run the same command again to retry them"
		}
		return s
	}
	return fmt.Sprintf("%s is %s", hs.Authority, hs.State)
}
