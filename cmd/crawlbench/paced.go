package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawler"
)

// pacedSite is a host asking for a Crawl-delay, logging every request start
// on its own side.
type pacedSite struct {
	url   string
	delay time.Duration
	srv   *http.Server
	mu    sync.Mutex
	hits  []time.Time
}

// runPaced crawls hosts that each ask for a Crawl-delay and checks, from the
// servers' own logs, that no two requests to a host came closer than its
// delay, and how close the crawl came to the fastest the delays allow (the
// slowest host's requests back to back at its delay).
func runPaced(hosts, pages, workers int) error {
	delays := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second}
	var sites []*pacedSite
	var seeds []string
	defer func() {
		for _, s := range sites {
			s.srv.Close()
		}
	}()
	for i := range hosts {
		s := &pacedSite{delay: delays[i%len(delays)]}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		s.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.mu.Lock()
			s.hits = append(s.hits, time.Now())
			s.mu.Unlock()
			if r.URL.Path == "/robots.txt" {
				fmt.Fprintf(w, "User-agent: *\nCrawl-delay: %g\n", s.delay.Seconds())
				return
			}
			w.Header().Set("Content-Type", "text/html")
			for j := range pages {
				fmt.Fprintf(w, `<a href="/p%d">page %d</a> `, j, j)
			}
		})}
		go s.srv.Serve(l)
		s.url = "http://" + l.Addr().String()
		sites = append(sites, s)
		seeds = append(seeds, s.url+"/")
	}
	dir, err := os.MkdirTemp("", "crawlbench-paced-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	cfg := config.Default()
	cfg.Out = dir
	cfg.Agent.Token = "crawlbench"
	cfg.Fetch.Workers = workers
	cfg.Log.Progress = "never"
	start := time.Now()
	if _, err := crawler.Run(context.Background(), cfg, crawler.Options{Seeds: seeds}); err != nil {
		return err
	}
	took := time.Since(start)
	violations, requests := 0, 0
	var best time.Duration
	for _, s := range sites {
		sort.Slice(s.hits, func(i, j int) bool { return s.hits[i].Before(s.hits[j]) })
		requests += len(s.hits)
		for i := 1; i < len(s.hits); i++ {
			if g := s.hits[i].Sub(s.hits[i-1]); g < s.delay {
				violations++
				fmt.Printf("violation: %s requests %v apart, Crawl-delay %v\n", s.url, g, s.delay)
			}
		}
		best = max(best, time.Duration(len(s.hits)-1)*s.delay)
	}
	fmt.Printf("paced web: %d hosts (Crawl-delay 0.1-1 s), %d requests, %d workers\n", hosts, requests, workers)
	fmt.Printf("pace violations seen by the servers: %d\n", violations)
	fmt.Printf("crawl took %s; the hosts' pace allows %s at best: %.1f%% of the best achievable speed\n",
		took.Round(time.Millisecond), best, 100*best.Seconds()/took.Seconds())
	return nil
}
