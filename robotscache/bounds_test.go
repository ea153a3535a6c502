package robotscache

import (
	"context"
	"encoding/json"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/wiretest"
)

// budgetHosts starts n hosts serving body as robots.txt.
func budgetHosts(t *testing.T, n int, body string) []*testHost {
	hs := make([]*testHost, n)
	for i := range hs {
		hs[i] = newTestHost(t)
		hs[i].robotsText(body)
	}
	return hs
}

// cacheContents returns the number of cached states, the cache's byte
// count, and the sizes of its states summed.
func cacheContents(l *Cache) (n int, bytes, sum int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, st := range l.states {
		sum += st.size
	}
	return len(l.states), l.bytes, sum
}

// TestRobotsCacheBytesDropsBusyFilesAndParsesThemAgain: past
// robots.cache_bytes the cache drops even the files of hosts with queued
// URLs, least recently used first, says so once, and a dropped file is
// parsed again from the crawl state, without a request, when its host is
// next served; its rules still apply (RFC 9309 2.4: a crawler may use a
// cached copy).
func TestRobotsCacheBytesDropsBusyFilesAndParsesThemAgain(t *testing.T) {
	t.Parallel()
	body := wiretest.HostileRobots(200<<10, false)
	hs := budgetHosts(t, 6, body)
	l, _ := newTestLayer(t, testRobotsConfig(), func(string) bool { return true })
	var warned []string
	l.Warn = func(msg string, _ ...any) { warned = append(warned, msg) }
	ctx := context.Background()
	st, err := l.Refresh(ctx, hs[0].srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	one := st.size
	// Its body (the record and the parsed file share it) and its rules.
	if one < int64(len(body))+int64(st.robots.Footprint())-int64(len(st.robots.Body())) || one > 20*int64(len(body)) {
		t.Fatalf("a %d-octet file is charged %d bytes (Footprint %d)", len(body), one, st.robots.Footprint())
	}
	l.mu.Lock()
	l.cfg.CacheBytes = 2*one + one/2
	l.mu.Unlock()
	for _, h := range hs[1:] {
		if _, err := l.Refresh(ctx, h.srv.URL); err != nil {
			t.Fatal(err)
		}
	}
	n, bytes, sum := cacheContents(l)
	if n != 2 || bytes != sum || bytes > l.cfg.CacheBytes {
		t.Errorf("cache holds %d files, %d bytes (states sum to %d); want 2 files within %d bytes", n, bytes, sum, l.cfg.CacheBytes)
	}
	if len(warned) != 1 {
		t.Errorf("warned %d times, want once: %q", len(warned), warned)
	}
	before := len(hs[0].requests())
	st, fresh := l.Cached(hs[0].srv.URL, time.Now())
	if st == nil || !fresh {
		t.Fatalf("a dropped file must come back from the crawl state: %v, fresh %v", st, fresh)
	}
	if v := st.group.Allowed("/secret/x"); v.Allowed || v.Line != 2 {
		t.Errorf("/secret/x after the file was parsed again: %+v; want disallowed by line 2", v)
	}
	if len(hs[0].requests()) != before {
		t.Error("parsing a dropped file again must not fetch it")
	}
	// Installs 3 to 6 dropped hosts 0 to 3; bringing host 0 back drops host 4.
	if dropped, reloaded := l.Squeezed(); dropped != 5 || reloaded != 1 {
		t.Errorf("squeezed: %d dropped, %d parsed again; want 5 and 1", dropped, reloaded)
	}
}

// TestRobotsPeekLeavesTheCacheAlone: reading a host's file for the
// summary parses a dropped file from the crawl state without caching it,
// so it neither evicts a file in use nor counts as parsed again.
func TestRobotsPeekLeavesTheCacheAlone(t *testing.T) {
	t.Parallel()
	hs := budgetHosts(t, 3, wiretest.HostileRobots(100<<10, false))
	l, _ := newTestLayer(t, testRobotsConfig(), func(string) bool { return true })
	ctx := context.Background()
	st, err := l.Refresh(ctx, hs[0].srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	l.cfg.CacheBytes = st.size + st.size/2
	l.mu.Unlock()
	for _, h := range hs[1:] {
		if _, err := l.Refresh(ctx, h.srv.URL); err != nil {
			t.Fatal(err)
		}
	}
	n, bytes, _ := cacheContents(l)
	p := l.Peek(hs[0].srv.URL)
	if p == nil || !strings.HasPrefix(p.robots.Body(), "User-agent: *") || p.group.Allowed("/secret").Allowed {
		t.Fatalf("peek of a dropped file: %+v", p)
	}
	if n2, bytes2, _ := cacheContents(l); n2 != n || bytes2 != bytes {
		t.Errorf("peek changed the cache: %d files, %d bytes; was %d, %d", n2, bytes2, n, bytes)
	}
	if _, reloaded := l.Squeezed(); reloaded != 0 {
		t.Errorf("peek counted as parsing a dropped file again (%d)", reloaded)
	}
	if l.Peek("http://never.test:80") != nil {
		t.Error("peek of a host with no stored file must be nil")
	}
}

// TestRobotsCacheBytesDropsIdleFilesFirst: the byte bound drops the files
// of hosts with nothing queued before any busy host's, so a crawl's working
// set stays parsed.
func TestRobotsCacheBytesDropsIdleFilesFirst(t *testing.T) {
	t.Parallel()
	hs := budgetHosts(t, 4, wiretest.HostileRobots(100<<10, false))
	busy := hs[0].srv.URL
	l, _ := newTestLayer(t, testRobotsConfig(), func(a string) bool { return a == busy })
	ctx := context.Background()
	st, err := l.Refresh(ctx, busy)
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	l.cfg.CacheBytes = 2*st.size + st.size/2
	l.mu.Unlock()
	for _, h := range hs[1:] {
		if _, err := l.Refresh(ctx, h.srv.URL); err != nil {
			t.Fatal(err)
		}
	}
	l.mu.Lock()
	_, kept := l.states[busy]
	l.mu.Unlock()
	if !kept {
		t.Error("the busy host's file was dropped while idle hosts' files could go")
	}
	if n, _, _ := cacheContents(l); n != 2 {
		t.Errorf("cache holds %d files, want 2", n)
	}
	if dropped, _ := l.Squeezed(); dropped != 0 {
		t.Errorf("%d busy files dropped, want none", dropped)
	}
}

// TestRobotsCacheBytesBoundsMemory: twenty hosts with queued URLs, each
// serving 500 KiB of wildcard rules (what RFC 9309 2.5 asks a crawler to
// parse), cost about 7 MB each once parsed and checked; with
// robots.cache_bytes at 16 MiB the live heap grows by that and the
// crawl state's copies of the bodies, not by 140 MB.
func TestRobotsCacheBytesBoundsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 10 MB of robots.txt")
	}
	const hosts, budget = 20, 16 << 20
	body := wiretest.HostileRobots(500<<10, true)
	hs := budgetHosts(t, hosts, body)
	cfg := testRobotsConfig()
	cfg.CacheBytes = budget
	l, _ := newTestLayer(t, cfg, func(string) bool { return true })
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	base := heap()
	ctx := context.Background()
	for _, h := range hs {
		if _, err := l.Refresh(ctx, h.srv.URL); err != nil {
			t.Fatal(err)
		}
	}
	grown := int64(heap()) - int64(base)
	// The store keeps each body as JSON (base64, 4/3 of it).
	stored := int64(hosts * len(body) * 4 / 3)
	if limit := budget + stored + 8<<20; grown > limit {
		t.Errorf("heap grew by %d MB with robots.cache_bytes %d MB; want at most %d MB", grown>>20, budget>>20, limit>>20)
	}
	if _, bytes, _ := cacheContents(l); bytes > budget {
		t.Errorf("cache counts %d bytes, over its %d", bytes, budget)
	}
	runtime.KeepAlive(l)
}

// swappingStore is a robots store whose first GetRobots of an authority
// answers with what it held and then stores next in its place, as a
// refresh that persists a newer copy while a reader parses the old one.
type swappingStore struct {
	Store
	next    []byte
	swapped bool
}

func (s *swappingStore) GetRobots(a string) ([]byte, bool) {
	data, ok := s.Store.GetRobots(a)
	if !s.swapped {
		s.swapped = true
		s.Store.PutRobots(a, s.next)
	}
	return data, ok
}

// TestRobotsCachedDoesNotReplaceANewerCopy: a file read from the crawl
// state is parsed outside the cache's lock; if a refresh persisted a newer
// copy meanwhile (and robots.cache_bytes dropped it from the cache again),
// the older copy must not be cached in its place: the newer one is read
// (RFC 9309 2.4: the cached copy is the last one fetched).
func TestRobotsCachedDoesNotReplaceANewerCopy(t *testing.T) {
	l, _ := newTestLayer(t, testRobotsConfig(), nil)
	a := "http://a.test:80"
	rec := func(body string, fetched time.Time) []byte {
		data, err := json.Marshal(Record{Authority: a, URL: a + "/robots.txt", Status: 200, Outcome: OutcomeParsed,
			Policy: "parse", Body: []byte(body), Fetched: fetched, Expires: fetched.Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	now := time.Now()
	l.store.PutRobots(a, rec("User-agent: *\nDisallow: /old\n", now.Add(-time.Minute)))
	l.store = &swappingStore{Store: l.store, next: rec("User-agent: *\nDisallow: /new\n", now)}
	st, fresh := l.Cached(a, now)
	if st == nil || !fresh {
		t.Fatalf("cached: %v, fresh %v", st, fresh)
	}
	if st.group.Allowed("/new").Allowed || !st.group.Allowed("/old").Allowed {
		t.Errorf("cached the copy read before the store changed: /new %v, /old %v; want the newer file (Disallow: /new)",
			st.group.Allowed("/new"), st.group.Allowed("/old"))
	}
}

// TestRobotsCacheTTLLoweredOnResume: robots.cache_ttl lowered for a
// resumed crawl holds for the copies an earlier run left in the frontier
// with its own, longer expiry (README: the flag, the environment or the
// config in force decides; RFC 9309 2.4 sets only the upper bound).
func TestRobotsCacheTTLLoweredOnResume(t *testing.T) {
	cfg := testRobotsConfig()
	cfg.CacheTTL = 5 * time.Second
	l, _ := newTestLayer(t, cfg, nil)
	a := "http://a.test:80"
	now := time.Now()
	put := func(fetched time.Time, outcome string) {
		data, err := json.Marshal(Record{Authority: a, URL: a + "/robots.txt", Status: 200, Outcome: outcome,
			Policy: "parse", Body: []byte("User-agent: *\nDisallow:\n"), Fetched: fetched, Expires: fetched.Add(24 * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		l.store.PutRobots(a, data)
	}
	put(now.Add(-time.Minute), OutcomeParsed)
	if st, fresh := l.Cached(a, now); st == nil || fresh {
		t.Errorf("a copy fetched a minute ago under a 24h TTL is fresh with cache_ttl 5s: %v", fresh)
	}
	l, _ = newTestLayer(t, cfg, nil)
	put(now.Add(-2*time.Second), OutcomeParsed)
	if st, fresh := l.Cached(a, now); st == nil || !fresh {
		t.Errorf("a copy fetched 2s ago is not fresh with cache_ttl 5s: %v", fresh)
	}
}
