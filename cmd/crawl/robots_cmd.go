package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/crawlproject/crawl/crawler"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robots"
)

// robotsFetchFunc fetches a robots.txt for the live variants of the robots
// commands. robotsURL is the robots.txt URL itself
// ("https://host/robots.txt"); the function follows redirects (at most five,
// RFC 9309 2.3.1.2) and returns the final body, the final HTTP status and
// any network error, which robots.FromFetch turns into a policy.
// agent is the --agent value, so the fetch can identify itself with it.
type robotsFetchFunc func(ctx context.Context, cfg crawler.Config, robotsURL, agent string) (body []byte, status int, err error)

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

Exit codes: 0 ok, 2 usage error (no or unknown subcommand, missing --agent
or --file, an --agent that is not a product token, a target that is neither
an http(s) URL nor a path, an unreadable file, a config a crawl would refuse).`,
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

// robotsFlags are the flags both subcommands share.
type robotsFlags struct {
	file, agent, config string
	json                bool
}

func (f *robotsFlags) bind(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.file, "file", "", "robots.txt file to read")
	cmd.Flags().StringVar(&f.config, "config", "", "config file (YAML) as for a crawl; its robots.forbidden_disallows (or CRAWL_ROBOTS_FORBIDDEN_DISALLOWS) applies")
	cmd.Flags().StringVar(&f.agent, "agent", "", "crawler's product token, letters, '_' and '-' only (RFC 9309 2.2.1); a /version may follow (FooBot/2.1)")
	cmd.Flags().BoolVar(&f.json, "json", false, "print JSON")
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err} })
}

func newRobotsCheckCommand(opts robotsOptions) *cobra.Command {
	var f robotsFlags
	cmd := &cobra.Command{
		Use:   "check --file PATH --agent NAME [--json] URL...",
		Short: "Say whether each URL may be fetched, and which line decided",
		Long: `Say whether each URL (absolute, or a path) may be fetched by the agent, and
which robots.txt line decided. Without --file, each URL's robots.txt is
fetched; one that is unavailable (4xx) allows everything, one that is
unreachable (5xx, 429, network error) disallows everything (RFC 9309
2.3.1.3, 2.3.1.4), and a warning on stderr says so. With --json, print one
object per URL and line: {"url": ..., "allowed": true|false, "rule":
"<deciding line or empty>", "line": <n or 0>, "robots_txt": {"source",
"fetched", "status", "error", "outcome", "policy", "truncated"}}`,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkAgent("check", f.agent); err != nil {
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
			cfg, popts, err := f.settings()
			if err != nil {
				return err
			}
			var load func(target string) (robotsTxt, error)
			if f.file != "" {
				t, err := readRobotsFile(f.file)
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
					t := fetchRobots(cmd.Context(), opts.fetch, cfg, robotsURL, f.agent, popts)
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
		Use:   "explain (--file PATH | URL) --agent NAME [--json]",
		Short: "Explain the group that applies to an agent: rules, pace, visit times",
		Long: `Explain the robots.txt group that applies to the agent: its user-agent lines,
the pace it asks for now and at other times (Crawl-delay, Request-rate with
UTC windows), Visit-time windows, Comment lines, Robot-version, the file's
Sitemaps and the lines that did not parse. For a fetched robots.txt, say how
the fetch came out and, if the file could not be had, the policy that
applies instead (RFC 9309 2.3.1.3 unavailable: allow all; 2.3.1.4
unreachable: disallow all). With --json, print one object:
{"robots_txt": {"source", "fetched", "status", "error", "outcome",
"policy", "truncated"}, "crawl_delay_seconds", "request_rates" (each
{"requests", "seconds", "interval_seconds", "from", "to"}), "visit_times",
"comments", "sitemaps", "robot_version", "warnings"}.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkAgent("explain", f.agent); err != nil {
				return err
			}
			cfg, popts, err := f.settings()
			if err != nil {
				return err
			}
			var t robotsTxt
			switch {
			case f.file != "" && len(args) > 0:
				return usagef("robots explain: give either --file or a URL, not both")
			case f.file != "":
				var err error
				if t, err = readRobotsFile(f.file); err != nil {
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
				t = fetchRobots(cmd.Context(), opts.fetch, cfg, robotsURL, f.agent, popts)
			}
			if f.json {
				return writeExplainJSON(cmd.OutOrStdout(), t, f.agent)
			}
			return writeExplainText(cmd.OutOrStdout(), t, f.agent, opts.now())
		},
	}
	f.bind(cmd)
	return cmd
}

// settings returns the effective config (flag-free: --config file, CRAWL_*
// environment, defaults), read by the crawl's own loader, and the
// status-code policy a crawl would use. A live fetch uses the config's
// agent, timeouts and size limit; a config the crawl would refuse is a
// usage error here too.
func (f *robotsFlags) settings() (crawler.Config, robots.PolicyOptions, error) {
	cfg, err := crawler.Loader{File: f.config}.Load()
	if err != nil {
		return crawler.Config{}, robots.PolicyOptions{}, &usageError{err}
	}
	return cfg, robots.PolicyOptions{RestrictedDisallows: cfg.Robots.ForbiddenDisallows}, nil
}

// checkAgent returns a usage error unless agent is a product token,
// [a-zA-Z_-]+ (RFC 9309 2.2.1), optionally followed by '/' and a version
// ("FooBot/2.1"). robots.Group reads an agent up to its first other
// character, so "Bot2" would silently be checked as "Bot" and get the
// group of "User-agent: Bot1".
func checkAgent(sub, agent string) error {
	if agent == "" {
		return usagef("robots %s: --agent is required", sub)
	}
	if tok, _, _ := strings.Cut(agent, "/"); tok == "" || robots.ProductToken(tok) != tok {
		return usagef("robots %s: --agent %q is not a product token: RFC 9309 section 2.2.1 allows only the letters a-z and A-Z, '_' and '-' (a version may follow after '/', as in FooBot/2.1)", sub, agent)
	}
	return nil
}

// readRobotsFile parses a robots.txt file; failing to read it is a usage
// error. It reads at most robots.MaxSize+1 octets (see readRobots), so
// "--file /dev/zero" ends.
func readRobotsFile(path string) (robotsTxt, error) {
	f, err := os.Open(path)
	if err != nil {
		return robotsTxt{}, &usageError{fmt.Errorf("robots: cannot read --file: %w", err)}
	}
	defer f.Close()
	r, err := readRobots(f)
	if err != nil {
		return robotsTxt{}, &usageError{fmt.Errorf("robots: cannot read --file: %w", err)}
	}
	return robotsTxt{source: path, r: r}, nil
}

// readRobots parses what rd holds, reading at most robots.MaxSize+1
// octets: the octet past the limit tells robots.Parse that the body is
// longer, so it marks the result Truncated and warns, as for a fetched
// file, and whether the last line within the limit is whole.
func readRobots(rd io.Reader) (*robots.Robots, error) {
	body, err := io.ReadAll(io.LimitReader(rd, robots.MaxSize+1))
	if err != nil {
		return nil, err
	}
	return robots.Parse(body), nil
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

// robotsURLFor returns the robots.txt URL of an absolute http(s) URL.
func robotsURLFor(target string) (string, error) {
	u, err := url.Parse(target)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return "", usagef("robots: %q is not an absolute http(s) URL; give --file to check paths", target)
	}
	return u.Scheme + "://" + u.Host + "/robots.txt", nil
}

// fetchRobots fetches a robots.txt and applies the RFC 9309 status policy.
func fetchRobots(ctx context.Context, fetch robotsFetchFunc, cfg crawler.Config, robotsURL, agent string, opts robots.PolicyOptions) robotsTxt {
	body, status, err := fetch(ctx, cfg, robotsURL, agent)
	return robotsTxt{source: robotsURL, fetched: true, status: status, err: err, r: robots.FromFetch(status, body, err, opts)}
}

// robotsTxt is a robots.txt as a robots command got it: read from --file,
// or fetched, with how the fetch came out and the Robots that follows
// from it (robots.FromFetch).
type robotsTxt struct {
	source  string // the --file path or the robots.txt URL
	fetched bool   // fetched, not read from --file
	status  int    // the final HTTP status of the fetch; 0 if none
	err     error  // the fetch's network error, if any
	r       *robots.Robots
}

// outcome says how the robots.txt was had: "read from file", "HTTP 200",
// "HTTP 503: unreachable", "unreachable: dial tcp ...: connection refused".
func (t robotsTxt) outcome() string {
	switch {
	case !t.fetched:
		return "read from file"
	case t.err != nil:
		return "unreachable: " + t.err.Error()
	}
	switch t.r.Availability() {
	case robots.Unavailable:
		if t.status >= 300 && t.status <= 399 {
			return fmt.Sprintf("HTTP %d after the redirects a crawler follows: unavailable", t.status)
		}
		return fmt.Sprintf("HTTP %d: unavailable", t.status)
	case robots.Unreachable:
		return fmt.Sprintf("HTTP %d: unreachable", t.status)
	case robots.Restricted:
		return fmt.Sprintf("HTTP %d: access restricted", t.status)
	}
	return fmt.Sprintf("HTTP %d", t.status)
}

// policy says what applies instead of rules when the robots.txt could not
// be had (effect, "everything is allowed") and why (basis, the RFC 9309
// section); "" and "" when its rules are followed.
func (t robotsTxt) policy() (effect, basis string) {
	const allowed, disallowed = "everything is allowed", "everything but /robots.txt is disallowed"
	switch t.r.Availability() {
	case robots.Unavailable:
		if t.status >= 300 && t.status <= 399 {
			return allowed, "RFC 9309 2.3.1.2: after more than five redirects a robots.txt may be taken as unavailable; 2.3.1.3: then any resource may be accessed"
		}
		return allowed, "RFC 9309 2.3.1.3: when robots.txt is unavailable, any resource may be accessed"
	case robots.Unreachable:
		return disallowed, "RFC 9309 2.3.1.4: an unreachable robots.txt means complete disallow"
	case robots.Restricted:
		return disallowed, "robots.forbidden_disallows: 401 and 403 disallow all, as the 1996 draft recommended; RFC 9309 2.3.1.3 alone would allow all"
	}
	return "", ""
}

// policyText is the policy with its basis, or "".
func (t robotsTxt) policyText() string {
	if effect, basis := t.policy(); effect != "" {
		return effect + " (" + basis + ")"
	}
	return ""
}

// warning is the warning that the robots.txt could not be had, or "".
func (t robotsTxt) warning() string {
	if p := t.policyText(); p != "" {
		return "robots.txt " + t.outcome() + "; " + p
	}
	return ""
}

// robotsTxtJSON is the "robots_txt" object of the JSON output.
type robotsTxtJSON struct {
	Source    string  `json:"source"`
	Fetched   bool    `json:"fetched"`
	Status    *int    `json:"status"`  // null if read from file or not answered
	Error     *string `json:"error"`   // the network error, or null
	Outcome   string  `json:"outcome"` // available, unavailable, unreachable or restricted
	Policy    string  `json:"policy"`  // rules, allow_all or disallow_all
	Truncated bool    `json:"truncated"`
}

func (t robotsTxt) json() robotsTxtJSON {
	j := robotsTxtJSON{Source: t.source, Fetched: t.fetched, Truncated: t.r.Truncated(), Policy: "rules"}
	if t.fetched && t.err == nil {
		j.Status = &t.status
	}
	if t.err != nil {
		e := t.err.Error()
		j.Error = &e
	}
	switch a := t.r.Availability(); a {
	case robots.Available:
		j.Outcome = "available"
	case robots.Unavailable:
		j.Outcome, j.Policy = "unavailable", "allow_all"
	case robots.Restricted:
		j.Outcome, j.Policy = "restricted", "disallow_all"
	default:
		j.Outcome, j.Policy = "unreachable", "disallow_all"
	}
	return j
}

// checkLine is one line of "robots check --json".
type checkLine struct {
	URL       string        `json:"url"`
	Allowed   bool          `json:"allowed"`
	Rule      string        `json:"rule"`
	Line      int           `json:"line"`
	RobotsTxt robotsTxtJSON `json:"robots_txt"`
}

func runRobotsCheck(w io.Writer, load func(string) (robotsTxt, error), f robotsFlags, targets []string, now time.Time) error {
	var last robotsTxt
	for _, target := range targets {
		t, err := load(target)
		if err != nil {
			return err
		}
		v := t.r.Allowed(f.agent, target)
		if f.json {
			if err := encodeJSON(w, checkLine{URL: target, Allowed: v.Allowed, Rule: v.Rule, Line: v.Line, RobotsTxt: t.json()}); err != nil {
				return err
			}
			continue
		}
		word := "ALLOWED   "
		if !v.Allowed {
			word = "DISALLOWED"
		}
		why := v.Reason.String()
		switch {
		case v.Reason == robots.ReasonRule:
			why = fmt.Sprintf("line %d: %s", v.Line, v.Rule)
		case v.Reason != robots.ReasonRobotsTxt && t.policyText() != "":
			why = "robots.txt " + t.outcome()
		}
		if _, err := fmt.Fprintf(w, "%s %s  (%s)\n", word, crawllog.Printable(target), crawllog.Printable(why)); err != nil {
			return err
		}
		last = t
	}
	if last.r != nil {
		_, err := fmt.Fprintf(w, "%s; pace now: %s\n", groupName(last, f.agent), paceWords(last.r.Group(f.agent), now))
		return err
	}
	return nil
}

// explainJSON is the object "robots explain --json" prints.
type explainJSON struct {
	RobotsTxt         robotsTxtJSON     `json:"robots_txt"`
	CrawlDelaySeconds *float64          `json:"crawl_delay_seconds"`
	RequestRates      []explainRateJSON `json:"request_rates"`
	VisitTimes        []explainSpanJSON `json:"visit_times"`
	Comments          []string          `json:"comments"`
	Sitemaps          []string          `json:"sitemaps"`
	RobotVersion      *string           `json:"robot_version"`
	Warnings          []string          `json:"warnings"`
}

type explainRateJSON struct {
	Requests        int     `json:"requests"`
	Seconds         float64 `json:"seconds"`          // the period as written
	IntervalSeconds float64 `json:"interval_seconds"` // between two requests: seconds/requests, at most a day
	From            *string `json:"from"`
	To              *string `json:"to"`
}

type explainSpanJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func writeExplainJSON(w io.Writer, t robotsTxt, agent string) error {
	r := t.r
	g := r.Group(agent)
	out := explainJSON{
		RobotsTxt:    t.json(),
		RequestRates: []explainRateJSON{},
		VisitTimes:   []explainSpanJSON{},
		Comments:     append([]string{}, g.Comments()...),
		Sitemaps:     append([]string{}, r.Sitemaps()...),
		Warnings:     []string{},
	}
	if d, ok := g.CrawlDelay(); ok {
		s := d.Seconds()
		out.CrawlDelaySeconds = &s
	}
	for _, rate := range g.RequestRates() {
		j := explainRateJSON{Requests: rate.Requests, Seconds: rate.Per.Seconds(), IntervalSeconds: rate.Interval().Seconds()}
		if rate.Windowed {
			from, to := rate.Window.FromClock(), rate.Window.ToClock()
			j.From, j.To = &from, &to
		}
		out.RequestRates = append(out.RequestRates, j)
	}
	for _, win := range g.VisitTimes() {
		out.VisitTimes = append(out.VisitTimes, explainSpanJSON{From: win.FromClock(), To: win.ToClock()})
	}
	if v, ok := g.RobotVersion(); ok {
		out.RobotVersion = &v
	}
	if w := t.warning(); w != "" {
		out.Warnings = append(out.Warnings, w)
	}
	for _, warn := range r.Warnings() {
		out.Warnings = append(out.Warnings, warn.String())
	}
	return encodeJSON(w, out)
}

func writeExplainText(w io.Writer, t robotsTxt, agent string, now time.Time) error {
	r := t.r
	g := r.Group(agent)
	var b strings.Builder
	fmt.Fprintf(&b, "robots.txt: %s (%s", crawllog.Printable(t.source), crawllog.Printable(t.outcome()))
	if r.Truncated() {
		b.WriteString(", cut at 500 KiB")
	}
	b.WriteString(")\n")
	rules := g.Rules()
	if p := t.policyText(); p != "" {
		fmt.Fprintf(&b, "policy: %s\n", p)
		fmt.Fprintf(&b, "agent %q -> no group; the policy applies to every agent\n", agent)
		b.WriteString("rules: none (the policy decides every URL)\n")
	} else {
		fmt.Fprintf(&b, "agent %q -> %s\n", agent, groupName(t, agent))
		fmt.Fprintf(&b, "rules: %d (longest match wins, Allow wins a tie)\n", len(rules))
	}
	for _, rule := range rules {
		fmt.Fprintf(&b, "  line %d: %s\n", rule.Line, crawllog.Printable(rule.Text))
	}
	fmt.Fprintf(&b, "pace now (%s): %s\n", now.UTC().Format("15:04 UTC"), paceWords(g, now))
	if d, ok := g.CrawlDelay(); ok {
		fmt.Fprintf(&b, "  Crawl-delay: one request every %s\n", durationWords(d))
	}
	for _, rate := range g.RequestRates() {
		when := "at any time"
		if rate.Windowed {
			when = "between " + rate.Window.FromClock() + " and " + rate.Window.ToClock() + " UTC"
		}
		capped := ""
		if rate.Interval() < rate.Per/time.Duration(rate.Requests) {
			capped = ", capped at " + durationWords(robots.MaxDelay)
		}
		fmt.Fprintf(&b, "  Request-rate: %d per %s (one every %s%s) %s  [line %d]\n",
			rate.Requests, durationWords(rate.Per), durationWords(rate.Interval()), capped, when, rate.Line)
	}
	if wins := g.VisitTimes(); len(wins) > 0 {
		spans := make([]string, len(wins))
		for i, win := range wins {
			spans[i] = win.FromClock() + "-" + win.ToClock()
		}
		fmt.Fprintf(&b, "visit only between (UTC): %s; ", strings.Join(spans, ", "))
		if g.VisitAllowed(now) {
			b.WriteString("open now\n")
		} else {
			fmt.Fprintf(&b, "closed now, next window opens %s\n", g.NextVisit(now).UTC().Format("2006-01-02 15:04 UTC"))
		}
	} else {
		b.WriteString("visit times: any time\n")
	}
	if v, ok := g.RobotVersion(); ok {
		fmt.Fprintf(&b, "robot-version: %s (informational; rules follow RFC 9309)\n", crawllog.Printable(v))
	}
	for _, c := range g.Comments() {
		fmt.Fprintf(&b, "comment: %s\n", crawllog.Printable(c))
	}
	for _, s := range r.Sitemaps() {
		fmt.Fprintf(&b, "sitemap: %s\n", crawllog.Printable(s))
	}
	var ws []string
	if w := t.warning(); w != "" {
		ws = append(ws, w)
	}
	for _, warn := range r.Warnings() {
		ws = append(ws, warn.String())
	}
	fmt.Fprintf(&b, "warnings: %d\n", len(ws))
	for _, warn := range ws {
		fmt.Fprintf(&b, "  %s\n", crawllog.Printable(warn))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// groupName describes the group that applies to agent, for people.
func groupName(t robotsTxt, agent string) string {
	if effect, _ := t.policy(); effect != "" {
		return "no group: robots.txt " + crawllog.Printable(t.outcome()) + ", so " + effect
	}
	agents := t.r.Group(agent).Agents()
	switch {
	case len(agents) == 0:
		return "no group applies (everything allowed)"
	case len(agents) == 1 && agents[0] == "*":
		return "the * group"
	}
	return "group User-agent: " + crawllog.Printable(strings.Join(agents, ", "))
}

// paceWords says in words how fast the group lets a crawler go at now.
func paceWords(g *robots.Group, now time.Time) string {
	interval, source, ok := g.Pace(now)
	if !ok {
		return "no pace asked for"
	}
	return fmt.Sprintf("at most one request every %s (%s)", durationWords(interval), crawllog.Printable(source))
}

// durationWords formats d without trailing zero units: "10m", "1h30m", "2.5s".
func durationWords(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// encodeJSON writes v as one line of JSON. encoding/json escapes the C0
// controls and replaces invalid UTF-8, but writes DEL, the C1 controls and
// the bidi and other format characters as they are; they are escaped here
// too ("\u007f", "\u009b", "\u202e"), which is the same JSON.
func encodeJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	out := buf.Bytes()
	if bytes.IndexFunc(out, func(r rune) bool { return r != '\n' && !strconv.IsPrint(r) }) >= 0 {
		var b bytes.Buffer
		for _, r := range string(out) {
			if r != '\n' && !strconv.IsPrint(r) {
				if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
					fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
				} else {
					fmt.Fprintf(&b, `\u%04x`, r)
				}
				continue
			}
			b.WriteRune(r)
		}
		out = b.Bytes()
	}
	_, err := w.Write(out)
	return err
}
