package robotscache

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/crawlproject/crawl/scheduler"
	"github.com/crawlproject/crawl/wire"
)

// MaxRedirects is RFC 9309 2.3.1.2's "at least five consecutive
// redirects": the redirects a fetch follows.
const MaxRedirects = 5

// redirectTarget returns where the answer ex to f's request at hop
// redirects, if the fetch follows it: a 3xx with a Location, within
// MaxRedirects and scope.max_url_length. Otherwise the answer stands
// (RFC 9309 2.3.1.2: a 3xx not followed is the answer), its truncation is
// noted in f.rec, and a target too long to follow is noted in the log
// line.
func (l *Cache) redirectTarget(f *fetchRun, ex *wire.Exchange, hop int) (string, bool) {
	loc := ex.Header.Get("Location")
	if f.status < 300 || f.status >= 400 || loc == "" || hop == MaxRedirects {
		f.rec.Truncated = l.truncated(ex)
		return "", false
	}
	next, perr := url.Parse(loc)
	base, _ := url.Parse(f.target)
	if perr != nil || base == nil {
		return "", false
	}
	to := base.ResolveReference(next).String()
	if l.cfg.MaxURLLength > 0 && len(to) > l.cfg.MaxURLLength {
		// Not followed, as a redirect past the fifth is not: the 3xx
		// stands (RFC 9309 2.3.1.2), and the log says why.
		f.entry.Error = fmt.Sprintf("crawler: robots.txt redirects to a URL of %d octets, longer than %d (scope.max_url_length): not followed", len(to), l.cfg.MaxURLLength)
		return "", false
	}
	return to, true
}

// adopt keeps the answer a redirect led to as the robots.txt of its own
// host too, when target is exactly another host's /robots.txt that the
// cache does not hold fresh: the next host redirected there is answered by
// it (copyOrTurn), with no request, and so is that host's own robots.txt
// lease. 8 hosts redirecting to one host that is not crawled itself asked
// it 8 times.
func (l *Cache) adopt(rec Record, target string) {
	other := robotsFileOf(target)
	if other == "" || other == rec.Authority {
		return
	}
	if st, fresh := l.Cached(other, time.Now()); st != nil && fresh {
		return
	}
	rec.Authority, rec.URL, rec.Redirects = other, target, nil
	data, err := encodeRecord(rec)
	if err != nil || l.store.PutRobots(other, data) != nil {
		return
	}
	st := Prepare(l.cfg, rec)
	l.mu.Lock()
	if cur := l.states[other]; cur == nil || cur.rec.Fetched.Before(rec.Fetched) {
		l.put(st)
	}
	l.mu.Unlock()
}

// robotsFileOf returns the authority whose robots.txt target is exactly
// (path /robots.txt, no query), or "" if it is no such URL: the file a
// redirect hop may be answered by, and keeps a copy of (copyOrTurn, adopt).
func robotsFileOf(target string) string {
	u, err := url.Parse(target)
	if err != nil || u.Path != "/robots.txt" || u.RawQuery != "" || u.Host == "" {
		return ""
	}
	return scheduler.Authority(u)
}

// copyOrTurn returns, for a redirect hop (hop > 0) to exactly another
// host's /robots.txt (no query), that host's fresh cached state, if the
// cache holds one; else a turn to fetch it, which the caller ends (its
// end func) once the answer is adopted: redirects to the same robots.txt
// from several hosts wait for the first and then take its copy, instead
// of each asking. No turn for other hops (nil, nil). An error only if ctx
// ended while waiting.
func (l *Cache) copyOrTurn(ctx context.Context, hop int, authority, target string) (*State, func(), error) {
	if hop == 0 {
		return nil, nil, nil
	}
	other := robotsFileOf(target)
	if other == "" || other == authority {
		return nil, nil, nil
	}
	for {
		if st, fresh := l.Cached(other, time.Now()); st != nil && fresh && st.Good() && !st.rec.Stale {
			return st, nil, nil
		}
		l.mu.Lock()
		busy := l.hopping[other]
		if busy == nil {
			done := make(chan struct{})
			l.hopping[other] = done
			l.mu.Unlock()
			return nil, func() {
				l.mu.Lock()
				delete(l.hopping, other)
				l.mu.Unlock()
				close(done)
			}, nil
		}
		l.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		case <-busy:
		}
	}
}
