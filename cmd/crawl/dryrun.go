package main

import (
	"context"
	"fmt"
	"io"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawler"
)

// runDryRun fetches only the seed hosts' robots.txt and prints what they allow.
func runDryRun(ctx context.Context, cfg config.Config, seeds []string, stdout, stderr io.Writer) error {
	hosts, err := crawler.DryRun(ctx, cfg, seeds, stderr)
	if uerr := outDirError(cfg, err); uerr != nil {
		return uerr
	}
	crawler.PrintDryRun(stdout, hosts)
	if ctx.Err() != nil {
		return &interruptedError{msg: "crawl: dry run interrupted"}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nDry run: no page was fetched. Details in %s/%s\n", cfg.Out, crawler.DryRunFile)
	return nil
}
