package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/crawlproject/crawl/crawler"
	"github.com/crawlproject/crawl/robots"
)

// subcommands lists the commands under crawl.
func subcommands(stdout, stderr io.Writer) []*cobra.Command {
	return []*cobra.Command{
		newDemoCommand(stdout, stderr),
		newReportCommand(),
		newRobotsCommandWith(robotsOptions{fetch: liveRobotsFetch}),
	}
}

// liveRobotsFetch fetches a robots.txt for "crawl robots explain URL" the
// way a crawl would: paced, following redirects, with a User-Agent built
// on the agent's product token, the one its rules are matched by
// ("FooBot/2.1" sends "FooBot/<version> (+...)"). An agent without a token
// fetches as crawl.
func liveRobotsFetch(ctx context.Context, robotsURL, agent string) ([]byte, int, error) {
	cfg := crawler.Default()
	if token := robots.ProductToken(agent); token != "" {
		cfg.Agent.Token = token
	}
	return crawler.FetchRobots(ctx, cfg, robotsURL)
}
