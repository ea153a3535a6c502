package main

import (
	"context"
	"fmt"
	"io"
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

// pacedDelays are the Crawl-delays of the paced web's hosts, in turn.
var pacedDelays = []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond, time.Second}

// startPacedSites serves hosts sites on 127.0.0.1, site i asking for
// Crawl-delay delays[i%len(delays)] and linking from every page to its
// pages 0..pages-1; it returns them and their seeds. Close them with
// closePacedSites.
func startPacedSites(hosts, pages int, delays []time.Duration) ([]*pacedSite, []string, error) {
	var sites []*pacedSite
	var seeds []string
	for i := range hosts {
		s := &pacedSite{delay: delays[i%len(delays)]}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			closePacedSites(sites)
			return nil, nil, err
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
	return sites, seeds, nil
}

func closePacedSites(sites []*pacedSite) {
	for _, s := range sites {
		s.srv.Close()
	}
}

// pacedAudit counts, from the sites' own logs, the requests and the pace
// violations (two requests to a site closer than its Crawl-delay, printed
// to log if it is not nil), and the fastest the sites' pace allows: the
// slowest site's requests back to back at its delay.
func pacedAudit(sites []*pacedSite, log io.Writer) (requests, violations int, best time.Duration) {
	for _, s := range sites {
		s.mu.Lock()
		hits := append([]time.Time(nil), s.hits...)
		s.mu.Unlock()
		sort.Slice(hits, func(i, j int) bool { return hits[i].Before(hits[j]) })
		requests += len(hits)
		for i := 1; i < len(hits); i++ {
			if g := hits[i].Sub(hits[i-1]); g < s.delay {
				violations++
				if log != nil {
					fmt.Fprintf(log, "violation: %s requests %v apart, Crawl-delay %v\n", s.url, g, s.delay)
				}
			}
		}
		best = max(best, time.Duration(len(hits)-1)*s.delay)
	}
	return requests, violations, best
}

// runPaced crawls hosts that each ask for a Crawl-delay and checks, from the
// servers' own logs, that no two requests to a host came closer than its
// delay, and how close the crawl came to the fastest the delays allow (the
// slowest host's requests back to back at its delay).
func runPaced(hosts, pages, workers int) error {
	sites, seeds, err := startPacedSites(hosts, pages, pacedDelays)
	if err != nil {
		return err
	}
	defer closePacedSites(sites)
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
	requests, violations, best := pacedAudit(sites, os.Stdout)
	fmt.Printf("paced web: %d hosts (Crawl-delay 0.1-1 s), %d requests, %d workers\n", hosts, requests, workers)
	fmt.Printf("pace violations seen by the servers: %d\n", violations)
	fmt.Printf("crawl took %s; the hosts' pace allows %s at best: %.1f%% of the best achievable speed\n",
		took.Round(time.Millisecond), best, 100*best.Seconds()/took.Seconds())
	return nil
}
