package robotscache

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/crawlproject/crawl/robots"
	"github.com/crawlproject/crawl/scheduler"
	"github.com/crawlproject/crawl/wire"
)

// minTTL is the shortest time a fetched robots.txt is used, even when
// Cache-Control asks for less: refetching it before every page would double
// the load on the host.
const minTTL = 5 * time.Minute

// settle maps the answer f ended on to its outcome, policy and expiry
// (RFC 9309 2.3.1), and returns the record to keep: f.rec, or, for an
// unreachable host, the previous good copy marked stale. Retries and the
// cache lifetime count from the answer, not from the request: the host
// saw the request at the latest when it answered.
func (l *Cache) settle(f *fetchRun, prev *State) Record {
	now := time.Now()
	f.rec.Status, f.rec.Fetched = f.status, now
	class := l.classify(f)
	switch class {
	case robots.Available:
		f.rec.Outcome, f.rec.Policy = OutcomeParsed, "parse"
	case robots.Unavailable:
		f.rec.Outcome, f.rec.Policy = OutcomeUnavailable, "allow-all"
	case robots.Restricted:
		f.rec.Outcome, f.rec.Policy = OutcomeUnavailable, "disallow-all"
	default:
		f.rec.Outcome, f.rec.Policy = OutcomeUnreachable, "disallow-all"
	}
	if f.err != nil {
		f.rec.Error = f.err.Error()
	}
	if f.rec.Outcome == OutcomeUnreachable {
		return l.unreachable(&f.rec, prev, l.retryBase(f, prev), now)
	}
	f.rec.Expires = now.Add(ttlFor(f.hdr, l.cfg.CacheTTL))
	if !f.copyExpires.IsZero() && f.copyExpires.Before(f.rec.Expires) {
		f.rec.Expires = f.copyExpires
	}
	if f.copyExpires.IsZero() && len(f.rec.Redirects) > 0 && (f.rec.Status < 300 || f.rec.Status >= 400) {
		// The answer of the host the redirects ended on, not a redirect
		// cut short (its own fetch would follow it further).
		l.adopt(f.rec, f.target)
	}
	return f.rec
}

// classify returns the availability of f's answer (RFC 9309 2.3.1) and,
// for an available file, sets its text as f.rec.Body: at most MaxBytes+1
// octets, coded or not (get caps the transport's read, and the decoding
// the decoded text). A body the crawler cannot read is no file it could
// follow: it stands for a server error (RFC 9309 2.3.1.4), is tried again
// like one, and f.err says why.
func (l *Cache) classify(f *fetchRun) robots.Availability {
	class := robots.Classify(f.status, f.err, robots.PolicyOptions{RestrictedDisallows: l.cfg.ForbiddenDisallows})
	if class != robots.Available {
		return class
	}
	// The transport asks for robots.txt with Accept-Encoding: identity,
	// but RFC 9110 12.5.3 lets a server code the body all the same, and
	// parsing coded bytes as text would find no rules: everything
	// allowed. cut reports a body that was longer than the limit once
	// decoded, or whose coded stream ended early: its last line may be
	// cut.
	content, cut, err := wire.DecodeContent(f.hdr, f.body, l.cfg.MaxBytes+1, "robots.txt body")
	if err != nil {
		f.err = err
		return robots.Unreachable
	}
	if cut || int64(len(content)) > l.cfg.MaxBytes {
		f.rec.Truncated = true
	}
	f.rec.Body = content
	return class
}

// retryBase is the first wait before the unreachable file of f is asked
// for again: Config.ConnectRetryBase when its host could not be reached at
// all and no copy was ever had (prev), else Config.RetryBase.
func (l *Cache) retryBase(f *fetchRun, prev *State) time.Duration {
	if l.cfg.ConnectRetryBase > 0 && f.status == 0 && f.err != nil && (prev == nil || !prev.Good()) &&
		scheduler.Classify(0, f.err) == scheduler.OutcomeUnreachable {
		return l.cfg.ConnectRetryBase
	}
	return l.cfg.RetryBase
}

// unreachable sets the back-off of an unreachable rec (RFC 9309 2.3.1.4:
// tried again, each failure doubling base) and returns the record to keep:
// rec, or the previous good copy, marked stale (RFC 9309 2.4: a previous
// copy may be used while the host is unreachable); rec then says so too.
func (l *Cache) unreachable(rec *Record, prev *State, base time.Duration, now time.Time) Record {
	failures := 1
	if prev != nil {
		failures = prev.rec.Failures + 1
	}
	wait := base << min(failures-1, 10)
	if prev != nil && prev.Good() {
		stale := prev.rec
		stale.Stale, stale.Failures, stale.Expires = true, failures, now.Add(wait)
		stale.Error = rec.Error
		rec.Expires, rec.Stale = stale.Expires, true
		return stale
	}
	rec.Failures, rec.Expires = failures, now.Add(wait)
	return *rec
}

// ttlFor returns how long a robots.txt may be used: Cache-Control max-age
// within [minTTL, ttl], else ttl.
func ttlFor(h http.Header, ttl time.Duration) time.Duration {
	for _, part := range strings.Split(h.Get("Cache-Control"), ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || !strings.EqualFold(k, "max-age") {
			continue
		}
		n, err := strconv.ParseInt(strings.Trim(v, `"`), 10, 64)
		if err != nil || n < 0 {
			continue
		}
		d := time.Duration(n) * time.Second
		return max(min(d, ttl), min(minTTL, ttl))
	}
	return ttl
}
