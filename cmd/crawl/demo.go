package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawler"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/demo"
	"github.com/crawlproject/crawl/report"
)

// demoMarker marks an output dir written by crawl demo, which a later demo
// may clear: the demo's sites get new ports every run, so its frontier
// cannot be resumed.
const demoMarker = ".crawl-demo"

func newDemoCommand(stdout, stderr io.Writer) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "demo [--out DIR]",
		Short: "Crawl built-in sample sites on 127.0.0.1 and narrate every decision",
		Long: `demo starts a handful of small sites on 127.0.0.1, each showing one point of
crawler etiquette (Crawl-delay, Request-rate windows, Visit-time, wildcard rules,
an unreachable robots.txt, a redirected robots.txt, Retry-After, a crawler trap,
pages that ask robots not to follow their links, Comment lines), crawls them with the real pipeline, tells what it decides and
why, and writes the archive, logs and report.html. No network is needed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDemo(cmd.Context(), out, stdout, stderr)
		},
	}
	cmd.Flags().StringVar(&out, "out", "demo-out", "output directory (a previous demo's output there is replaced)")
	return cmd
}

// demoConfig is the crawl config of the demo: the real defaults, with the
// pace for sites that ask for none and the waits shortened so the whole
// demo takes well under a minute.
func demoConfig(out string) config.Config {
	cfg := config.Default()
	cfg.Out = out
	cfg.Politeness.DefaultDelay = 200 * time.Millisecond
	cfg.Politeness.MaxWait = 10 * time.Second
	cfg.Politeness.BackoffBase = time.Second
	cfg.Politeness.BackoffMax = 5 * time.Second
	cfg.Politeness.MaxFailures = 3
	cfg.Robots.RetryBase = 2 * time.Second
	cfg.Fetch.Workers = 8
	cfg.Fetch.Timeout = 5 * time.Second
	cfg.Log.Progress = "never"
	return cfg
}

// demoOutputs are the entries of an output dir that a demo writes: what a
// later demo replaces. Anything else found there is the user's and stays.
func demoOutputs() []string {
	return []string{demoMarker, crawler.FrontierFile, crawler.ArchiveDir, crawler.DryRunFile, crawllog.CrawlLogFile,
		crawllog.SkipLogFile, crawllog.RobotsLogFile, crawllog.RunsLogFile, crawllog.SummaryFile, report.ReportFile}
}

// prepareDemoOut makes out ready for a demo: created if missing, used as it
// is if empty, and cleared of a previous demo's outputs (only those) if it
// carries the demo marker. kept lists the entries left in place.
func prepareDemoOut(out string) (kept []string, err error) {
	entries, err := os.ReadDir(out)
	if errors.Is(err, os.ErrNotExist) || err == nil && len(entries) == 0 {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return nil, usagef("demo output dir %s: %v", out, err)
		}
		return nil, nil
	}
	if err != nil {
		return nil, usagef("demo output dir %s: %v", out, err)
	}
	if _, err := os.Stat(filepath.Join(out, demoMarker)); err != nil {
		return nil, usagef("demo output dir %s is not empty and not from an earlier demo; choose another --out", out)
	}
	ours := map[string]bool{}
	for _, name := range demoOutputs() {
		ours[name] = true
	}
	for _, e := range entries {
		if !ours[e.Name()] {
			kept = append(kept, e.Name())
			continue
		}
		if err := os.RemoveAll(filepath.Join(out, e.Name())); err != nil {
			return nil, fmt.Errorf("clear earlier demo output: %w", err)
		}
	}
	return kept, nil
}

func runDemo(ctx context.Context, out string, stdout, stderr io.Writer) error {
	kept, err := prepareDemoOut(out)
	if err != nil {
		return err
	}
	if len(kept) > 0 {
		fmt.Fprintf(stdout, "Replacing the previous demo's output in %s; kept what the demo did not write: %s\n\n",
			out, crawllog.Printable(strings.Join(kept, ", ")))
	}
	if err := os.WriteFile(filepath.Join(out, demoMarker), []byte("written by crawl demo\n"), 0o644); err != nil {
		return usagef("demo output dir %s: %v", out, err)
	}
	cfg := demoConfig(out)
	web, err := demo.Start(ctx, time.Now(), cfg.Agent.Token)
	if err != nil {
		return fmt.Errorf("demo: start sites: %w", err)
	}
	defer web.Close()
	sites := web.Sites()
	if err := demo.Narrate(stdout, sites); err != nil {
		return err
	}
	names := map[string]string{}
	notes := map[string]crawler.HostNote{}
	var seeds []string
	for _, s := range sites {
		names[s.Authority] = s.Name
		notes[s.Authority] = crawler.HostNote{Label: s.Name, Note: s.Lesson}
		seeds = append(seeds, s.Seed)
	}
	fmt.Fprintf(stdout, "\nCrawling as %q, narrating each decision:\n\n", cfg.UserAgentHeader())
	start := time.Now()
	n := &narrator{w: stdout, names: names, start: start}
	sum, runErr := crawler.Run(ctx, cfg, crawler.Options{Seeds: seeds, Logger: newLogger(cfg, io.Discard), Events: n.event,
		HostNotes: notes, Ephemeral: true})
	if rerr := reportRun(ctx, cfg, sum, runErr, stdout); rerr != nil {
		var ie *interruptedError
		if errors.As(rerr, &ie) {
			// The demo's sites close with it: there is nothing to resume.
			ie.msg = fmt.Sprintf("crawl demo: interrupted; what it wrote so far is in %s. The sample sites stop with the demo, so a new 'crawl demo' starts afresh.", out)
		}
		return rerr
	}
	fmt.Fprintf(stdout, "\nWhat the demo showed (from the sites' own request logs), in %s:\n", time.Since(start).Round(100*time.Millisecond))
	for _, s := range sites {
		fmt.Fprintf(stdout, "  - %s: %s\n", s.Name, evidence(s, web.Requests(s.Authority)))
	}
	fmt.Fprintf(stdout, "\nArchive, logs and report are in %s/ (open %s/report.html).\n", out, out)
	return nil
}

// narrator prints each crawler decision as one plain line.
type narrator struct {
	w     io.Writer
	names map[string]string
	start time.Time
}

func (n *narrator) event(e crawler.Event) {
	site := n.names[e.Host]
	if site == "" {
		site = e.Host
	}
	// Details, URLs and rules come from the sites (robots.txt comments
	// among them): printed escaped, so they cannot drive the terminal.
	url, detail := crawllog.Printable(e.URL), crawllog.Printable(e.Detail)
	line := detail
	if e.Kind == crawler.EventSkip {
		switch {
		case e.Rule != "" && e.Line > 0:
			line = fmt.Sprintf("not fetching %s: robots.txt line %d %q (%s)", url, e.Line, e.Rule, e.Reason)
		case e.Detail != "":
			line = fmt.Sprintf("not fetching %s: %s (%s)", url, detail, e.Reason)
		default:
			line = fmt.Sprintf("not fetching %s (%s)", url, e.Reason)
		}
	}
	fmt.Fprintf(n.w, "[%5.1fs] %-18s %s\n", e.Time.Sub(n.start).Seconds(), site, line)
}

// evidence summarises what a site's own request log shows.
func evidence(s demo.Site, reqs []demo.Request) string {
	var pages []demo.Request
	robots := 0
	for _, r := range reqs {
		if r.Path == "/robots.txt" {
			robots++
			continue
		}
		pages = append(pages, r)
	}
	parts := []string{fmt.Sprintf("%d robots.txt request(s), %d page request(s)", robots, len(pages))}
	if len(reqs) > 1 {
		times := make([]time.Time, len(reqs))
		for i, r := range reqs {
			times[i] = r.Time
		}
		sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
		minGap := time.Duration(1<<63 - 1)
		for i := 1; i < len(times); i++ {
			minGap = min(minGap, times[i].Sub(times[i-1]))
		}
		parts = append(parts, fmt.Sprintf("closest two requests %s apart", minGap.Round(time.Millisecond)))
	}
	if len(reqs) > 0 && reqs[0].Path != "/robots.txt" {
		parts = append(parts, "FIRST REQUEST WAS NOT robots.txt")
	}
	return strings.Join(parts, ", ")
}
