package scheduler

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConcurrentCrawlFetchesEachURLOnce runs workers in real time over a
// bolt frontier: pages link to new pages on several hosts, and every URL is
// leased exactly once, with at most PerHost in flight per host.
func TestConcurrentCrawlFetchesEachURLOnce(t *testing.T) {
	store, err := OpenBolt(filepath.Join(t.TempDir(), "f.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	cfg := noPace()
	cfg.PerHost = 2
	s, err := Open(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const hosts, perHost = 20, 150 // more than a queue head holds
	for h := range hosts {
		s.Add(Candidate{URL: fmt.Sprintf("http://h%d.test/0", h), Seed: true})
	}
	var mu sync.Mutex
	counts := map[string]int{}
	inflight := map[string]int{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			for {
				l, err := s.Next(ctx)
				if errors.Is(err, ErrDrained) {
					return
				}
				if err != nil {
					t.Error(err)
					return
				}
				if err := s.Wait(ctx, l.Authority); err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				counts[l.URL]++
				inflight[l.Authority]++
				if inflight[l.Authority] > cfg.PerHost {
					t.Errorf("%d in flight on %s", inflight[l.Authority], l.Authority)
				}
				mu.Unlock()
				if l.Kind == KindRobots {
					s.SetRules(l.Authority, Rules{})
				} else {
					n, _ := strconv.Atoi(l.URL[strings.LastIndex(l.URL, "/")+1:])
					for _, next := range []int{n + 1, n + 2, n + 40, (n * 7) % perHost} {
						if next < perHost {
							s.Add(Candidate{URL: fmt.Sprint(next), Parent: l.URL, Depth: l.Depth + 1})
						}
					}
				}
				s.Observe(l.Authority, 200, 0, "", nil)
				mu.Lock()
				inflight[l.Authority]--
				mu.Unlock()
				if err := s.Finish(l, Result{Status: 200}); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if len(counts) != hosts*(perHost+1) {
		t.Errorf("%d distinct URLs fetched, want %d", len(counts), hosts*(perHost+1))
	}
	for u, n := range counts {
		if n != 1 {
			t.Errorf("%s fetched %d times", u, n)
		}
	}
	if st := s.Stats(); st.Queued != 0 || st.InFlight != 0 || st.Fetched != hosts*perHost {
		t.Errorf("stats %+v", st)
	}
}
