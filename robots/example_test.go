package robots_test

import (
	"fmt"
	"time"

	"github.com/crawlproject/crawl/robots"
)

const exampleBody = `# example.com
User-agent: *
Disallow: /private/
Allow: /private/press/
Crawl-delay: 2.5

User-agent: hackerbot
Request-rate: 1/10m 1300-1659
Request-rate: 1/1m
Visit-time: 0600-0845
Comment: slow down, please
Disallow: /*.cgi$

Sitemap: https://example.com/sitemap.xml
`

func ExampleParse() {
	r := robots.Parse([]byte(exampleBody + "Nonsense here\n"))
	fmt.Println(r.Sitemaps())
	for _, w := range r.Warnings() {
		fmt.Println(w)
	}
	// Output:
	// [https://example.com/sitemap.xml]
	// line 15: unknown directive "Nonsense"; ignored: "Nonsense here"
}

func ExampleRobots_Group() {
	r := robots.Parse([]byte(exampleBody))
	fmt.Println(r.Group("HackerBot/2.1").Agents())
	fmt.Println(r.Group("OtherBot").Agents())
	// Output:
	// [hackerbot]
	// [*]
}

func ExampleGroup_Allowed() {
	g := robots.Parse([]byte(exampleBody)).Group("ExampleBot/1.0")
	for _, u := range []string{"https://example.com/private/plans", "/private/press/today", "/public"} {
		v := g.Allowed(u)
		fmt.Println(v.Allowed, v.Line, v.Rule)
	}
	// Output:
	// false 3 Disallow: /private/
	// true 4 Allow: /private/press/
	// true 0
}

func ExampleGroup_CrawlDelay() {
	d, ok := robots.Parse([]byte(exampleBody)).Group("anybot").CrawlDelay()
	fmt.Println(d, ok)
	// Output: 2.5s true
}

func ExampleGroup_CrawlDelayLine() {
	line, text := robots.Parse([]byte(exampleBody)).Group("anybot").CrawlDelayLine()
	fmt.Println(line, text)
	// Output: 5 Crawl-delay: 2.5
}

func ExampleGroup_RequestRates() {
	for _, rate := range robots.Parse([]byte(exampleBody)).Group("hackerbot").RequestRates() {
		fmt.Println(rate, rate.Interval())
	}
	// Output:
	// 1/10m 13:00-16:59 10m0s
	// 1/1m 1m0s
}

func ExampleGroup_Pace() {
	g := robots.Parse([]byte(exampleBody)).Group("hackerbot")
	for _, hour := range []int{9, 14} {
		now := time.Date(2026, 1, 1, hour, 0, 0, 0, time.UTC)
		interval, source, _ := g.Pace(now)
		fmt.Println(hour, interval, source)
	}
	// Output:
	// 9 1m0s line 9: Request-rate: 1/1m
	// 14 10m0s line 8: Request-rate: 1/10m 1300-1659
}

func ExampleGroup_VisitTimes() {
	g := robots.Parse([]byte(exampleBody)).Group("hackerbot")
	fmt.Println(g.VisitTimes(), g.Comments())
	// Output: [06:00-08:45] [slow down, please]
}

func ExampleGroup_VisitAllowed() {
	g := robots.Parse([]byte(exampleBody)).Group("hackerbot")
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	fmt.Println(g.VisitAllowed(now), g.NextVisit(now).Format(time.RFC3339))
	// Output: false 2026-01-02T06:00:00Z
}

func ExampleGroup_NextVisit() {
	g := robots.Parse([]byte("User-agent: *\nVisit-time: 2200-0200\n")).Group("bot")
	now := time.Date(2026, 1, 1, 23, 30, 0, 0, time.UTC)
	fmt.Println(g.NextVisit(now).Format("15:04"))
	// Output: 23:30
}

func ExampleGroup_RobotVersion() {
	v, ok := robots.Parse([]byte("User-agent: *\nRobot-version: 2.0\n")).Group("bot").RobotVersion()
	fmt.Println(v, ok)
	// Output: 2.0 true
}

func ExampleFromFetch() {
	body := []byte("User-agent: *\nDisallow: /\n")
	for _, status := range []int{200, 404, 503} {
		v := robots.FromFetch(status, body, nil, robots.PolicyOptions{}).Group("bot").Allowed("/page")
		fmt.Println(status, v)
	}
	// Output:
	// 200 disallowed by line 2 "Disallow: /" (group *)
	// 404 allowed: no rule matches
	// 503 disallowed: robots.txt unreachable: disallow all (group *)
}

func ExampleClassify() {
	opts := robots.PolicyOptions{RestrictedDisallows: true}
	fmt.Println(robots.Classify(403, nil, robots.PolicyOptions{}), "/", robots.Classify(403, nil, opts))
	// Output: unavailable (allow all) / restricted (disallow all)
}

func ExampleDisallowAll() {
	r := robots.DisallowAll()
	fmt.Println(r.Allowed("bot", "/a").Allowed, r.Allowed("bot", "/robots.txt").Allowed)
	// Output: false true
}

func ExampleAllowAll() {
	fmt.Println(robots.AllowAll().Allowed("bot", "/a").Allowed)
	// Output: true
}

func ExampleRobots_Allowed() {
	r := robots.Parse([]byte(exampleBody))
	v := r.Allowed("hackerbot/1.0", "https://example.com/cgi/run.cgi")
	fmt.Println(v)
	// Output: disallowed by line 12 "Disallow: /*.cgi$" (group hackerbot)
}

func ExampleRobots_Sitemaps() {
	fmt.Println(robots.Parse([]byte(exampleBody)).Sitemaps())
	// Output: [https://example.com/sitemap.xml]
}

func ExampleGroup_Comments() {
	fmt.Println(robots.Parse([]byte(exampleBody)).Group("hackerbot").Comments())
	// Output: [slow down, please]
}

func ExampleGroup_Warnings() {
	g := robots.Parse([]byte("User-agent: *\nCrawl-delay: -4\n")).Group("bot")
	d, _ := g.CrawlDelay()
	fmt.Println(d, g.Warnings())
	// Output: 4s [line 2: negative Crawl-delay; read as its magnitude: "Crawl-delay: -4"]
}

func ExampleGroup_Rules() {
	for _, rule := range robots.Parse([]byte(exampleBody)).Group("bot").Rules() {
		fmt.Println(rule.Line, rule.Allow, rule.Pattern)
	}
	// Output:
	// 3 false /private/
	// 4 true /private/press/
}

func ExampleShortDuration() {
	for _, d := range []time.Duration{10 * time.Minute, 90 * time.Minute, 2 * time.Hour, 2500 * time.Millisecond, time.Hour + 5*time.Second} {
		fmt.Println(robots.ShortDuration(d))
	}
	// Output:
	// 10m
	// 1h30m
	// 2h
	// 2.5s
	// 1h0m5s
}
