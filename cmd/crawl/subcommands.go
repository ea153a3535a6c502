package main

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crawlproject/crawl/crawler"
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
// way a crawl would: paced, following redirects, with a User-Agent derived
// from the agent's product token ("FooBot/2.1" sends "FooBot/<version> (+...)").
func liveRobotsFetch(ctx context.Context, robotsURL, agent string) ([]byte, int, error) {
	cfg := crawler.Default()
	if token, _, _ := strings.Cut(agent, "/"); token != "" {
		cfg.Agent.Token = token
	}
	if cfg.Validate() != nil {
		cfg.Agent.Token = crawler.Default().Agent.Token
	}
	return crawler.FetchRobots(ctx, cfg, robotsURL)
}
