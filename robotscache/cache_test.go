package robotscache

import (
	"context"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
	"github.com/crawlproject/crawl/wire"
)

// newTestLayer builds a robots cache over a fast scheduler (no default
// delay, no margin; the crawl's back-off and body cap), as a crawl does.
func newTestLayer(t *testing.T, cfg Config, busy func(string) bool) (*Cache, *[]crawllog.RobotsEntry) {
	t.Helper()
	sc := scheduler.DefaultConfig()
	sc.DefaultDelay, sc.Margin = 0, 0
	sc.BackoffBase, sc.Workers, sc.RequestTimeout = 2*time.Second, 16, 30*time.Second
	store := scheduler.NewMemStore()
	sched, err := scheduler.Open(sc, store)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sched.Close() })
	tr := wire.NewTransport(sched, "testbot/0.1.0", 10<<20, 2*time.Second)
	var log []crawllog.RobotsEntry
	l := New(tr, store, cfg, busy, func(e crawllog.RobotsEntry, _ *wire.Exchange) { log = append(log, e) })
	return l, &log
}

// testRobotsConfig is the crawl's default robots.* settings for agent
// testbot, retried soon.
func testRobotsConfig() Config {
	return Config{Agent: "testbot", MaxBytes: 512 << 10, CacheTTL: 24 * time.Hour, CacheSize: 10000, CacheBytes: 256 << 20,
		RetryBase: 50 * time.Millisecond, MaxURLLength: 2048}
}

// RFC 9309 2.4: a crawler may keep using a cached copy while the host is
// unreachable, and retries later rather than giving up for the run.
func TestRobotsLayerUsesGoodCopyWhileUnreachable(t *testing.T) {
	var down atomic.Bool
	h := newTestHost(t)
	h.robots = func(w http.ResponseWriter, _ *http.Request) {
		if down.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Cache-Control", "max-age=0")
		fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
	}
	l, log := newTestLayer(t, testRobotsConfig(), nil)
	a := h.srv.URL
	st, err := l.Refresh(context.Background(), a)
	if err != nil || st.rec.Outcome != OutcomeParsed {
		t.Fatalf("first fetch: %v %+v", err, st)
	}
	// max-age=0 is floored at minTTL, not refetched per page.
	if ttl := st.rec.Expires.Sub(st.rec.Fetched); ttl != minTTL {
		t.Errorf("cache lifetime %v, want the %v floor", ttl, minTTL)
	}
	down.Store(true)
	st, err = l.Refresh(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Good() || !st.rec.Stale || st.rec.Failures != 1 {
		t.Fatalf("want the previous good copy, marked stale: %+v", st.rec)
	}
	if st.group.Allowed("/private/x").Allowed {
		t.Error("the good copy's rules must still apply")
	}
	if wait := time.Until(st.rec.Expires); wait <= 0 || wait > time.Second {
		t.Errorf("an unreachable host is retried soon with back-off, not cached for the run: expires in %v", wait)
	}
	if n := len(*log); n != 2 || (*log)[1].Outcome != OutcomeUnreachable {
		t.Errorf("every fetch and its outcome must be recorded: %+v", *log)
	}
}

func TestRobotsLayerUnreachableWithoutCopyDisallowsAll(t *testing.T) {
	h := newTestHost(t)
	h.robots = func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTooManyRequests) }
	l, _ := newTestLayer(t, testRobotsConfig(), nil)
	st, err := l.Refresh(context.Background(), h.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if st.Good() || st.rec.Outcome != OutcomeUnreachable {
		t.Fatalf("429 is unreachable (RFC 9309 2.3.1.4): %+v", st.rec)
	}
	if err := l.Permit(h.srv.URL, h.URL("/")); err == nil {
		t.Error("nothing may be fetched from a host whose robots.txt is unreachable")
	}
}

// The cache is bounded but never forgets a host with queued URLs.
func TestRobotsLayerEvictsOnlyIdleHosts(t *testing.T) {
	var hosts []*testHost
	for range 4 {
		h := newTestHost(t)
		h.robotsText("User-agent: *\nDisallow: /x\n")
		hosts = append(hosts, h)
	}
	busy := hosts[0].srv.URL
	cfg := testRobotsConfig()
	cfg.CacheSize = 2
	l, _ := newTestLayer(t, cfg, func(a string) bool { return a == busy })
	for _, h := range hosts {
		if _, err := l.Refresh(context.Background(), h.srv.URL); err != nil {
			t.Fatal(err)
		}
	}
	l.mu.Lock()
	_, kept := l.states[busy]
	n := len(l.states)
	l.mu.Unlock()
	if !kept {
		t.Error("the host with queued URLs was forgotten")
	}
	if n > 2 {
		t.Errorf("cache holds %d entries, bound is 2", n)
	}
	// An evicted idle host comes back from the store without a new fetch.
	before := len(hosts[1].requests())
	if st, fresh := l.Cached(hosts[1].srv.URL, time.Now()); st == nil || !fresh {
		t.Error("evicted entry must reload from the persisted store")
	}
	if len(hosts[1].requests()) != before {
		t.Error("reloading from the store must not refetch")
	}
}

// Redirects are followed across hosts (at most five) and the result applies
// to the original authority; a sixth hop means "unavailable".
func TestRobotsLayerRedirectHops(t *testing.T) {
	final := newTestHost(t)
	final.robotsText("User-agent: *\nDisallow: /only-here\n")
	start := newTestHost(t)
	start.robots = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, final.URL("/robots.txt"), http.StatusFound)
	}
	loop := newTestHost(t)
	n := 0
	loop.robots = func(w http.ResponseWriter, r *http.Request) {
		n++
		http.Redirect(w, r, fmt.Sprintf("/robots.txt?hop=%d", n), http.StatusFound)
	}
	loop.pages["/robots.txt?hop=1"] = loop.robots
	for i := 1; i < 10; i++ {
		loop.pages[fmt.Sprintf("/robots.txt?hop=%d", i)] = loop.robots
	}
	l, _ := newTestLayer(t, testRobotsConfig(), nil)
	st, err := l.Refresh(context.Background(), start.srv.URL)
	if err != nil || st.rec.Outcome != OutcomeParsed || st.group.Allowed("/only-here").Allowed {
		t.Errorf("redirected robots.txt must apply to the original host: %v %+v", err, st.rec)
	}
	st, err = l.Refresh(context.Background(), loop.srv.URL)
	if err != nil || st.rec.Outcome != OutcomeUnavailable || len(loop.requests()) != MaxRedirects+1 {
		t.Errorf("endless redirects: %d requests, outcome %+v, %v", len(loop.requests()), st.rec, err)
	}
}

// A huge robots.txt is read only up to robots.max_bytes (and the one octet
// past it that says whether the last line within it is whole), cut at the
// last whole line by the parser, and recorded as truncated (RFC 9309 2.5).
func TestRobotsLayerCapsTheBodyItReads(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	var sent atomic.Int64
	h.robots = func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /early\n")
		line := []byte("Disallow: /x-filler-line-that-repeats\n")
		for range (8 << 20) / len(line) {
			n, err := w.Write(line)
			sent.Add(int64(n))
			if err != nil {
				return
			}
		}
		fmt.Fprint(w, "Disallow: /late\n")
	}
	cfg := testRobotsConfig()
	l, _ := newTestLayer(t, cfg, nil)
	st, err := l.Refresh(context.Background(), h.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if !st.rec.Truncated || int64(len(st.rec.Body)) != cfg.MaxBytes+1 {
		t.Errorf("body %d bytes, truncated %v; want the %d-byte cap and one octet", len(st.rec.Body), st.rec.Truncated, cfg.MaxBytes)
	}
	if !st.robots.Truncated() || int64(len(st.robots.Body())) > cfg.MaxBytes {
		t.Errorf("parsed %d bytes, truncated %v; want at most the %d-byte limit", len(st.robots.Body()), st.robots.Truncated(), cfg.MaxBytes)
	}
	if st.group.Allowed("/early").Allowed || !st.group.Allowed("/late").Allowed {
		t.Error("rules before the cap apply, rules after it do not")
	}
}

// Two crawl processes share one store (one frontier in Redis): when this
// process's copy has expired and another process stored a newer one, a
// shared cache takes the newer copy; a cache with a store of its own
// keeps reading its own copy until it fetches again.
func TestSharedCacheReadsANewerStoredCopy(t *testing.T) {
	var version atomic.Int32
	h := newTestHost(t)
	h.robots = func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nDisallow: /v%d\n", version.Load())
	}
	for _, shared := range []bool{true, false} {
		cfg := testRobotsConfig()
		cfg.Shared = shared
		l, _ := newTestLayer(t, cfg, nil)
		other := New(l.tr, l.store, cfg, nil, func(crawllog.RobotsEntry, *wire.Exchange) {})
		a := h.srv.URL
		version.Store(1)
		if _, err := l.Refresh(context.Background(), a); err != nil {
			t.Fatal(err)
		}
		version.Store(2)
		time.Sleep(time.Millisecond) // the other copy is fetched later
		if _, err := other.Refresh(context.Background(), a); err != nil {
			t.Fatal(err)
		}
		st, _ := l.Cached(a, time.Now().Add(48*time.Hour)) // past this copy's TTL
		newer := !st.group.Allowed("/v2").Allowed
		if newer != shared {
			t.Errorf("shared %v: the other process's copy taken: %v", shared, newer)
		}
		if st, fresh := l.Cached(a, time.Now()); fresh && shared && st.group.Allowed("/v2").Allowed {
			t.Errorf("shared: the newer copy is not kept in memory")
		}
	}
}
