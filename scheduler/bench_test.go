package scheduler

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// noPace is a config that imposes no delay, to measure the scheduler.
func noPace() Config {
	c := DefaultConfig()
	c.DefaultDelay = 0
	c.FetchTimeFactor = 0
	c.Scope.Mode = ScopeAny
	return c
}

// fill adds hosts x perHost URLs and installs empty rules for each host.
func fill(tb testing.TB, s *Scheduler, hosts, perHost, round int) {
	for h := range hosts {
		for i := range perHost {
			u := fmt.Sprintf("http://h%d.test/r%d/p%d", h, round, i)
			if sk, err := s.Add(Candidate{URL: u}); err != nil || sk != nil {
				tb.Fatal(sk, err)
			}
		}
		if round == 0 {
			s.SetRules(fmt.Sprintf("http://h%d.test:80", h), Rules{})
		}
	}
}

// settle flushes the frontier and collects garbage so that a benchmark
// does not time its set-up.
func settle(b *testing.B, s *Scheduler) {
	if err := s.Flush(); err != nil {
		b.Fatal(err)
	}
	runtime.GC()
}

// BenchmarkDecisions100kHosts measures scheduling decisions (Next +
// Finish) with 100,000 hosts x 10 URLs queued in a bolt frontier.
func BenchmarkDecisions100kHosts(b *testing.B) {
	store, err := OpenBoltWith(filepath.Join(b.TempDir(), "f.db"), BoltOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	s, err := Open(noPace(), store)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	round := 0
	fill(b, s, 100_000, 10, round)
	settle(b, s)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		l, err := s.Next(ctx)
		if errors.Is(err, ErrDrained) {
			b.StopTimer()
			round++
			fill(b, s, 100_000, 10, round)
			settle(b, s)
			b.StartTimer()
			l, err = s.Next(ctx)
		}
		if err != nil {
			b.Fatal(err)
		}
		if err := s.Finish(l, Result{Status: 200}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}

// BenchmarkBoltBytesPerURL adds URLs to a bolt frontier and reports the
// file size per queued URL ("bytes/url", high-water mark including free
// pages) and the B+tree bytes in use per URL ("inuse-bytes/url").
func BenchmarkBoltBytesPerURL(b *testing.B) {
	const n = 100_000
	var adds time.Duration
	for b.Loop() {
		dir := b.TempDir()
		store, err := OpenBoltWith(filepath.Join(dir, "f.db"), BoltOptions{})
		if err != nil {
			b.Fatal(err)
		}
		s, err := Open(noPace(), store)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		for i := range n {
			u := fmt.Sprintf("http://host%d.example.com/section/%d/page-%d.html?id=%d", i%1000, i%97, i, i)
			if _, err := s.Add(Candidate{URL: u, Parent: "http://host0.example.com/section/index.html"}); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
		adds += time.Since(start)
		size, _ := store.Size()
		var inuse int
		store.db.View(func(tx *bolt.Tx) error {
			return tx.ForEach(func(_ []byte, bk *bolt.Bucket) error {
				st := bk.Stats()
				inuse += st.BranchInuse + st.LeafInuse
				return nil
			})
		})
		store.Close()
		b.ReportMetric(float64(size)/n, "bytes/url")
		b.ReportMetric(float64(inuse)/n, "inuse-bytes/url")
	}
	b.ReportMetric(float64(n*b.N)/adds.Seconds(), "adds/s")
}

// BenchmarkCrawlLoopBolt runs the crawler's per-page calls (Next, Wait,
// Observe, Add 5 links, Finish) with 8 workers on 200 hosts without pace
// over a bolt frontier, and reports pages/s: the scheduler's share of a
// fast local crawl.
func BenchmarkCrawlLoopBolt(b *testing.B) {
	store, err := OpenBoltWith(filepath.Join(b.TempDir(), "f.db"), BoltOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer store.Close()
	s, err := Open(noPace(), store)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for h := range 200 {
		s.Add(Candidate{URL: fmt.Sprintf("http://127.0.0.%d:8080/", h+1), Seed: true})
	}
	var pages atomic.Int64
	var ctr atomic.Int64
	ctx := context.Background()
	b.ResetTimer()
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for pages.Load() < int64(b.N) {
				l, err := s.Next(ctx)
				if err != nil {
					b.Error(err)
					return
				}
				if err := s.Wait(ctx, l.Authority); err != nil {
					b.Error(err)
					return
				}
				s.Observe(l.Authority, 200, time.Millisecond, "", nil)
				if l.Kind == KindRobots {
					s.SetRules(l.Authority, Rules{})
				} else {
					for range 5 {
						n := ctr.Add(1)
						s.Add(Candidate{URL: fmt.Sprintf("/page/%d", n), Parent: l.URL, Depth: l.Depth + 1})
					}
					pages.Add(1)
				}
				s.Finish(l, Result{Status: 200, Duration: time.Millisecond})
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(pages.Load())/b.Elapsed().Seconds(), "pages/s")
}

// BenchmarkProgress measures one refresh of the progress line (Progress)
// while a crawl changes a few hosts between refreshes, with 10 and with
// 100,000 hosts known: its cost follows the hosts changed, not the hosts
// known. The garbage collector is off while it runs: the collection of
// 100,000 hosts' heap, which the crawl pays whether a progress line is
// shown or not, would otherwise be charged to whichever call it overlaps.
func BenchmarkProgress(b *testing.B) {
	for _, hosts := range []int{10, 100_000} {
		b.Run(fmt.Sprintf("hosts=%d", hosts), func(b *testing.B) {
			s, err := Open(noPace(), NewMemStore())
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			fill(b, s, hosts, max(2, 8*b.N/hosts+1), 0)
			s.Progress()
			ctx := context.Background()
			runtime.GC()
			defer debug.SetGCPercent(debug.SetGCPercent(-1))
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				// Between two refreshes the crawl finishes one lease of
				// each of 8 hosts.
				for range 8 {
					l, err := s.Next(ctx)
					if err != nil {
						b.Fatal(err)
					}
					if err := s.Finish(l, Result{Status: 200}); err != nil {
						b.Fatal(err)
					}
				}
				b.StartTimer()
				s.Progress()
			}
		})
	}
}
