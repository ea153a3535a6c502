package scheduler

import (
	"testing"
	"testing/synctest"
	"time"
)

// hostsOf returns the authorities of f's request starts (robots.txt
// included), in order.
func hostsOf(f *fakeCrawler) []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]string, len(f.fetches))
	for i, x := range f.fetches {
		out[i] = x.URL[:len("http://a.test")]
	}
	return out
}

// runs counts the runs of one host's consecutive starts in seq.
func runs(seq []string) int {
	n := 0
	for i := range seq {
		if i == 0 || seq[i] != seq[i-1] {
			n++
		}
	}
	return n
}

// A host whose pace asks for no wait keeps its turn for turnBudget leases
// in a row (its robots.txt lease counted), then goes behind the other
// hosts due; a host with a pace (here the 1996 default delay) gives its
// turn up after every request, so that the hosts due take turns.
func TestHostKeepsItsTurnOnlyWithoutPace(t *testing.T) {
	hosts := []string{"http://a.test", "http://b.test", "http://c.test"}
	t.Run("no pace", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			cfg := testConfig()
			cfg.DefaultDelay = 0
			f := newFake(t, cfg, NewMemStore())
			defer f.s.Close()
			f.respond = func(string, int) response { return response{Status: 200, Dur: time.Second} }
			for _, h := range hosts {
				f.add(urls(h, 100)...)
			}
			f.run(1)
			seq := hostsOf(f)
			// Round robin would switch hosts at every request (303 runs).
			// Kept turns switch at the budget and when a host's queue head
			// is read back from the store (every 32 URLs), when the one
			// worker takes the next host due meanwhile.
			if n := runs(seq); n > 20 {
				t.Errorf("%d runs of one host's requests, want at most 20: %v", n, seq)
			}
			// The budget: between a host's 64th and 65th request of a
			// turn, each other host with URLs left has one.
			for _, h := range hosts {
				h = h[:len("http://a.test")]
				var idx []int
				for i, x := range seq {
					if x == h {
						idx = append(idx, i)
					}
				}
				between := map[string]bool{}
				for _, x := range seq[idx[turnBudget-1]+1 : idx[turnBudget]] {
					between[x] = true
				}
				if len(between) != len(hosts)-1 || between[h] {
					t.Errorf("%s: hosts between its request %d and %d: %v, want the two others", h, turnBudget, turnBudget+1, between)
				}
			}
		})
	})
	t.Run("default delay", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			cfg := testConfig()
			cfg.DefaultDelay = 2 * time.Second
			f := newFake(t, cfg, NewMemStore())
			defer f.s.Close()
			f.respond = func(string, int) response { return response{Status: 200, Dur: time.Second} }
			for _, h := range hosts {
				f.add(urls(h, 10)...)
			}
			f.run(1)
			if seq := hostsOf(f); runs(seq) != len(seq) {
				t.Errorf("a paced host took two turns in a row: %v", seq)
			}
		})
	})
}
