package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/wacz"
)

// newWACZCommand returns "crawl wacz DIR": it packages the output directory
// of a crawl as DIR/NAME.wacz for ReplayWeb.page and other replay tools.
func newWACZCommand() *cobra.Command {
	var opts wacz.Options
	cmd := &cobra.Command{
		Use:   "wacz DIR",
		Short: "Package the archive of a crawl in DIR as DIR/NAME.wacz for replay",
		Long: `Package the WARC files of the crawl whose output directory is DIR as one
WACZ file (WACZ 1.1.1), which ReplayWeb.page opens: the WARC files, their
index, the list of HTML pages fetched (seeds first, with their titles) and a
manifest with the SHA-256 of every file. The file is DIR/NAME.wacz, NAME
being the base name of DIR unless --name says otherwise; an earlier one of
that name is replaced whole. Run it once the crawl has ended.`,
		Args:          cobra.ExactArgs(1),
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Software = waczSoftware()
			return runWACZ(args[0], opts, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringVar(&opts.Name, "name", "", "file name of the WACZ without .wacz (default: the base name of DIR)")
	cmd.Flags().StringVar(&opts.Title, "title", "", "title of the collection shown by replay tools (default: the name)")
	return cmd
}

// waczSoftware names the program in a WACZ's datapackage.json, as the
// WARC files' warcinfo records do.
func waczSoftware() string { return fmt.Sprintf("crawl/%s (+%s)", config.Version, config.ProjectURL) }

func runWACZ(dir string, opts wacz.Options, stdout, stderr io.Writer) error {
	if unfinished(dir) {
		fmt.Fprintf(stderr, "warning: the last run of %s has no end in %s (it is still running, or was killed): the WACZ holds what archive/%s lists; resume the crawl to its end first to package all it fetched\n",
			dir, crawllog.RunsLogFile, "index.cdxj")
	}
	res, err := wacz.Write(dir, opts)
	if errors.Is(err, wacz.ErrNoArchive) {
		return usagef("%v; give the --out directory of a crawl run with archive.warc on", err)
	}
	if err != nil {
		return err
	}
	if res.BadLogLines > 0 {
		fmt.Fprintf(stderr, "warning: %d line(s) of %s were not JSON and were passed over\n", res.BadLogLines, filepath.Join(dir, crawllog.CrawlLogFile))
	}
	_, err = fmt.Fprintf(stdout, "Wrote %s: %d pages (%d seeds), %d WARC file(s), %s\n",
		res.Path, res.Pages, res.Seeds, res.WARCFiles, byteSize(res.Bytes))
	return err
}

// unfinished reports whether the last line of DIR/runs.jsonl starts a run:
// a crawl still running or killed, whose index may not list every record.
func unfinished(dir string) bool {
	f, err := os.Open(filepath.Join(dir, crawllog.RunsLogFile))
	if err != nil {
		return false
	}
	defer f.Close()
	var last crawllog.RunEntry
	crawllog.ReadJSONL(f, func(e crawllog.RunEntry) { last = e })
	return last.Event == crawllog.RunStart && last.Mode == crawllog.ModeCrawl
}

// byteSize writes n bytes for a person: "512 B", "3.4 MiB".
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
