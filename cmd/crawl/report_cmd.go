package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/crawlproject/crawl/report"
)

// reportArgs asks for the one DIR "crawl report" takes, in words, where
// cobra says "accepts 1 arg(s), received 0".
func reportArgs(_ *cobra.Command, args []string) error {
	switch len(args) {
	case 1:
		return nil
	case 0:
		return usagef("report DIR: give the --out directory of a crawl")
	}
	return usagef("report DIR: give one --out directory of a crawl, not %d", len(args))
}

// newReportCommand returns "crawl report DIR": it (re)writes DIR/report.html
// from the output files of a finished or interrupted crawl in DIR.
func newReportCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "report DIR",
		Short: "Write DIR/report.html from the output files of a crawl",
		Long: `Write DIR/report.html, one self-contained page (no scripts, no network) that
shows per host every request over time against the interval the host asked
for, its Visit-time windows, the status mix, the pace and the rule that set
it, back-offs and deferrals, the site's Comment: lines, its robots.txt with
each deciding line linked to the URLs it allowed or blocked, and why URLs
were skipped. DIR must hold the summary.json a crawl writes; crawl.jsonl,
skips.jsonl and robots.jsonl are used when present.`,
		Args:          reportArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			if err := report.Write(dir); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return usagef("report: %s has no %s; give the --out directory of a crawl", dir, report.SummaryFile)
				}
				return err
			}
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "Wrote %s\n", filepath.Join(dir, report.ReportFile))
			return err
		},
	}
}
