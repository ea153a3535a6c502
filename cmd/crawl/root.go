package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/crawlproject/crawl/config"
)

// rootFlagKeys binds the root command's flags to config keys: flag name ->
// key.
func rootFlagKeys() map[string]string {
	return map[string]string{
		"seed":       "seed",
		"out":        "out",
		"agent":      "agent.token",
		"dry-run":    "dry_run",
		"workers":    "fetch.workers",
		"log-format": "log.format",
		"progress":   "log.progress",
		"frontier":   "frontier.url",
	}
}

func newRootCommand(stdout, stderr io.Writer) *cobra.Command {
	var configFile string
	var printConfig bool
	cmd := &cobra.Command{
		Use:   "crawl --seed urls.txt [--out DIR] [--config config.yaml] [--agent TOKEN] [flags]",
		Short: "A polite web crawler that honours everything robots.txt asks",
		Long: `crawl fetches the seed URLs and the links it finds, archives them as WARC 1.1
with a CDXJ index, and logs why each URL was or was not fetched. It honours
robots.txt (RFC 9309) and the 1996 extensions Crawl-delay, Request-rate and
Visit-time, paces every host, and resumes where it stopped when run again
with the same --out.

` + exitCodesHelp,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		// --version prints "crawl VERSION".
		Version: config.Version,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Loader{File: configFile, Flags: cmd.Flags(), FlagKeys: rootFlagKeys()}.Load()
			if err != nil {
				return &usageError{err}
			}
			if printConfig {
				return printEffectiveConfig(stdout, cfg)
			}
			if cfg.Seed == "" {
				return usagef("no seeds: give --seed FILE (one URL per line), or try 'crawl demo'")
			}
			return runCrawl(cmd.Context(), cfg, stdout, stderr)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	cmd.SetVersionTemplate("crawl {{.Version}}\n")
	f := cmd.Flags()
	f.String("seed", "", "file of seed URLs, one per line ('#' comments allowed)")
	f.String("out", "crawl-out", "output directory (archive, logs, report, resumable state)")
	f.StringVar(&configFile, "config", "", "config file (YAML); see config.yaml for every key")
	f.String("agent", "crawl", "product token matched against robots.txt User-agent lines")
	f.Bool("dry-run", false, "fetch only the seed hosts' robots.txt and report what they allow")
	f.Int("workers", 16, "concurrent fetches across all hosts")
	f.String("log-format", "text", "diagnostic log format: text or json")
	f.String("progress", "auto", "live progress line: auto, always or never")
	f.String("frontier", "", "frontier shared by several crawl processes: redis://[user:password@]host:port/db, rediss://..., or a Redis Cluster as redis://host:port?addr=host:port&addr=...; empty: the embedded one in --out")
	f.BoolVar(&printConfig, "print-config", false, "print the effective configuration and exit")
	for _, sub := range subcommands(stdout, stderr) {
		cmd.AddCommand(sub)
	}
	// cobra adds its help and completion commands only when it runs:
	// added here, their argument errors are usage errors too.
	cmd.InitDefaultHelpCmd()
	cmd.InitDefaultCompletionCmd()
	helpTopicsAreUsage(cmd)
	argsAreUsage(cmd)
	return cmd
}

// helpTopicsAreUsage makes "crawl help TOPIC" with a topic that names no
// command a usage error (exit 2), like any stray argument; cobra prints the
// root's help for it and exits 0.
func helpTopicsAreUsage(root *cobra.Command) {
	help, _, err := root.Find([]string{"help"})
	if err != nil || help == root || help.Run == nil {
		return
	}
	show := help.Run
	help.Run = nil
	help.RunE = func(c *cobra.Command, args []string) error {
		if target, rest, err := root.Find(args); err != nil || target == nil || len(rest) > 0 {
			return usagef("help: no command %q; see 'crawl --help'", strings.Join(args, " "))
		}
		show(c, args)
		return nil
	}
}

// argsAreUsage makes the positional-argument errors of cmd and every
// command under it (a missing or stray argument, an unknown subcommand)
// usage errors, exit 2 like a bad flag: cobra returns them as plain errors.
func argsAreUsage(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			if err := check(c, args); err != nil {
				var ue *usageError
				if errors.As(err, &ue) {
					return err
				}
				return &usageError{err}
			}
			return nil
		}
	}
	for _, sub := range cmd.Commands() {
		argsAreUsage(sub)
	}
}

func printEffectiveConfig(w io.Writer, cfg config.Config) error {
	m, err := config.Map(cfg)
	if err != nil {
		return err
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return fmt.Errorf("print config: %w", err)
	}
	return enc.Close()
}

// openSeedFile opens the seed file, mapping failure to a usage error.
func openSeedFile(path string) (*os.File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("seed file: %v", err)
	}
	return f, nil
}
