package scheduler

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// backOff slows h down after a request that says the server is
// overloaded or not there (a 429, a 503, a cut body, a timeout, a reset, a
// refusal; see Outcome.slows) answered at now: its failure streak grows, its back-off doubles (from
// BackoffBase up to BackoffMax) and holds its next start, and a 429's or
// 503's Retry-After holds it at least as long as the server asked, even
// beyond MaxWait (the host is then deferred to a later run, BackoffUntil
// being persisted) or RetryAfterMax (which only sets the host's warning).
// s.mu is held.
func (s *Scheduler) backOff(h *host, status int, retryAfter string, now time.Time) {
	h.rec.Streak++
	b := backoff(s.cfg.BackoffBase, s.cfg.BackoffMax, h.rec.Streak)
	h.rec.Backoff = max(h.rec.Backoff, b)
	if until := now.Add(b); until.After(h.rec.BackoffUntil) {
		h.rec.BackoffUntil = until
		h.rec.BackoffSource = "back-off " + robots.ShortDuration(b)
	}
	if status != http.StatusTooManyRequests && status != http.StatusServiceUnavailable {
		return
	}
	d, ok := ParseRetryAfter(retryAfter, now)
	if !ok {
		return
	}
	// Honoured in full: never back earlier than the server asked. On a
	// tie with the back-off the server's own word names the wait.
	if until := now.Add(d); !until.Before(h.rec.BackoffUntil) {
		h.rec.BackoffUntil = until
		h.rec.BackoffSource = fmt.Sprintf("retry-after %s (Retry-After: %s)", robots.ShortDuration(d), strings.TrimSpace(retryAfter))
	}
	if m := s.cfg.RetryAfterMax; m > 0 && d > m {
		h.warning = fmt.Sprintf("Retry-After %s exceeds retry_after_max %s: honoured in full, no request before %s",
			robots.ShortDuration(d), robots.ShortDuration(m), now.Add(d).UTC().Format(time.RFC3339))
	}
}

// backoff returns base x 2^(streak-1), at most limit.
func backoff(base, limit time.Duration, streak int) time.Duration {
	if streak <= 0 || base <= 0 {
		return 0
	}
	d := base
	for i := 1; i < streak; i++ {
		if d >= limit/2 {
			return limit
		}
		d *= 2
	}
	return min(d, limit)
}

// maxRetryAfter is the longest wait the scheduler handles (about 146
// years): a longer Retry-After is read as this, which defers the host to a
// later run and still fits a persisted deadline.
const maxRetryAfter = time.Duration(1<<62) / time.Second * time.Second

// ParseRetryAfter reads a Retry-After value (RFC 9110 10.2.3): a number of
// seconds or an HTTP-date, relative to now. A date in the past is 0. A
// delay-seconds value too large for the scheduler (even too large to parse)
// is maxRetryAfter, never ignored: the server asked for at least that long.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		if n > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		return time.Duration(n) * time.Second, true
	}
	if allDigits(v) {
		// Digits that ParseInt rejects are out of range: longer than
		// anything the scheduler can wait.
		return maxRetryAfter, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(t.Sub(now), 0), true
}

// allDigits reports whether v is 1*DIGIT (RFC 9110 delay-seconds).
func allDigits(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}
