package crawler

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

// hostileRobots returns a robots.txt of about size octets for every agent:
// "Disallow: /secret" and then one rule per line, prefix rules or, with
// wild, rules with wildcards and an end anchor. RFC 9309 2.5 asks crawlers
// to parse at least 500 KiB of it.
func hostileRobots(size int, wild bool) string {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /secret\n")
	for i := 0; b.Len() < size; i++ {
		if wild {
			fmt.Fprintf(&b, "Disallow: /*%x*q=%x$\n", i*2654435761%(1<<32), i)
		} else {
			fmt.Fprintf(&b, "Disallow: /%x/%x\n", i*2654435761%(1<<32), i)
		}
	}
	return b.String()
}

// budgetHosts starts n hosts serving body as robots.txt.
func budgetHosts(t *testing.T, n int, body string) []*testHost {
	var hs []*testHost
	for range n {
		h := newTestHost(t)
		h.robotsText(body)
		hs = append(hs, h)
	}
	return hs
}

// cacheContents returns the number of cached states, the layer's byte
// count, and the sizes of its states summed.
func cacheContents(l *robotsLayer) (n int, bytes, sum int64) {
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
	body := hostileRobots(200<<10, false)
	hs := budgetHosts(t, 6, body)
	l, _ := newTestLayer(t, testRobotsConfig(), func(string) bool { return true })
	var warned []string
	l.warn = func(msg string, _ ...any) { warned = append(warned, msg) }
	ctx := context.Background()
	st, err := l.refresh(ctx, hs[0].srv.URL)
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
		if _, err := l.refresh(ctx, h.srv.URL); err != nil {
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
	st, fresh := l.cached(hs[0].srv.URL, time.Now())
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
	if dropped, reloaded := l.squeezed(); dropped != 5 || reloaded != 1 {
		t.Errorf("squeezed: %d dropped, %d parsed again; want 5 and 1", dropped, reloaded)
	}
}

// TestRobotsPeekLeavesTheCacheAlone: reading a host's file for the
// summary parses a dropped file from the crawl state without caching it,
// so it neither evicts a file in use nor counts as parsed again.
func TestRobotsPeekLeavesTheCacheAlone(t *testing.T) {
	t.Parallel()
	hs := budgetHosts(t, 3, hostileRobots(100<<10, false))
	l, _ := newTestLayer(t, testRobotsConfig(), func(string) bool { return true })
	ctx := context.Background()
	st, err := l.refresh(ctx, hs[0].srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	l.cfg.CacheBytes = st.size + st.size/2
	l.mu.Unlock()
	for _, h := range hs[1:] {
		if _, err := l.refresh(ctx, h.srv.URL); err != nil {
			t.Fatal(err)
		}
	}
	n, bytes, _ := cacheContents(l)
	p := l.peek(hs[0].srv.URL)
	if p == nil || !strings.HasPrefix(p.robots.Body(), "User-agent: *") || p.group.Allowed("/secret").Allowed {
		t.Fatalf("peek of a dropped file: %+v", p)
	}
	if n2, bytes2, _ := cacheContents(l); n2 != n || bytes2 != bytes {
		t.Errorf("peek changed the cache: %d files, %d bytes; was %d, %d", n2, bytes2, n, bytes)
	}
	if _, reloaded := l.squeezed(); reloaded != 0 {
		t.Errorf("peek counted as parsing a dropped file again (%d)", reloaded)
	}
	if l.peek("http://never.test:80") != nil {
		t.Error("peek of a host with no stored file must be nil")
	}
}

// TestRobotsCacheBytesDropsIdleFilesFirst: the byte bound drops the files
// of hosts with nothing queued before any busy host's, so a crawl's working
// set stays parsed.
func TestRobotsCacheBytesDropsIdleFilesFirst(t *testing.T) {
	t.Parallel()
	hs := budgetHosts(t, 4, hostileRobots(100<<10, false))
	busy := hs[0].srv.URL
	l, _ := newTestLayer(t, testRobotsConfig(), func(a string) bool { return a == busy })
	ctx := context.Background()
	st, err := l.refresh(ctx, busy)
	if err != nil {
		t.Fatal(err)
	}
	l.mu.Lock()
	l.cfg.CacheBytes = 2*st.size + st.size/2
	l.mu.Unlock()
	for _, h := range hs[1:] {
		if _, err := l.refresh(ctx, h.srv.URL); err != nil {
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
	if dropped, _ := l.squeezed(); dropped != 0 {
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
	body := hostileRobots(500<<10, true)
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
		if _, err := l.refresh(ctx, h.srv.URL); err != nil {
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

// TestCrawlWithinRobotsCacheBytes: a crawl of four hosts whose 500 KiB
// robots.txt files each take more than the whole robots.cache_bytes once
// parsed: every host's file is dropped and parsed again in turn, and the
// crawl still fetches every allowed page, never a disallowed one (RFC 9309
// 2.2.2), fetches each robots.txt once, and says in its log that the cache
// was full.
func TestCrawlWithinRobotsCacheBytes(t *testing.T) {
	t.Parallel()
	body := hostileRobots(500<<10, false)
	hs := budgetHosts(t, 4, body)
	var seeds []string
	for _, h := range hs {
		h.html("/", "/a", "/b", "/secret/x")
		h.html("/a", "/b", "/secret/y")
		h.html("/b")
		seeds = append(seeds, h.URL("/"))
	}
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 20 * time.Millisecond
	cfg.Robots.CacheBytes = minRobotsCacheBytes
	var logBuf strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, &logBuf}, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	sum, err := Run(ctx, cfg, Options{Seeds: seeds, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	// The summary reads every host's file, cached or not.
	for _, h := range sum.Hosts {
		if h.Robots == nil || h.Robots.Outcome != outcomeParsed || !strings.HasPrefix(h.Robots.Body, "User-agent: *\nDisallow: /secret\n") {
			t.Errorf("summary of %s: robots %+v; want the parsed file", h.Host, h.Robots)
		}
	}
	if len(sum.Hosts) != len(hs) {
		t.Errorf("summary lists %d hosts, want %d", len(sum.Hosts), len(hs))
	}
	for _, h := range hs {
		h.assertRobotsFirst()
		h.assertNever("/secret")
		got := map[string]int{}
		for _, p := range h.paths() {
			got[p]++
		}
		if got["/robots.txt"] != 1 || got["/"] != 1 || got["/a"] != 1 || got["/b"] != 1 {
			t.Errorf("%s: requests %v; want robots.txt, /, /a and /b once each", h.srv.URL, got)
		}
	}
	mu.Lock()
	logged := logBuf.String()
	mu.Unlock()
	if !strings.Contains(logged, "robots cache full") || !strings.Contains(logged, "robots cache was full this run") {
		t.Errorf("the log does not say the robots cache was full:\n%s", logged)
	}
	skips := readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))
	if len(skips) != 8 {
		t.Errorf("%d skips, want /secret/x and /secret/y of each host", len(skips))
	}
	for _, s := range skips {
		if s.Reason != string(scheduler.ReasonRobotsDisallowed) || s.Line != 2 {
			t.Errorf("skip %+v; want robots-disallowed by line 2", s)
		}
	}
}

// lockedWriter serialises writes to w.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// swappingStore is a robots store whose first GetRobots of an authority
// answers with what it held and then stores next in its place, as a
// refresh that persists a newer copy while a reader parses the old one.
type swappingStore struct {
	robotsStore
	next    []byte
	swapped bool
}

func (s *swappingStore) GetRobots(a string) ([]byte, bool) {
	data, ok := s.robotsStore.GetRobots(a)
	if !s.swapped {
		s.swapped = true
		s.robotsStore.PutRobots(a, s.next)
	}
	return data, ok
}

// TestRobotsCachedDoesNotReplaceANewerCopy: a file read from the crawl
// state is parsed outside the layer's lock; if a refresh persisted a newer
// copy meanwhile (and robots.cache_bytes dropped it from the cache again),
// the older copy must not be cached in its place: the newer one is read
// (RFC 9309 2.4: the cached copy is the last one fetched).
func TestRobotsCachedDoesNotReplaceANewerCopy(t *testing.T) {
	l, _ := newTestLayer(t, testRobotsConfig(), nil)
	a := "http://a.test:80"
	rec := func(body string, fetched time.Time) []byte {
		data, err := json.Marshal(robotsRecord{Authority: a, URL: a + "/robots.txt", Status: 200, Outcome: outcomeParsed,
			Policy: "parse", Body: []byte(body), Fetched: fetched, Expires: fetched.Add(time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	now := time.Now()
	l.store.PutRobots(a, rec("User-agent: *\nDisallow: /old\n", now.Add(-time.Minute)))
	l.store = &swappingStore{robotsStore: l.store, next: rec("User-agent: *\nDisallow: /new\n", now)}
	st, fresh := l.cached(a, now)
	if st == nil || !fresh {
		t.Fatalf("cached: %v, fresh %v", st, fresh)
	}
	if st.group.Allowed("/new").Allowed || !st.group.Allowed("/old").Allowed {
		t.Errorf("cached the copy read before the store changed: /new %v, /old %v; want the newer file (Disallow: /new)",
			st.group.Allowed("/new"), st.group.Allowed("/old"))
	}
}

// TestRobotsSummaryKeepsTheFirstFew: a robots.txt of thousands of Comment
// and Sitemap lines and bad lines does not make its host's summary
// megabytes long, nor keep its parsed file alive: the summary keeps the
// first few of each, cut short, and counts the rest.
func TestRobotsSummaryKeepsTheFirstFew(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nComment: " + strings.Repeat("é", 400) + "\n")
	for i := range 99 {
		fmt.Fprintf(&b, "Comment: please %d\nSitemap: http://a.test/s%d.xml\nFrobnicate %d\n", i, i, i)
	}
	b.WriteString("Sitemap: http://a.test/last.xml\n")
	l, _ := newTestLayer(t, testRobotsConfig(), nil)
	st := l.prepare(robotsRecord{Authority: "http://a.test:80", Outcome: outcomeParsed, Policy: "parse", Status: 200, Body: []byte(b.String())})
	r := robotsSummary(st)
	if len(r.Comments) != maxSummaryLines || r.CommentsOmitted != 100-maxSummaryLines {
		t.Errorf("%d comments kept, %d omitted; want %d and %d", len(r.Comments), r.CommentsOmitted, maxSummaryLines, 100-maxSummaryLines)
	}
	if c := r.Comments[0]; len(c) > maxSummaryText+len("…") || !strings.HasSuffix(c, "é…") {
		t.Errorf("a long comment kept as %d octets: %q", len(c), c)
	}
	if len(r.Sitemaps) != maxSummarySitemaps || r.SitemapsOmitted != 100-maxSummarySitemaps {
		t.Errorf("%d sitemaps kept, %d omitted", len(r.Sitemaps), r.SitemapsOmitted)
	}
	if len(r.Warnings) != maxSummaryLines || r.WarningsOmitted < 99-maxSummaryLines {
		t.Errorf("%d warnings kept, %d omitted", len(r.Warnings), r.WarningsOmitted)
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
		data, err := json.Marshal(robotsRecord{Authority: a, URL: a + "/robots.txt", Status: 200, Outcome: outcome,
			Policy: "parse", Body: []byte("User-agent: *\nDisallow:\n"), Fetched: fetched, Expires: fetched.Add(24 * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		l.store.PutRobots(a, data)
	}
	put(now.Add(-time.Minute), outcomeParsed)
	if st, fresh := l.cached(a, now); st == nil || fresh {
		t.Errorf("a copy fetched a minute ago under a 24h TTL is fresh with cache_ttl 5s: %v", fresh)
	}
	l, _ = newTestLayer(t, cfg, nil)
	put(now.Add(-2*time.Second), outcomeParsed)
	if st, fresh := l.cached(a, now); st == nil || !fresh {
		t.Errorf("a copy fetched 2s ago is not fresh with cache_ttl 5s: %v", fresh)
	}
}
