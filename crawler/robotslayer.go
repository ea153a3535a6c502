package crawler

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
	"weak"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robots"
	"github.com/crawlproject/crawl/scheduler"
)

// maxRobotsRedirects is RFC 9309 2.3.1.2's "at least five consecutive redirects".
const maxRobotsRedirects = 5

// minRobotsTTL is the shortest time a fetched robots.txt is used, even when
// Cache-Control asks for less: refetching it before every page would double
// the load on the host.
const minRobotsTTL = 5 * time.Minute

// The outcomes of a robots.txt fetch, as logged.
const (
	outcomeParsed      = "parsed"
	outcomeUnavailable = "unavailable"
	outcomeUnreachable = "unreachable"
	// outcomeRedirect is the outcome of a redirect hop: its line in
	// robots.jsonl has no expiry, the fetch goes on at the target.
	outcomeRedirect = "redirect"
)

// robotsRecord is what is persisted per authority in the frontier store.
type robotsRecord struct {
	Authority string    `json:"authority"`
	URL       string    `json:"url"`
	Status    int       `json:"status"`
	Outcome   string    `json:"outcome"`
	Policy    string    `json:"policy"` // parse, allow-all or disallow-all
	Body      []byte    `json:"body,omitempty"`
	Truncated bool      `json:"truncated,omitempty"`
	Redirects []string  `json:"redirects,omitempty"`
	Fetched   time.Time `json:"fetched"`
	Expires   time.Time `json:"expires"`
	Failures  int       `json:"failures,omitempty"`
	Error     string    `json:"error,omitempty"`
	// Stale is set when a previous good copy is used because the host is
	// unreachable now.
	Stale bool `json:"stale,omitempty"`
}

// robotsState is a robots.txt in use for one authority.
type robotsState struct {
	rec    robotsRecord
	robots *robots.Robots
	group  *robots.Group
	elem   *list.Element
	size   int64 // the bytes it holds: the record's body and the parsed file with its agent's matcher
}

// good reports whether the state can decide about URLs (it is not an
// unreachable file with no previous copy).
func (s *robotsState) good() bool { return s.rec.Outcome != outcomeUnreachable || s.rec.Stale }

// robotsStore is the persistent part of the frontier the robots layer uses.
type robotsStore interface {
	PutRobots(authority string, data []byte) error
	GetRobots(authority string) ([]byte, bool)
}

// robotsLayer fetches, caches and answers from each authority's robots.txt.
// Fetches are single-flight per authority and go through the polite
// transport, so they are paced like every other request. Every entry is
// persisted with the crawl state, and the in-memory cache has two bounds:
// robots.cache_size files, which never forgets a host that still has queued
// URLs, and robots.cache_bytes, which does when it must (a busy host's file
// is parsed again from the crawl state when next needed), so that hostile
// robots.txt files cannot exhaust memory. Safe for concurrent use.
type robotsLayer struct {
	client  *http.Client
	tr      *politeTransport
	store   robotsStore
	cfg     config.RobotsConfig
	agent   string
	busy    func(authority string) bool
	onFetch func(crawllog.RobotsEntry, *exchange)

	mu       sync.Mutex
	states   map[string]*robotsState
	lru      *list.List // of authority strings, most recent at front
	inflight map[string]*robotsCall
	hopping  map[string]chan struct{} // hosts whose robots.txt a redirect hop is fetching; closed when its answer is adopted
	maxURL   int                      // scope.max_url_length: longer redirect targets are not followed
	bytes    int64                    // the sizes of the states, summed
	squeeze  robotsSqueeze            // what robots.cache_bytes made the cache drop
	// warn, if set, is told the first time robots.cache_bytes drops the
	// file of a host with queued URLs (with l.mu held).
	warn func(msg string, args ...any)
}

// robotsSqueeze counts what the byte bound made the robots cache do beyond
// the count bound: files of hosts with queued URLs dropped, and dropped
// files parsed again from the crawl state.
type robotsSqueeze struct {
	busyDropped int
	reloaded    int
	dropped     map[string]bool // authorities whose file was dropped while busy, until reloaded
}

type robotsCall struct {
	done  chan struct{}
	state *robotsState
	err   error
}

// newRobotsLayer returns the robots layer that fetches through tr and
// gates tr's other requests (it becomes tr's gate).
func newRobotsLayer(tr *politeTransport, store robotsStore, cfg config.RobotsConfig, agent string, busy func(string) bool, onFetch func(crawllog.RobotsEntry, *exchange)) *robotsLayer {
	l := &robotsLayer{
		client: &http.Client{
			Transport:     tr,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		tr: tr, store: store, cfg: cfg, agent: agent, busy: busy, onFetch: onFetch,
		states: map[string]*robotsState{}, lru: list.New(), inflight: map[string]*robotsCall{}, hopping: map[string]chan struct{}{},
	}
	tr.gate = l
	return l
}

// newPoliteStack wires the polite transport and the robots layer that
// gates it, paced by sched: the same pair serves a crawl, a dry run and a
// live robots.txt lookup.
func newPoliteStack(cfg config.Config, sched *scheduler.Scheduler, store robotsStore, busy func(string) bool, onFetch func(crawllog.RobotsEntry, *exchange)) (*politeTransport, *robotsLayer) {
	tr := newPoliteTransport(sched, cfg.UserAgentHeader(), cfg.Fetch.MaxBody, cfg.Fetch.Timeout)
	l := newRobotsLayer(tr, store, cfg.Robots, cfg.Agent.Token, busy, onFetch)
	l.maxURL = cfg.Scope.MaxURLLength
	return tr, l
}

// cached returns the robots.txt state for authority from memory or the
// store, without fetching. fresh reports whether it is within its TTL at now.
// A file read from the store is parsed without holding the layer's lock,
// and cached only if the store still holds it then: a refresh persists its
// copy before caching it, so a newer copy cached, then dropped under
// robots.cache_bytes while this one was parsed, is not replaced by it.
func (l *robotsLayer) cached(authority string, now time.Time) (st *robotsState, fresh bool) {
	var loaded *robotsState
	var loadedFrom []byte
	for {
		l.mu.Lock()
		if st = l.states[authority]; st != nil {
			break
		}
		data, ok := l.store.GetRobots(authority)
		if ok && loaded != nil && bytes.Equal(data, loadedFrom) {
			st = l.put(loaded)
			break
		}
		l.mu.Unlock()
		if !ok {
			return nil, false
		}
		var rec robotsRecord
		if json.Unmarshal(data, &rec) != nil {
			return nil, false
		}
		// An earlier run wrote the expiry under its robots.cache_ttl; a
		// shorter one in force now holds for the copies it left too.
		if ttl := rec.Fetched.Add(l.cfg.CacheTTL); rec.Outcome != outcomeUnreachable && !rec.Fetched.IsZero() && ttl.Before(rec.Expires) {
			rec.Expires = ttl
		}
		loaded, loadedFrom = l.prepare(rec), data
	}
	l.lru.MoveToFront(st.elem)
	l.mu.Unlock()
	return st, now.Before(st.rec.Expires)
}

// peek returns the robots.txt state for authority to read what it says:
// the cached one, or one parsed from the store that is neither cached nor
// compiled for matching (the summary of a crawl of many hosts reads every
// host's file once). Nil if none was stored.
func (l *robotsLayer) peek(authority string) *robotsState {
	l.mu.Lock()
	st := l.states[authority]
	var data []byte
	ok := false
	if st == nil {
		data, ok = l.store.GetRobots(authority)
	}
	l.mu.Unlock()
	if st != nil || !ok {
		return st
	}
	var rec robotsRecord
	if json.Unmarshal(data, &rec) != nil {
		return nil
	}
	return l.parsed(rec)
}

// prepare builds the state for rec: parses its body (for a "parse"
// policy) and compiles the matcher of the crawler's group, so that
// neither happens under the layer's lock, nor under the scheduler's when
// its verdict first refuses a URL (a 500 KB file of wildcard rules takes
// a third of a second), and so that the state's size is known when it is
// cached.
func (l *robotsLayer) prepare(rec robotsRecord) *robotsState {
	st := l.parsed(rec)
	st.group.Prepare()
	// Footprint counts the parsed part of the body, which Parse shares
	// with rec.Body; what it did not parse is counted here.
	st.size = int64(st.robots.Footprint()+cap(rec.Body)-len(st.robots.Body())) + int64(len(rec.URL)+len(rec.Authority))
	return st
}

// parsed builds the state for rec, its matcher not yet compiled.
func (l *robotsLayer) parsed(rec robotsRecord) *robotsState {
	st := &robotsState{rec: rec}
	switch {
	case rec.Policy == "parse":
		// Parsed up to robots.max_bytes: the rules an operator asked to be
		// read are the rules applied (get reads one octet more, to know
		// whether the line at the limit is whole). A body cut shorter (by
		// a smaller robots.max_bytes of an earlier run, a timeout or a
		// disconnect) is parsed up to its last whole line only: its cut
		// last line is not a rule.
		limit := int(l.cfg.MaxBytes)
		if rec.Truncated && len(rec.Body) <= limit {
			limit = len(rec.Body) - 1
		}
		st.robots = robots.ParseLimit(rec.Body, max(limit, 1))
	case rec.Outcome == outcomeUnavailable:
		// A 4xx: the policy is the current robots.forbidden_disallows's,
		// not that of the run that fetched it. A 401/403 under it
		// disallows all, and its verdicts say access was restricted.
		opts := robots.PolicyOptions{RestrictedDisallows: l.cfg.ForbiddenDisallows}
		st.robots = robots.FromFetch(rec.Status, nil, nil, opts)
		st.rec.Policy = "allow-all"
		if robots.Classify(rec.Status, nil, opts) == robots.Restricted {
			st.rec.Policy = "disallow-all"
		}
	case rec.Policy == "disallow-all":
		st.robots = robots.DisallowAll()
	default:
		st.robots = robots.AllowAll()
	}
	st.group = st.robots.Group(l.agent)
	return st
}

// put caches st as its authority's state, replacing any, and applies the
// cache's bounds. It returns st. l.mu is held.
func (l *robotsLayer) put(st *robotsState) *robotsState {
	a := st.rec.Authority
	if old := l.states[a]; old != nil {
		l.drop(old)
	}
	if l.squeeze.dropped[a] {
		delete(l.squeeze.dropped, a)
		l.squeeze.reloaded++
	}
	st.elem = l.lru.PushFront(a)
	l.states[a] = st
	l.bytes += st.size
	l.evict()
	return st
}

// drop removes st from the cache. l.mu is held.
func (l *robotsLayer) drop(st *robotsState) {
	l.lru.Remove(st.elem)
	delete(l.states, st.rec.Authority)
	l.bytes -= st.size
}

// evict drops least recently used entries beyond the cache's bounds. Past
// robots.cache_size it drops only hosts with no queued or in-flight URLs.
// Past robots.cache_bytes it drops those first, then busy hosts too, all
// but the most recent entry (the one in use): a busy host's file is read
// again from the store when the host is next leased, which costs a parse
// but keeps memory bounded whatever the robots.txt files are. l.mu is held.
func (l *robotsLayer) evict() {
	busy := func(a string) bool { return l.busy != nil && l.busy(a) }
	over := func() bool { return len(l.states) > l.cfg.CacheSize || l.bytes > l.cfg.CacheBytes }
	for e := l.lru.Back(); e != nil && e != l.lru.Front() && over(); {
		prev := e.Prev()
		if a := e.Value.(string); !busy(a) {
			l.drop(l.states[a])
		}
		e = prev
	}
	for e := l.lru.Back(); e != nil && e != l.lru.Front() && l.bytes > l.cfg.CacheBytes; {
		prev := e.Prev()
		a := e.Value.(string)
		l.drop(l.states[a])
		l.squeeze.busyDropped++
		if l.squeeze.dropped == nil {
			l.squeeze.dropped = map[string]bool{}
		}
		l.squeeze.dropped[a] = true
		if l.squeeze.busyDropped == 1 && l.warn != nil {
			l.warn("robots cache full: parsed robots.txt files of hosts with queued URLs are dropped and parsed again when needed; raise robots.cache_bytes if the crawl slows",
				"cache_bytes", l.cfg.CacheBytes, "host", a)
		}
		e = prev
	}
}

// squeezed returns what robots.cache_bytes made the cache do so far.
func (l *robotsLayer) squeezed() (busyDropped, reloaded int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.squeeze.busyDropped, l.squeeze.reloaded
}

// permit implements gate for the polite transport.
func (l *robotsLayer) permit(authority, target string) error {
	st, _ := l.cached(authority, time.Time{})
	if st == nil {
		return fmt.Errorf("crawler: robots.txt of %s not fetched yet", authority)
	}
	if !st.good() {
		return fmt.Errorf("crawler: robots.txt of %s unreachable", authority)
	}
	if v := st.group.Allowed(target); !v.Allowed {
		return fmt.Errorf("crawler: %s disallowed: %s", target, refusal(st, v, l.agent))
	}
	return nil
}

// refusal says in words what refused a URL: the robots.txt rule, or, when
// no line decided, the policy that stood in for the file (a 401/403 under
// robots.forbidden_disallows, as `crawl robots check` words it).
func refusal(st *robotsState, v robots.Verdict, agent string) string {
	switch v.Reason {
	case robots.ReasonUnauthorized:
		return fmt.Sprintf("robots.txt HTTP %d: access restricted; everything but /robots.txt is disallowed "+
			"(robots.forbidden_disallows: 401 and 403 disallow all, as the 1996 draft recommended; RFC 9309 2.3.1.3 alone would allow all)", st.rec.Status)
	case robots.ReasonUnreachable:
		return fmt.Sprintf("robots.txt unreachable (%s): everything but /robots.txt is disallowed (RFC 9309 2.3.1.4)", describeFailure(st.rec))
	}
	return fmt.Sprintf("robots.txt line %d %q disallows it for %s", v.Line, v.Rule, agent)
}

// refresh fetches authority's robots.txt now (single-flight) and returns the
// state in force afterwards.
func (l *robotsLayer) refresh(ctx context.Context, authority string) (*robotsState, error) {
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
	c := &robotsCall{done: make(chan struct{})}
	l.inflight[authority] = c
	prev := l.states[authority]
	l.mu.Unlock()

	if prev == nil {
		prev, _ = l.cached(authority, time.Time{})
	}
	rec, err := l.fetch(ctx, authority, prev)
	if err == nil {
		// Persisted before it is cached: a concurrent cached() that
		// finds no state reads this copy from the store, not the last.
		if data, merr := json.Marshal(rec); merr == nil {
			if perr := l.store.PutRobots(authority, data); perr != nil {
				err = fmt.Errorf("crawler: persist robots.txt of %s: %w", authority, perr)
			}
		}
		st := l.prepare(rec)
		l.mu.Lock()
		c.state = l.put(st)
		l.mu.Unlock()
	}
	c.err = err
	l.mu.Lock()
	delete(l.inflight, authority)
	l.mu.Unlock()
	close(c.done)
	return c.state, c.err
}

// fetch performs the fetch with up to five redirects (across hosts, each hop
// paced by its own host) and maps the outcome to a policy per RFC 9309 2.3.1.
// It returns an error only when the fetch could not be attempted (the context
// ended, or the host is parked); an unreachable host is an outcome.
func (l *robotsLayer) fetch(ctx context.Context, authority string, prev *robotsState) (robotsRecord, error) {
	target := scheduler.RobotsURL(authority)
	rec := robotsRecord{Authority: authority, URL: target}
	var status int
	var body []byte
	var fetchErr error
	var hdr http.Header
	var last *exchange
	var lastEntry crawllog.RobotsEntry
	var copyExpires time.Time // the expiry of another host's copy that answered
	var turn func()           // ends this fetch's turn at another host's robots.txt (copyOrTurn)
	defer func() {
		if turn != nil {
			turn()
		}
	}()
	for hop := 0; ; hop++ {
		if turn != nil {
			turn() // a fetch holds one turn at most, so turns cannot wait on each other
			turn = nil
		}
		st, t, err := l.copyOrTurn(ctx, hop, authority, target)
		if err != nil {
			return rec, err
		}
		turn = t
		if st != nil {
			// A redirect to another host's robots.txt, which the cache
			// holds fresh: its copy answers, with no request (N hosts
			// redirecting to one, as http://a to https://www.a, made N
			// requests to it, each waited for in a worker).
			status, body, hdr, rec.Truncated, copyExpires = st.rec.Status, st.rec.Body, nil, st.rec.Truncated, st.rec.Expires
			last = &exchange{URL: target}
			lastEntry = crawllog.RobotsEntry{Time: time.Now().UTC(), Host: authority, URL: target, Status: status, Bytes: int64(len(body)),
				Redirects: append([]string{}, rec.Redirects...), Truncated: rec.Truncated, CopyOf: st.rec.Authority}
			break
		}
		ex, err := l.get(ctx, target, scheduler.Authority(mustURL(target)) != authority)
		if ex.Start.IsZero() && err != nil {
			var wait *scheduler.WaitError
			if hop == 0 || ctx.Err() != nil || !errors.As(err, &wait) {
				// Never sent: the pace refused (parked, deferred) or ctx ended.
				return rec, err
			}
			// A redirect to a host whose pace refuses it now (deferred,
			// parked or dropped) cannot be followed: that is this host's
			// outcome, an unreachable robots.txt tried again with the
			// usual back-off (RFC 9309 2.3.1.4). Returned as "not sent",
			// it had this host ask for its robots.txt at every turn of
			// its pace, and the crawl never ended.
			fetchErr = fmt.Errorf("crawler: robots.txt redirects to %s, which cannot be asked now: %w", target, err)
			last = ex
			lastEntry = crawllog.RobotsEntry{Time: time.Now().UTC(), Host: authority, URL: target,
				Redirects: append([]string{}, rec.Redirects...), Error: fetchErr.Error()}
			status, body, hdr = 0, nil, nil
			break
		}
		last = ex
		lastEntry = crawllog.RobotsEntry{Time: ex.Start.UTC(), Host: authority, URL: target, Status: ex.Status, Bytes: int64(len(ex.Body)),
			DurationMS: float64(ex.Duration) / float64(time.Millisecond), Redirects: append([]string{}, rec.Redirects...), Truncated: l.truncated(ex)}
		if ex.stopped {
			// Aborted because the crawl is stopping: not an outcome of the
			// host. Nothing is logged, stored or counted; the robots lease
			// stays queued and the next run fetches robots.txt again.
			return rec, ctx.Err()
		}
		if err != nil {
			fetchErr = err
			lastEntry.Error = err.Error()
			break
		}
		status, body, hdr = ex.Status, ex.Body, ex.Header
		loc := ex.Header.Get("Location")
		if status < 300 || status >= 400 || loc == "" || hop == maxRobotsRedirects {
			rec.Truncated = l.truncated(ex)
			break
		}
		next, perr := url.Parse(loc)
		base, _ := url.Parse(target)
		if perr != nil || base == nil {
			break
		}
		to := base.ResolveReference(next).String()
		if l.maxURL > 0 && len(to) > l.maxURL {
			// Not followed, as a redirect past the fifth is not: the 3xx
			// stands (RFC 9309 2.3.1.2), and the log says why.
			lastEntry.Error = fmt.Sprintf("crawler: robots.txt redirects to a URL of %d octets, longer than %d (scope.max_url_length): not followed", len(to), l.maxURL)
			break
		}
		lastEntry.Outcome = outcomeRedirect
		l.onFetch(lastEntry, ex)
		target = to
		rec.Redirects = append(rec.Redirects, target)
	}
	defer func() {
		lastEntry.Outcome, lastEntry.Expires = rec.Outcome, rec.Expires
		if rec.Stale {
			lastEntry.Outcome = outcomeUnreachable
		}
		if lastEntry.Error == "" {
			lastEntry.Error = rec.Error // a body that did not decode
		}
		l.onFetch(lastEntry, last)
	}()
	// Retries and the cache lifetime count from the answer, not from the
	// request: the host saw the request at the latest when it answered.
	now := time.Now()
	rec.Status, rec.Fetched = status, now
	class := robots.Classify(status, fetchErr, robots.PolicyOptions{RestrictedDisallows: l.cfg.ForbiddenDisallows})
	var content []byte
	if class == robots.Available {
		// At most MaxBytes+1 octets, coded or not: get caps the
		// transport's read (ex.limit), and decodeRobots the decoded text.
		var cut bool
		var derr error
		if content, cut, derr = decodeRobots(hdr, body, l.cfg.MaxBytes+1); derr != nil {
			// A body the crawler cannot read is no file it could follow:
			// it stands for a server error (RFC 9309 2.3.1.4), and is
			// tried again like one.
			fetchErr, class = derr, robots.Unreachable
		} else if cut || int64(len(content)) > l.cfg.MaxBytes {
			rec.Truncated = true
		}
	}
	switch class {
	case robots.Available:
		rec.Outcome, rec.Policy = outcomeParsed, "parse"
		rec.Body = content
	case robots.Unavailable:
		rec.Outcome, rec.Policy = outcomeUnavailable, "allow-all"
	case robots.Restricted:
		rec.Outcome, rec.Policy = outcomeUnavailable, "disallow-all"
	default:
		rec.Outcome, rec.Policy = outcomeUnreachable, "disallow-all"
	}
	if fetchErr != nil {
		rec.Error = fetchErr.Error()
	}
	if rec.Outcome == outcomeUnreachable {
		failures := 1
		if prev != nil {
			failures = prev.rec.Failures + 1
		}
		wait := l.cfg.RetryBase << min(failures-1, 10)
		if prev != nil && prev.good() {
			// RFC 9309 2.4: a previous good copy may be used while the
			// host is unreachable.
			stale := prev.rec
			stale.Stale, stale.Failures, stale.Expires = true, failures, now.Add(wait)
			stale.Error = rec.Error
			rec.Expires, rec.Stale = stale.Expires, true
			return stale, nil
		}
		rec.Failures, rec.Expires = failures, now.Add(wait)
		return rec, nil
	}
	rec.Expires = now.Add(ttlFor(hdr, l.cfg.CacheTTL))
	if !copyExpires.IsZero() && copyExpires.Before(rec.Expires) {
		rec.Expires = copyExpires
	}
	if copyExpires.IsZero() && len(rec.Redirects) > 0 && (rec.Status < 300 || rec.Status >= 400) {
		// The answer of the host the redirects ended on, not a redirect
		// cut short (its own fetch would follow it further).
		l.adopt(rec, target)
	}
	return rec, nil
}

// adopt keeps the answer a redirect led to as the robots.txt of its own
// host too, when target is exactly another host's /robots.txt that the
// cache does not hold fresh: the next host redirected there is answered by
// it (copyOrTurn), with no request, and so is that host's own robots.txt
// lease. 8 hosts redirecting to one host that is not crawled itself asked
// it 8 times.
func (l *robotsLayer) adopt(rec robotsRecord, target string) {
	other := robotsFileOf(target)
	if other == "" || other == rec.Authority {
		return
	}
	if st, fresh := l.cached(other, time.Now()); st != nil && fresh {
		return
	}
	rec.Authority, rec.URL, rec.Redirects = other, target, nil
	data, err := json.Marshal(rec)
	if err != nil || l.store.PutRobots(other, data) != nil {
		return
	}
	st := l.prepare(rec)
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
func (l *robotsLayer) copyOrTurn(ctx context.Context, hop int, authority, target string) (*robotsState, func(), error) {
	if hop == 0 {
		return nil, nil, nil
	}
	other := robotsFileOf(target)
	if other == "" || other == authority {
		return nil, nil, nil
	}
	for {
		if st, fresh := l.cached(other, time.Now()); st != nil && fresh && st.good() && !st.rec.Stale {
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

// truncated reports whether a robots.txt answer was cut: by the timeout or
// a disconnect, or by robots.max_bytes (the body holds the one octet past
// the limit that tells a whole last line from a cut one; the parser drops
// it, and the rules past the limit).
func (l *robotsLayer) truncated(ex *exchange) bool {
	return ex.truncated() || int64(len(ex.Body)) > l.cfg.MaxBytes
}

// get sends one GET through the polite transport and returns what it saw.
// hop marks a redirect hop to another host than the lease's: it takes a
// place among that host's requests in flight (Scheduler.WaitHop).
func (l *robotsLayer) get(ctx context.Context, target string, hop bool) (*exchange, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return &exchange{URL: target}, err
	}
	id, ex := l.tr.track()
	defer l.tr.untrack(id)
	ex.robots, ex.limit, ex.hop = true, l.cfg.MaxBytes+1, hop
	req.Header.Set(jobHeader, id)
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

// ttlFor returns how long a robots.txt may be used: Cache-Control max-age
// within [minRobotsTTL, ttl], else ttl.
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
		return max(min(d, ttl), min(minRobotsTTL, ttl))
	}
	return ttl
}

// rulesOf maps the robots.txt group st applies to agent to the
// scheduler's rules: its pace, and its verdict on URLs until st expires,
// worded as the crawler's own check at lease time words it (refusal), so
// that a skip reads the same whichever refuses the URL. The verdict reads
// only st, which is not changed once installed: the scheduler may call it
// under its lock.
//
// The verdict holds st weakly. The scheduler keeps every host's rules for
// the whole run, and a parsed robots.txt (its body and compiled matcher)
// belongs in the robots cache, bounded by robots.cache_size and
// robots.cache_bytes: once st has left the cache and been collected, the
// verdict says "not refused", and the crawler's check at lease time
// decides, as it does for a host whose robots.txt was never cached.
func rulesOf(st *robotsState, agent string) scheduler.Rules {
	g := st.group // its matcher was compiled by prepare
	ws := weak.Make(st)
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
			return v.Rule, v.Line, refusal(st, v, agent), true
		},
		RefuseUntil: st.rec.Expires,
	}
	if d, ok := g.CrawlDelay(); ok {
		r.CrawlDelay, r.HasCrawlDelay = d, true
		r.CrawlDelayLine, _ = g.CrawlDelayLine()
	}
	r.RequestRates = g.RequestRates()
	r.VisitTimes = g.VisitTimes()
	return r
}
