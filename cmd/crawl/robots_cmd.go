package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawler"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robots"
	"github.com/crawlproject/crawl/scheduler"
)

// robotsFetchFunc fetches a robots.txt for the live variants of the robots
// commands. robotsURL is the robots.txt URL itself
// ("https://host/robots.txt"); the function follows redirects (at most five,
// RFC 9309 2.3.1.2) and returns the final body, the final HTTP status and
// any network error, which robots.FromFetch turns into a policy.
// agent is the name of the robot asked about, so the fetch can identify
// itself with it.
type robotsFetchFunc func(ctx context.Context, cfg config.Config, robotsURL, agent string) (crawler.RobotsFetch, error)

// robotsOptions are what the robots commands take from outside.
type robotsOptions struct {
	fetch robotsFetchFunc  // live robots.txt fetch; nil means --file is required
	now   func() time.Time // clock for "the pace in force now"; nil means time.Now
}

// newRobotsCommandWith returns "crawl robots" with its check and explain
// subcommands, working on a robots.txt file given with --file, or, when
// --file is absent and a URL is given, on the robots.txt opts.fetch gets.
func newRobotsCommandWith(opts robotsOptions) *cobra.Command {
	if opts.now == nil {
		opts.now = time.Now
	}
	cmd := &cobra.Command{
		Use:   "robots",
		Short: "Check URLs against a robots.txt and explain what it asks of a crawler",
		Long: `Check URLs against a robots.txt (RFC 9309 matching: longest rule wins, Allow
wins a tie) and explain the group that applies to an agent: its rules, the
pace it asks for (Crawl-delay, Request-rate with UTC windows), its Visit-time
windows, Comment lines, Robot-version, the file's Sitemaps and every line
that did not parse.

A fetched robots.txt follows the status-code policy of a crawl, with the
robots.forbidden_disallows of --config (or CRAWL_ROBOTS_FORBIDDEN_DISALLOWS).

--agent names the robot asked about: its name as a robots.txt holds it,
digits included (MJ12bot, 360Spider), matched case-insensitively, or a whole
User-Agent header, reduced to the robot's product token (the one after
"compatible;" in a comment, else the first that is not a browser's), which
the output names. Without --agent, the crawl's own agent.token is asked
about (config default "crawl"), and the output says so.

Exit codes: 0 ok, 2 usage error (no or unknown subcommand, missing --file,
an --agent that names no robot, a target that is neither an http(s) URL nor
a path, an unreadable file, a config a crawl would refuse).`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Flags meant for a mistyped subcommand ("crawl robots chek
		// --agent x") must not hide that it is unknown.
		FParseErrWhitelist:         cobra.FParseErrWhitelist{UnknownFlags: true},
		SuggestionsMinimumDistance: 2,
		DisableFlagsInUseLine:      true,
		// Without RunE cobra prints help and exits 0 for "crawl robots"
		// and, since a subcommand's arguments are not checked,
		// for "crawl robots chek" too.
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				fmt.Fprint(cmd.ErrOrStderr(), cmd.UsageString())
				return usagef("robots: give a subcommand: check or explain")
			}
			hint := ""
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				hint = fmt.Sprintf("; did you mean %q?", s[0])
			}
			return usagef("unknown command %q for %q%s", args[0], cmd.CommandPath(), hint)
		},
	}
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
	cmd.AddCommand(newRobotsCheckCommand(opts), newRobotsExplainCommand(opts))
	return cmd
}

// robotsFlags are the flags both subcommands share, and the robot they
// ask about (asked, resolved from --agent and the config).
type robotsFlags struct {
	file, agent, config string
	json                bool
	asked               askedAgent
}

func (f *robotsFlags) bind(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.file, "file", "", "robots.txt file to read")
	cmd.Flags().StringVar(&f.config, "config", "", "config file (YAML) as for a crawl; its robots.forbidden_disallows (or CRAWL_ROBOTS_FORBIDDEN_DISALLOWS) applies")
	cmd.Flags().StringVar(&f.agent, "agent", "", "robot to ask about: its name (MJ12bot, FooBot/2.1) or a whole User-Agent header; default the crawl's agent.token")
	cmd.Flags().BoolVar(&f.json, "json", false, "print JSON")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
}

func newRobotsCheckCommand(opts robotsOptions) *cobra.Command {
	var f robotsFlags
	cmd := &cobra.Command{
		Use:   "check [--file PATH] [--agent NAME] [--json] URL...",
		Short: "Say whether each URL may be fetched, and which line decided",
		Long: `Say whether each URL (absolute, or a path) may be fetched by the agent, and
which robots.txt line decided. Each URL is judged as the crawler would
request it, in its canonical form (dot segments and "%2e%2e" resolved,
unreserved escapes decoded, an empty query and the fragment dropped); when
that differs from what was typed, the line says "checked as ...". Without --file, each URL's robots.txt is
fetched; one that is unavailable (4xx) allows everything, one that is
unreachable (5xx, 429, network error) disallows everything (RFC 9309
2.3.1.3, 2.3.1.4), and a warning on stderr says so. With --json, print one
object per URL and line: {"url": <as typed>, "checked_as": <as the crawler
requests it, null if it would not>, "allowed": true|false, "rule":
"<deciding line or empty>", "line": <n or 0>, "robots_txt": {"source",
"fetched", "status", "error", "outcome", "policy", "truncated", "redirects"}, "agent":
<the robot's name asked about>, "group":
[<User-agent values>] or null, "pace_now": {"interval_seconds", "line",
"rule"} or null, "visit_open_now", "next_visit": <RFC 3339> or null, "at":
<the moment these hold for>}`,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			asked, err := parseAgent("check", f.agent)
			if err != nil {
				return err
			}
			if len(args) == 0 {
				return usagef("robots check: give at least one URL")
			}
			if f.file == "" && opts.fetch == nil {
				return usagef("robots check: --file is required")
			}
			if err := checkTargets(args, f.file != ""); err != nil {
				return err
			}
			cfg, popts, err := f.settings(asked)
			if err != nil {
				return err
			}
			var load func(target string) (robotsTxt, error)
			if f.file != "" {
				t, err := readRobotsFile(f.file, popts.ParseLimit)
				if err != nil {
					return err
				}
				load = func(string) (robotsTxt, error) { return t, nil }
			} else {
				cache := map[string]robotsTxt{}
				load = func(target string) (robotsTxt, error) {
					robotsURL, err := robotsURLFor(target)
					if err != nil {
						return robotsTxt{}, err
					}
					if t, ok := cache[robotsURL]; ok {
						return t, nil
					}
					t := fetchRobots(cmd.Context(), opts.fetch, cfg, robotsURL, f.asked.name, popts)
					if w := t.warning(); w != "" {
						fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s: %s\n", crawllog.Printable(robotsURL), crawllog.Printable(w))
					}
					cache[robotsURL] = t
					return t, nil
				}
			}
			return runRobotsCheck(cmd.OutOrStdout(), load, f, args, opts.now())
		},
	}
	f.bind(cmd)
	return cmd
}

func newRobotsExplainCommand(opts robotsOptions) *cobra.Command {
	var f robotsFlags
	cmd := &cobra.Command{
		Use:   "explain (--file PATH | URL) [--agent NAME] [--json]",
		Short: "Explain the group that applies to an agent: rules, pace, visit times",
		Long: `Explain the robots.txt group that applies to the agent: its user-agent lines,
the pace it asks for now and at other times (Crawl-delay, Request-rate with
UTC windows), Visit-time windows, Comment lines, Robot-version, the file's
Sitemaps and the lines that did not parse. The Allow and Disallow lines come
from the RFC 9309 group (user-agent lines up to its first rule); the pace
lines from the 1996 records naming the agent (the user-agent lines directly
above them), or naming * when no user-agent line names it: both are listed
with their line numbers. Windows are in UTC and include
their last minute, as the crawl keeps them: "Visit-time: 0600-0845" is
06:00 to 08:45:59 UTC (the 1996 example's 1300-1659, 1700-0459 and
0500-1259 tile a day); in JSON, "to" is that last minute. For a fetched robots.txt, say how
the fetch came out and, if the file could not be had, the policy that
applies instead (RFC 9309 2.3.1.3 unavailable: allow all; 2.3.1.4
unreachable: disallow all). With --json, print one object:
{"robots_txt": {"source", "fetched", "status", "error", "outcome",
"policy", "truncated", "redirects"}, "crawl_delay_seconds", "request_rates" (each
{"requests", "seconds", "interval_seconds", "from", "to"}), "visit_times"
(each {"from", "to"}),
"comments", "sitemaps", "robot_version", "warnings", "rules" (each {"line",
"rule"}), "group_lines" (the group's User-agent lines, each {"line", "rule"}),
"pace_record" ({"star_fallback", "user_agents", "lines"}: the records the pace
comes from, their User-agent and pace lines each {"line", "rule"}; null when
the fetch's policy decides), "agent" (the robot's name asked about), "group" ([<User-agent values>], ["*"], or null when no group
applies or the fetch's policy decides), "pace_now" ({"interval_seconds",
"line", "rule"} or null), "visit_open_now", "next_visit" (RFC 3339 or
null), "at" (the moment pace_now and visit_open_now hold for)}.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			asked, err := parseAgent("explain", f.agent)
			if err != nil {
				return err
			}
			cfg, popts, err := f.settings(asked)
			if err != nil {
				return err
			}
			var t robotsTxt
			switch {
			case f.file != "" && len(args) > 0:
				return usagef("robots explain: give either --file or a URL, not both")
			case f.file != "":
				var err error
				if t, err = readRobotsFile(f.file, popts.ParseLimit); err != nil {
					return err
				}
			case len(args) != 1:
				return usagef("robots explain: --file is required (or one site URL)")
			case opts.fetch == nil:
				return usagef("robots explain: fetching %s is not available here; give --file", args[0])
			default:
				robotsURL, err := robotsURLFor(args[0])
				if err != nil {
					return err
				}
				t = fetchRobots(cmd.Context(), opts.fetch, cfg, robotsURL, f.asked.name, popts)
			}
			if f.json {
				return writeExplainJSON(cmd.OutOrStdout(), t, f.asked.name, opts.now())
			}
			return writeExplainText(cmd.OutOrStdout(), t, f.asked, opts.now())
		},
	}
	f.bind(cmd)
	return cmd
}

// settings returns the effective config (flag-free: --config file, CRAWL_*
// environment, defaults), read by the crawl's own loader, and the
// status-code policy a crawl would use, and sets f.asked to asked or,
// when --agent was not given, to the config's agent.token. A live fetch
// uses the config's agent, timeouts and size limit; a config the crawl
// would refuse is a usage error here too.
func (f *robotsFlags) settings(asked askedAgent) (config.Config, robots.PolicyOptions, error) {
	cfg, err := config.Loader{File: f.config}.Load()
	if err != nil {
		return config.Config{}, robots.PolicyOptions{}, &usageError{err}
	}
	f.asked = asked
	if asked.name == "" {
		f.asked = defaultAgent(cfg)
	}
	return cfg, robots.PolicyOptions{RestrictedDisallows: cfg.Robots.ForbiddenDisallows, ParseLimit: int(cfg.Robots.MaxBytes)}, nil
}

// isHTTPToken reports whether s is a non-empty RFC 9110 5.6.2 token, the
// form of a product version in a User-Agent ("2.1", "beta-3").
func isHTTPToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return s != ""
}

// readRobotsFile parses a robots.txt file as a crawl would parse it, up to
// limit octets (robots.max_bytes); failing to read it is a usage error. It
// reads at most limit+1 octets (see readRobots), so "--file /dev/zero"
// ends.
func readRobotsFile(path string, limit int) (robotsTxt, error) {
	f, err := os.Open(path)
	if err != nil {
		return robotsTxt{}, &usageError{fmt.Errorf("robots: cannot read --file: %w", err)}
	}
	defer f.Close()
	r, err := readRobots(f, limit)
	if err != nil {
		return robotsTxt{}, &usageError{fmt.Errorf("robots: cannot read --file: %w", err)}
	}
	return robotsTxt{source: path, r: r}, nil
}

// readRobots parses what rd holds, reading at most limit+1 octets: the
// octet past the limit tells robots.ParseLimit that the body is longer, so
// it marks the result Truncated and warns, as for a fetched file, and
// whether the last line within the limit is whole.
func readRobots(rd io.Reader, limit int) (*robots.Robots, error) {
	body, err := io.ReadAll(io.LimitReader(rd, int64(limit)+1))
	if err != nil {
		return nil, err
	}
	return robots.ParseLimit(body, limit), nil
}

// checkTargets returns a usage error naming the first target that is
// neither an absolute http(s) URL nor, if paths are allowed (--file), a
// path starting with "/". Left to robots.Group.Allowed, "mailto:me@x",
// "h/ok" and "" would be read as "/" or "/ok" and answered for.
func checkTargets(targets []string, paths bool) error {
	for _, t := range targets {
		if paths && strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "//") {
			continue
		}
		if u, err := url.Parse(t); err == nil && u.Host != "" && (u.Scheme == "http" || u.Scheme == "https") {
			continue
		}
		if !paths {
			return usagef("robots check: %q is not an absolute http(s) URL (http://host/path); give --file to check paths", t)
		}
		return usagef("robots check: %q is neither an absolute http(s) URL (http://host/path) nor a path starting with a single '/'", t)
	}
	return nil
}

// robotsURLFor returns the robots.txt URL of an absolute http(s) URL, on
// its canonical scheme and host (scheduler.Canonicalize: lower case, the
// port without leading zeros and dropped if it is the scheme's default),
// one to one with the authority the crawl paces and fetches robots.txt
// for (scheduler.Authority), so that every spelling of one host ("HOST",
// ":80", ":018821") names one robots.txt and is fetched once.
func robotsURLFor(target string) (string, error) {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", usagef("robots: %q is not an absolute http(s) URL; give --file to check paths", target)
	}
	c, err := scheduler.Canonicalize(target, nil)
	if err != nil {
		return "", usagef("robots: %q is not a URL the crawl can fetch: %v", target, err)
	}
	return c.Scheme + "://" + c.Host + "/robots.txt", nil
}

// fetchRobots fetches a robots.txt and applies the RFC 9309 status policy.
func fetchRobots(ctx context.Context, fetch robotsFetchFunc, cfg config.Config, robotsURL, agent string, opts robots.PolicyOptions) robotsTxt {
	f, err := fetch(ctx, cfg, robotsURL, agent)
	if err == nil {
		err = f.Err
	}
	return robotsTxt{source: robotsURL, fetched: true, status: f.Status, err: err, redirects: f.Redirects,
		r: robots.FromFetch(f.Status, f.Body, err, opts)}
}
