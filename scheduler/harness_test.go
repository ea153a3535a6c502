package scheduler

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// epoch is the start of the synctest fake clock.
var epoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// at returns epoch + the clock time "15:04:05" on day 0.
func at(t *testing.T, clock string) time.Time {
	t.Helper()
	c, err := time.Parse("15:04:05", clock)
	if err != nil {
		t.Fatal(err)
	}
	return epoch.Add(time.Duration(c.Hour())*time.Hour + time.Duration(c.Minute())*time.Minute + time.Duration(c.Second())*time.Second)
}

// sleepUntil sleeps in the bubble until t.
func sleepUntil(t time.Time) { time.Sleep(time.Until(t)) }

func win(from, to string) robots.Window {
	parse := func(s string) int {
		var h, m int
		fmt.Sscanf(s, "%02d%02d", &h, &m)
		return h*60 + m
	}
	return robots.Window{From: parse(from), To: parse(to)}
}

func rrate(n int, per time.Duration, window string, line int) robots.RequestRate {
	r := robots.RequestRate{Requests: n, Per: per, Line: line}
	if window != "" {
		r.Windowed = true
		r.Window = win(window[:4], window[5:])
	}
	return r
}

// testConfig is DefaultConfig without margin and adaptive pace, so tests
// assert exact schedules.
func testConfig() Config {
	c := DefaultConfig()
	c.FetchTimeFactor = 0
	c.Scope.Mode = ScopeAny
	c.Workers = 2
	return c
}

// fetch is one recorded request start.
type fetch struct {
	URL  string
	Kind Kind
	T    time.Time
}

// response is what the fake server answers; Err is the transport's error
// when no whole answer came (Status 0: no head either).
type response struct {
	Status     int
	Dur        time.Duration
	RetryAfter string
	Err        error
}

// fakeCrawler drives a Scheduler like the crawler does, inside a bubble.
type fakeCrawler struct {
	t       *testing.T
	s       *Scheduler
	rules   map[string]Rules
	respond func(url string, n int) response
	answer  bool // report each response's arrival with Answered, as the crawler's transport does

	mu       sync.Mutex
	fetches  []fetch
	counts   map[string]int
	inflight map[string]int
	maxIn    map[string]int
	skips    []Skip
}

func newFake(t *testing.T, cfg Config, store Store) *fakeCrawler {
	f := &fakeCrawler{t: t, rules: map[string]Rules{}, counts: map[string]int{}, inflight: map[string]int{}, maxIn: map[string]int{}}
	cfg.OnSkip = func(sk Skip) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.skips = append(f.skips, sk)
	}
	s, err := Open(cfg, store)
	if err != nil {
		t.Fatal(err)
	}
	f.s = s
	f.respond = func(string, int) response { return response{Status: 200} }
	return f
}

func (f *fakeCrawler) add(urls ...string) {
	f.t.Helper()
	for _, u := range urls {
		sk, err := f.s.Add(Candidate{URL: u, Seed: true})
		if err != nil || sk != nil {
			f.t.Fatalf("add %s: %v %+v", u, err, sk)
		}
	}
}

// run runs n workers until the scheduler drains.
func (f *fakeCrawler) run(n int) {
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for {
				l, err := f.s.Next(context.Background())
				if err != nil {
					if !errors.Is(err, ErrDrained) {
						f.t.Errorf("next: %v", err)
					}
					return
				}
				f.one(l)
			}
		})
	}
	wg.Wait()
}

func (f *fakeCrawler) one(l *Lease) {
	if err := f.s.Wait(context.Background(), l.Authority); err != nil {
		f.t.Errorf("wait %s: %v", l.URL, err)
		f.s.Finish(l, Result{Requeue: true})
		return
	}
	f.mu.Lock()
	f.fetches = append(f.fetches, fetch{URL: l.URL, Kind: l.Kind, T: time.Now()})
	f.counts[l.URL]++
	n := f.counts[l.URL]
	f.inflight[l.Authority]++
	f.maxIn[l.Authority] = max(f.maxIn[l.Authority], f.inflight[l.Authority])
	f.mu.Unlock()
	r := response{Status: 200}
	if l.Kind != KindRobots {
		r = f.respond(l.URL, n)
	}
	time.Sleep(r.Dur)
	if f.answer {
		f.s.Answered(l.Authority, time.Now())
	}
	f.mu.Lock()
	f.inflight[l.Authority]--
	f.mu.Unlock()
	f.s.Observe(l.Authority, r.Status, r.Dur, r.RetryAfter, r.Err)
	if l.Kind == KindRobots {
		f.s.SetRules(l.Authority, f.rules[l.Authority])
	}
	if err := f.s.Finish(l, Result{Status: r.Status, Duration: r.Dur, RetryAfter: r.RetryAfter, Err: r.Err}); err != nil {
		f.t.Errorf("finish: %v", err)
	}
}

// pages returns the start times of non-robots fetches, in order.
func (f *fakeCrawler) pages() []time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []time.Time
	for _, x := range f.fetches {
		if x.Kind != KindRobots {
			out = append(out, x.T)
		}
	}
	return out
}

// offsets returns each time relative to base.
func offsets(base time.Time, ts []time.Time) []time.Duration {
	out := make([]time.Duration, len(ts))
	for i, t := range ts {
		out[i] = t.Sub(base)
	}
	return out
}

func gaps(ts []time.Time) []time.Duration {
	var out []time.Duration
	for i := 1; i < len(ts); i++ {
		out = append(out, ts[i].Sub(ts[i-1]))
	}
	return out
}

func urls(host string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s/p%d", host, i)
	}
	return out
}
