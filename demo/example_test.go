package demo_test

import (
	"context"
	"fmt"
	"time"

	"github.com/crawlproject/crawl/demo"
)

func ExampleStart() {
	now := time.Date(2026, 11, 21, 14, 0, 0, 0, time.UTC)
	web, err := demo.Start(context.Background(), now, "crawl")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer web.Close()
	for _, s := range web.Sites() {
		fmt.Println(s.Name, s.RobotsStatus)
	}
	// Output:
	// crawl-delay 200
	// request-rate 200
	// visit-time-open 200
	// visit-time-closed 200
	// wildcards 200
	// robots-503 503
	// robots-redirect 301
	// retry-after 200
	// trap 200
	// nofollow 200
	// comments 200
}
