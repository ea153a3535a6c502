package robotscache

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
	"github.com/crawlproject/crawl/wire"
)

// fetchCall is a fetch in flight, which concurrent Refreshes of its
// authority wait for.
type fetchCall struct {
	done  chan struct{}
	state *State
	err   error
}

// Refresh fetches authority's robots.txt now (single-flight), persists
// and caches it, and returns the state in force afterwards. An error
// means the fetch could not be attempted (see Fetch) or the record could
// not be persisted.
func (l *Cache) Refresh(ctx context.Context, authority string) (*State, error) {
	l.mu.Lock()
	if c, ok := l.inflight[authority]; ok {
		l.mu.Unlock()
		select {
		case <-c.done:
			return c.state, c.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	c := &fetchCall{done: make(chan struct{})}
	l.inflight[authority] = c
	prev := l.states[authority]
	l.mu.Unlock()

	if prev == nil {
		prev, _ = l.Cached(authority, time.Time{})
	}
	rec, err := l.fetch(ctx, authority, prev)
	if err == nil {
		c.state, err = l.install(authority, rec)
	}
	c.err = err
	l.mu.Lock()
	delete(l.inflight, authority)
	l.mu.Unlock()
	close(c.done)
	return c.state, c.err
}

// install persists rec and then caches its state. Persisted before it is
// cached: a concurrent Cached that finds no state reads this copy from
// the store, not the last. The state is cached even when persisting
// failed; the error says so.
func (l *Cache) install(authority string, rec Record) (*State, error) {
	var err error
	if data, merr := encodeRecord(rec); merr == nil {
		if perr := l.store.PutRobots(authority, data); perr != nil {
			err = fmt.Errorf("crawler: persist robots.txt of %s: %w", authority, perr)
		}
	}
	st := Prepare(l.cfg, rec)
	l.mu.Lock()
	st = l.put(st)
	l.mu.Unlock()
	return st, err
}

// Fetch fetches authority's robots.txt as Refresh does, with no previous
// copy, and returns its record without persisting or caching it.
func (l *Cache) Fetch(ctx context.Context, authority string) (Record, error) {
	return l.fetch(ctx, authority, nil)
}

// fetchRun is one robots.txt fetch in progress: where it has got to, and
// what the last request of it gave.
type fetchRun struct {
	authority string
	target    string // the URL asked for now
	rec       Record // Redirects and Truncated so far
	status    int
	body      []byte
	hdr       http.Header
	err       error          // why the answer is missing or unusable; an outcome, not a failure to attempt
	last      *wire.Exchange // the last request, or a stand-in for a copy's answer
	entry     crawllog.RobotsEntry
	// copyExpires is the expiry of another host's copy that answered.
	copyExpires time.Time
	// turn ends this fetch's turn at another host's robots.txt
	// (copyOrTurn); nil when it holds none.
	turn func()
}

// endTurn gives back the turn f holds, if any. A fetch holds one turn at
// most, so turns cannot wait on each other.
func (f *fetchRun) endTurn() {
	if f.turn != nil {
		f.turn()
		f.turn = nil
	}
}

// fetch performs the fetch with up to five redirects (across hosts, each
// hop paced by its own host) and maps the outcome to a policy per RFC 9309
// 2.3.1. It returns an error only when the fetch could not be attempted
// (the context ended, or the host is parked); an unreachable host is an
// outcome. The last request is logged (onFetch) with the outcome.
func (l *Cache) fetch(ctx context.Context, authority string, prev *State) (Record, error) {
	target := scheduler.RobotsURL(authority)
	f := &fetchRun{authority: authority, target: target, rec: Record{Authority: authority, URL: target}}
	defer f.endTurn()
	if err := l.follow(ctx, f); err != nil {
		return f.rec, err
	}
	rec := l.settle(f, prev)
	l.onFetch(f.finalEntry(), f.last)
	return rec, nil
}

// follow asks for f.target and follows its redirects until an answer (or
// a failure, or a copy of the target's file) ends the fetch. An error
// means a request could not be attempted.
func (l *Cache) follow(ctx context.Context, f *fetchRun) error {
	for hop := 0; ; hop++ {
		f.endTurn()
		st, turn, err := l.copyOrTurn(ctx, hop, f.authority, f.target)
		if err != nil {
			return err
		}
		f.turn = turn
		if st != nil {
			f.answerFromCopy(st)
			return nil
		}
		more, err := l.step(ctx, f, hop)
		if err != nil || !more {
			return err
		}
	}
}

// answerFromCopy takes the answer of a redirect to another host's
// robots.txt that the cache holds fresh: its copy answers, with no
// request (N hosts redirecting to one, as http://a to https://www.a, made
// N requests to it, each waited for in a worker).
func (f *fetchRun) answerFromCopy(st *State) {
	f.status, f.body, f.hdr, f.rec.Truncated, f.copyExpires = st.rec.Status, st.rec.Body, nil, st.rec.Truncated, st.rec.Expires
	f.last = &wire.Exchange{URL: f.target}
	f.entry = crawllog.RobotsEntry{Time: time.Now().UTC(), Host: f.authority, URL: f.target, Status: f.status, Bytes: int64(len(f.body)),
		Redirects: append([]string{}, f.rec.Redirects...), Truncated: f.rec.Truncated, CopyOf: st.rec.Authority}
}

// step sends the fetch's request for f.target (hop 0 is robots.txt
// itself) and takes its answer. more reports a redirect to follow:
// f.target is then its target, and the hop is logged.
func (l *Cache) step(ctx context.Context, f *fetchRun, hop int) (more bool, err error) {
	ex, err := l.get(ctx, f.target, authorityOf(f.target) != f.authority)
	if ex.Start.IsZero() && err != nil {
		return false, f.notSent(ctx, hop, ex, err)
	}
	f.last = ex
	f.entry = crawllog.RobotsEntry{Time: ex.Start.UTC(), Host: f.authority, URL: f.target, Status: ex.Status, Bytes: int64(len(ex.Body)),
		DurationMS: float64(ex.Duration) / float64(time.Millisecond), Redirects: append([]string{}, f.rec.Redirects...), Truncated: l.truncated(ex)}
	if ex.Stopped {
		// Aborted because the crawl is stopping: not an outcome of the
		// host. Nothing is logged, stored or counted; the robots lease
		// stays queued and the next run fetches robots.txt again.
		return false, ctx.Err()
	}
	if err != nil {
		f.err = err
		f.entry.Error = err.Error()
		return false, nil
	}
	f.status, f.body, f.hdr = ex.Status, ex.Body, ex.Header
	to, ok := l.redirectTarget(f, ex, hop)
	if !ok {
		return false, nil
	}
	f.entry.Outcome = OutcomeRedirect
	l.onFetch(f.entry, ex)
	f.target = to
	f.rec.Redirects = append(f.rec.Redirects, f.target)
	return true, nil
}

// notSent handles a request that was never sent: the pace refused
// (parked, deferred) or ctx ended, which is returned (the fetch was not
// attempted). A redirect to a host whose pace refuses it now (deferred,
// parked or dropped) cannot be followed: that is this host's outcome, an
// unreachable robots.txt tried again with the usual back-off (RFC 9309
// 2.3.1.4). Returned as "not sent", it had this host ask for its
// robots.txt at every turn of its pace, and the crawl never ended.
func (f *fetchRun) notSent(ctx context.Context, hop int, ex *wire.Exchange, err error) error {
	var wait *scheduler.WaitError
	if hop == 0 || ctx.Err() != nil || !errors.As(err, &wait) {
		return err
	}
	f.err = fmt.Errorf("crawler: robots.txt redirects to %s, which cannot be asked now: %w", f.target, err)
	f.last = ex
	f.entry = crawllog.RobotsEntry{Time: time.Now().UTC(), Host: f.authority, URL: f.target,
		Redirects: append([]string{}, f.rec.Redirects...), Error: f.err.Error()}
	f.status, f.body, f.hdr = 0, nil, nil
	return nil
}

// finalEntry is the log line of the fetch's last request, with the
// outcome settle gave the fetch.
func (f *fetchRun) finalEntry() crawllog.RobotsEntry {
	e := f.entry
	e.Outcome, e.Expires = f.rec.Outcome, f.rec.Expires
	if f.rec.Stale {
		e.Outcome = OutcomeUnreachable
	}
	if e.Error == "" {
		e.Error = f.rec.Error // a body that did not decode
	}
	return e
}

// truncated reports whether a robots.txt answer was cut: by the timeout or
// a disconnect, or by robots.max_bytes (the body holds the one octet past
// the limit that tells a whole last line from a cut one; the parser drops
// it, and the rules past the limit).
func (l *Cache) truncated(ex *wire.Exchange) bool {
	return ex.Truncated() || int64(len(ex.Body)) > l.cfg.MaxBytes
}

// get sends one GET through the transport and returns what it saw. hop
// marks a redirect hop to another host than the lease's: it takes a
// place among that host's requests in flight (Scheduler.WaitHop).
func (l *Cache) get(ctx context.Context, target string, hop bool) (*wire.Exchange, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return &wire.Exchange{URL: target}, err
	}
	id, ex := l.tr.Track()
	defer l.tr.Untrack(id)
	ex.Robots, ex.Limit, ex.Hop = true, l.cfg.MaxBytes+1, hop
	req.Header.Set(wire.JobHeader, id)
	resp, err := l.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return ex, err
	}
	resp.Body.Close()
	return ex, nil
}

// authorityOf returns the authority of target (that of an empty URL if
// target does not parse).
func authorityOf(target string) string {
	u, err := url.Parse(target)
	if err != nil {
		u = &url.URL{}
	}
	return scheduler.Authority(u)
}
