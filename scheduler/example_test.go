package scheduler_test

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

func ExampleCanonicalize() {
	u, err := scheduler.Canonicalize("../b/./c?q=1#top", mustParse("HTTP://Example.COM:80/a/x.html"))
	if err != nil {
		panic(err)
	}
	fmt.Println(u, scheduler.Authority(u))
	// Output: http://example.com/b/c?q=1 http://example.com:80
}

// Example shows the calls a crawler worker makes: Next for a lease, Wait
// before the request (the transport's choke point), Observe after the
// response, SetRules for a robots lease, and Finish.
func Example() {
	cfg := scheduler.DefaultConfig()
	cfg.DefaultDelay = 0 // no pace, so the example runs at once
	cfg.FetchTimeFactor = 0
	store := scheduler.NewMemStore()
	s, err := scheduler.Open(cfg, store)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	s.Add(scheduler.Candidate{URL: "http://example.com/", Seed: true})
	ctx := context.Background()
	for {
		l, err := s.Next(ctx)
		if errors.Is(err, scheduler.ErrDrained) {
			break
		}
		if err := s.Wait(ctx, l.Authority); err != nil {
			s.Finish(l, scheduler.Result{Requeue: true})
			continue
		}
		fmt.Println(l.Kind, l.URL)
		s.Observe(l.Authority, 200, time.Millisecond, "", nil)
		if l.Kind == scheduler.KindRobots {
			s.SetRules(l.Authority, scheduler.Rules{})
		} else if l.URL == "http://example.com/" {
			s.Add(scheduler.Candidate{URL: "/about", Parent: l.URL, Depth: 1})
			if sk, _ := s.Add(scheduler.Candidate{URL: "http://other.org/", Parent: l.URL, Depth: 1}); sk != nil {
				fmt.Println("skip", sk.URL, sk.Reason)
			}
		}
		s.Finish(l, scheduler.Result{Status: 200, Duration: time.Millisecond})
	}
	fmt.Printf("%+v\n", s.Host("http://example.com:80").State)
	// Output:
	// robots http://example.com/robots.txt
	// page http://example.com/
	// skip http://other.org/ out-of-scope
	// page http://example.com/about
	// done
}

func mustParse(raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		panic(err)
	}
	return u
}
