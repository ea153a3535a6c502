package redisfrontier

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/crawlproject/crawl/internal/redistest"
	"github.com/crawlproject/crawl/scheduler"
)

// BenchmarkStart measures the start script (a hop on a host with no pace,
// so every call records a start or waits 1 ms) and reports its p50 and p99 latency.
func BenchmarkStart(b *testing.B) {
	url := redistest.URL(b)
	prefix := redistest.Prefix(b, url)
	f := open(b, url, prefix, time.Second)
	f.cfg.DefaultDelay = 0
	f.defPace = encodePace(scheduler.NewPaceTable(&f.cfg, scheduler.Rules{}))
	ctx := context.Background()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		// A start within the same millisecond as the previous one is told
		// to wait 1 ms (starts are recorded rounded up): both are answers.
		if res, err := f.runStart(ctx, "http://bench.test:80", "", "", "1"); err != nil || str(res, 0) != "ok" && str(res, 0) != "wait" {
			b.Fatalf("start: %v %v", res, err)
		}
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// TestMemoryPerURL measures Redis memory per queued URL and per seen URL
// (INFO memory used_memory before and after) for CRAWL_MEM_N URLs
// (default 2,000; run by hand with 1000000) on 1,000 hosts.
func TestMemoryPerURL(t *testing.T) {
	url := redistest.URL(t)
	n := 2000
	if v, err := strconv.Atoi(os.Getenv("CRAWL_MEM_N")); err == nil && v > 0 {
		n = v
	}
	prefix := redistest.Prefix(t, url)
	f := open(t, url, prefix, time.Second)
	ctx := context.Background()
	before := usedMemory(t, f.rdb)
	addBulk(t, f, n)
	full := usedMemory(t, f.rdb)
	for h := range 1000 {
		f.rdb.Del(ctx, f.k.queue(fmt.Sprintf("http://h%d.test:80", h)))
	}
	seenOnly := usedMemory(t, f.rdb)
	t.Logf("%d URLs: seen %.1f B/URL, queued %.1f B/URL (used_memory %d, %d, %d)", n,
		float64(seenOnly-before)/float64(n), float64(full-seenOnly)/float64(n), before, full, seenOnly)
}

// addBulk queues n URLs on 1,000 hosts through the add script, pipelined.
func addBulk(t *testing.T, f *Frontier, n int) {
	ctx := context.Background()
	if err := f.sc.add.Load(ctx, f.rdb).Err(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; {
		p := f.rdb.Pipeline()
		for j := 0; j < 1000 && i < n; i, j = i+1, j+1 {
			auth := fmt.Sprintf("http://h%d.test:80", i%1000)
			key := fmt.Sprintf("http://h%d.test/page/%d", i%1000, i)
			b, field := fingerprint(key)
			e := encodeEntry(scheduler.Entry{URL: key, Parent: fmt.Sprintf("http://h%d.test/", i%1000), Depth: 1})
			f.sc.add.EvalSha(ctx, p, []string{f.k.shard(shardOf(auth))}, auth, b, field, e, 1, f.defPace, 0)
		}
		if _, err := p.Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
}

func usedMemory(t *testing.T, rdb redis.UniversalClient) int64 {
	s, err := rdb.Info(context.Background(), "memory").Result()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`used_memory:(\d+)`).FindStringSubmatch(s)
	v, _ := strconv.ParseInt(m[1], 10, 64)
	return v
}
