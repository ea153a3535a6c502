package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/crawlproject/crawl/report"
)

// reportArgs asks for the DIR "crawl report" takes, in words, where cobra
// says "requires at least 1 arg(s)".
func reportArgs(_ *cobra.Command, args []string) error {
	if len(args) == 0 {
		return usagef("report DIR: give the --out directory of a crawl (or several, of one distributed crawl)")
	}
	return nil
}

// newReportCommand returns "crawl report DIR [DIR...]": it (re)writes
// DIR/report.html (or --to FILE) from the output files of a finished or
// interrupted crawl in DIR, or of the processes of one distributed crawl
// in each DIR.
func newReportCommand() *cobra.Command {
	var to string
	cmd := &cobra.Command{
		Use:   "report DIR [DIR...]",
		Short: "Write DIR/report.html from the output files of a crawl",
		Long: `Write DIR/report.html, one self-contained page (no scripts, no network) that
shows per host every request over time against the interval the host asked
for, its Visit-time windows, the status mix, the pace and the rule that set
it, back-offs and deferrals, the site's Comment: lines, its robots.txt with
each deciding line linked to the URLs it allowed or blocked, and why URLs
were skipped. DIR must hold the summary.json a crawl writes; crawl.jsonl,
skips.jsonl and robots.jsonl are used when present.

Several DIRs, the --out directories of the processes of one distributed
crawl (--frontier), make one report: their requests, skips and robots.txt
fetches merged by time, the hosts and totals of their summaries added up.
It is written to the first DIR's report.html, or to --to FILE.`,
		Args:          reportArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, dirs []string) error {
			if to == "" {
				to = filepath.Join(dirs[0], report.ReportFile)
			}
			if err := report.WriteDirs(dirs, to); err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					if dir := withoutSummary(dirs); dir != "" {
						return usagef("report: %s has no %s; give the --out directory of a crawl", dir, report.SummaryFile)
					}
				}
				return err
			}
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "Wrote %s\n", to)
			return err
		},
	}
	cmd.Flags().StringVar(&to, "to", "", "write the report to FILE instead of the first DIR's report.html")
	return cmd
}

// withoutSummary returns the first of dirs that holds no summary.json,
// "" if each does.
func withoutSummary(dirs []string) string {
	for _, dir := range dirs {
		if _, err := os.Stat(filepath.Join(dir, report.SummaryFile)); errors.Is(err, fs.ErrNotExist) {
			return dir
		}
	}
	return ""
}
