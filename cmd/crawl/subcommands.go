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
		newStatusCommand(redisStatus),
	}
}

// liveRobotsFetch fetches a robots.txt for "crawl robots explain URL" the
// way a crawl with cfg would: paced, following redirects, with cfg's
// timeouts and size limit, and a User-Agent built on agent, the name of
// the robot asked about, when it is a product token a crawl could carry
// ("FooBot" sends "FooBot/<version> (+...)"). When agent is cfg's own
// token, or a name the crawl could not carry (digits: "MJ12bot"), cfg's
// User-Agent is sent as configured.
func liveRobotsFetch(ctx context.Context, cfg config.Config, robotsURL, agent string) (crawler.RobotsFetch, error) {
	if token := robots.ProductToken(agent); token != "" && token == agent && !strings.EqualFold(token, cfg.Agent.Token) {
		cfg.Agent.Token, cfg.Agent.UserAgent = token, ""
	}
	return crawler.FetchRobots(ctx, cfg, robotsURL)
}
