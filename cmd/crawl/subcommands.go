package main

import (
	"context"
	"io"

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
// way a crawl would: paced, with our User-Agent, following redirects.
func liveRobotsFetch(ctx context.Context, robotsURL string) ([]byte, int, error) {
	cfg := crawler.Default()
	return crawler.FetchRobots(ctx, cfg, robotsURL)
}
