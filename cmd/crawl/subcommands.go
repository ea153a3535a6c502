package main

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawler"
	"github.com/crawlproject/crawl/robots"
)

// subcommands lists the commands under crawl.
func subcommands(stdout, stderr io.Writer) []*cobra.Command {
	return []*cobra.Command{
		newDemoCommand(stdout, stderr),
		newReportCommand(),
		newRobotsCommandWith(robotsOptions{fetch: liveRobotsFetch}),
		newWACZCommand(),
	}
}

// liveRobotsFetch fetches a robots.txt for "crawl robots explain URL" the
// way a crawl with cfg would: paced, following redirects, with cfg's
// timeouts and size limit, and a User-Agent built on the agent's product
// token, the one its rules are matched by ("FooBot/2.1" sends
// "FooBot/<version> (+...)"). When that token is cfg's own, cfg's
// agent.user_agent is sent as configured.
func liveRobotsFetch(ctx context.Context, cfg config.Config, robotsURL, agent string) (crawler.RobotsFetch, error) {
	if token := robots.ProductToken(agent); token != "" && !strings.EqualFold(token, cfg.Agent.Token) {
		cfg.Agent.Token, cfg.Agent.UserAgent = token, ""
	}
	return crawler.FetchRobots(ctx, cfg, robotsURL)
}
