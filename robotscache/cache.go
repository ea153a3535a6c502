package robotscache

import (
	"bytes"
	"container/list"
	"net/http"
	"sync"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/wire"
)

// Config tunes the cache: the robots.* settings, the agent whose group
// applies, and the longest redirect target followed.
type Config struct {
	// Agent is the product token the file's groups are matched by.
	Agent string
	// MaxBytes is the most of a file parsed (robots.max_bytes); one octet
	// more is read, to tell a whole last line from a cut one.
	MaxBytes int64
	// CacheTTL is the longest a fetched file is used (robots.cache_ttl).
	CacheTTL time.Duration
	// CacheSize and CacheBytes are the cache's two bounds
	// (robots.cache_size files, robots.cache_bytes bytes).
	CacheSize  int
	CacheBytes int64
	// ForbiddenDisallows reads a 401 or 403 as disallow-all
	// (robots.forbidden_disallows).
	ForbiddenDisallows bool
	// RetryBase is the first wait before an unreachable file is asked
	// for again (robots.retry_base), doubled on each failure.
	RetryBase time.Duration
	// ConnectRetryBase, if set, stands for RetryBase when no copy of the
	// file was ever had and the host cannot be reached at all (its
	// connection refused, its name not resolved: scheduler.Classify's
	// OutcomeUnreachable). The crawler sets the host's own back-off
	// (politeness.backoff_base): the scheduler gives such a host up
	// within scheduler.RefusedGiveUp, and asks this often meanwhile.
	ConnectRetryBase time.Duration
	// MaxURLLength bounds the redirect targets followed
	// (scope.max_url_length); 0: no bound.
	MaxURLLength int
	// Shared says the store is shared with other crawl processes (one
	// frontier in Redis): a copy that expired in memory is read again
	// from the store, where another process may have put a newer one.
	Shared bool
}

// Cache fetches, caches and answers from each authority's robots.txt.
// Fetches are single-flight per authority and go through the Transport,
// so they are paced like every other request. Every entry is persisted
// with the crawl state, and the in-memory cache has two bounds:
// robots.cache_size files, which never forgets a host that still has
// queued URLs, and robots.cache_bytes, which does when it must (a busy
// host's file is parsed again from the crawl state when next needed), so
// that hostile robots.txt files cannot exhaust memory. Build it with New.
// Safe for concurrent use.
type Cache struct {
	// Warn, if set, is told the first time robots.cache_bytes drops the
	// file of a host with queued URLs (with the cache's lock held). Set
	// it before the first fetch.
	Warn func(msg string, args ...any)

	client  *http.Client
	tr      *wire.Transport
	store   Store
	cfg     Config
	busy    func(authority string) bool
	onFetch func(crawllog.RobotsEntry, *wire.Exchange)

	mu       sync.Mutex
	states   map[string]*State
	lru      *list.List // of authority strings, most recent at front
	inflight map[string]*fetchCall
	hopping  map[string]chan struct{} // hosts whose robots.txt a redirect hop is fetching; closed when its answer is adopted
	bytes    int64                    // the sizes of the states, summed
	squeeze  squeeze                  // what robots.cache_bytes made the cache drop
}

// New returns the cache that fetches through tr and gates tr's other
// requests (it becomes tr's Gate). It keeps its records in store. busy
// reports whether an authority has queued or in-flight URLs (nil: none
// has); onFetch is told of every request of a fetch, redirect hops
// included, with what the transport saw of it.
func New(tr *wire.Transport, store Store, cfg Config, busy func(string) bool, onFetch func(crawllog.RobotsEntry, *wire.Exchange)) *Cache {
	l := &Cache{
		client: &http.Client{
			Transport:     tr,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		tr: tr, store: store, cfg: cfg, busy: busy, onFetch: onFetch,
		states: map[string]*State{}, lru: list.New(), inflight: map[string]*fetchCall{}, hopping: map[string]chan struct{}{},
	}
	tr.Gate = l
	return l
}

// Cached returns the robots.txt state for authority from memory or the
// store, without fetching. fresh reports whether it is within its TTL at
// now. A file read from the store is parsed without holding the cache's
// lock, and cached only if the store still holds it then: a refresh
// persists its copy before caching it, so a newer copy cached, then
// dropped under robots.cache_bytes while this one was parsed, is not
// replaced by it. With Config.Shared, a copy expired at now gives way to a
// newer one another process stored.
func (l *Cache) Cached(authority string, now time.Time) (st *State, fresh bool) {
	var loaded *State
	var loadedFrom []byte
	for {
		l.mu.Lock()
		if st = l.states[authority]; st != nil {
			if !l.newerStored(st, now) {
				break
			}
			l.drop(st)
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
		rec, ok := l.stored(data)
		if !ok {
			return nil, false
		}
		loaded, loadedFrom = Prepare(l.cfg, rec), data
	}
	l.lru.MoveToFront(st.elem)
	l.mu.Unlock()
	return st, now.Before(st.rec.Expires)
}

// stored reads a record from its stored form. An earlier run wrote the
// expiry under its robots.cache_ttl; a shorter one in force now holds
// for the copies it left too.
func (l *Cache) stored(data []byte) (Record, bool) {
	rec, err := decodeRecord(data)
	if err != nil {
		return rec, false
	}
	if ttl := rec.Fetched.Add(l.cfg.CacheTTL); rec.Outcome != OutcomeUnreachable && !rec.Fetched.IsZero() && ttl.Before(rec.Expires) {
		rec.Expires = ttl
	}
	return rec, true
}

// Peek returns the robots.txt state for authority to read what it says:
// the cached one, or one parsed from the store that is neither cached nor
// compiled for matching (the summary of a crawl of many hosts reads every
// host's file once). Nil if none was stored.
func (l *Cache) Peek(authority string) *State {
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
	rec, err := decodeRecord(data)
	if err != nil {
		return nil
	}
	return parsed(l.cfg, rec)
}

// newerStored reports whether, in a shared store, a copy newer than st
// (fetched later) was stored since st was cached, st having expired at
// now. l.mu is held.
func (l *Cache) newerStored(st *State, now time.Time) bool {
	if !l.cfg.Shared || now.IsZero() || now.Before(st.rec.Expires) {
		return false
	}
	data, ok := l.store.GetRobots(st.rec.Authority)
	if !ok {
		return false
	}
	rec, ok := l.stored(data)
	return ok && rec.Fetched.After(st.rec.Fetched)
}
