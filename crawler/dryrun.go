package crawler

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

// DryRunFile is the machine-readable result of a dry run in the output dir.
const DryRunFile = "dry-run.json"

// DryRunHost is what one seed host's robots.txt says to our agent.
type DryRunHost struct {
	Host        string                `json:"host"`
	Outcome     string                `json:"outcome"`
	Status      int                   `json:"status"`
	PaceSeconds float64               `json:"pace_seconds"`
	PaceRule    string                `json:"pace_rule"`
	VisitTimes  []crawllog.WindowJSON `json:"visit_times"`
	VisitOpen   bool                  `json:"visit_open"`
	NextVisit   *time.Time            `json:"next_visit"`
	Comments    []string              `json:"comments"`
	Seeds       []DryRunVerdict       `json:"seeds"`
}

// DryRunVerdict is whether one seed URL may be fetched and which rule said so.
type DryRunVerdict struct {
	URL     string `json:"url"`
	Allowed bool   `json:"allowed"`
	Rule    string `json:"rule"`
	Line    int    `json:"line"`
	Reason  string `json:"reason,omitempty"`
}

// DryRun fetches only the seed hosts' robots.txt files (paced and recorded in
// robots.jsonl, crawl.jsonl and the archive) and reports for every seed and
// host: allowed or not and by which rule, the pace asked, the Visit-time
// windows and when the next opens. It fetches no page and queues no URL,
// but it paces through the same durable frontier as Run (cfg.Out's
// frontier.db): it waits for a host's pace left by an earlier run, and it
// records each host's last request and the robots.txt it fetched, so a
// crawl started right after it reuses that robots.txt while fresh and
// keeps the host's pace across the two commands.
func DryRun(ctx context.Context, cfg config.Config, seeds []string, log io.Writer) ([]DryRunHost, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := embeddedOnly(cfg); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, &ErrOutDir{Dir: cfg.Out, Err: err}
	}
	c := &crawl{cfg: cfg, tally: newTally(), events: &eventSink{log: discardLogger()}, log: discardLogger()}
	store, err := scheduler.OpenBolt(filepath.Join(cfg.Out, FrontierFile))
	if err != nil {
		return nil, fmt.Errorf("crawler: open frontier: %w", err)
	}
	defer store.Close()
	runs, _, err := beginRun(cfg.Out, crawllog.ModeDryRun)
	if err != nil {
		return nil, &ErrOutDir{Dir: cfg.Out, Err: err}
	}
	defer func() { endRun(runs, crawllog.ModeDryRun, ctx.Err() != nil, 0, 0) }()
	if c.sched, err = scheduler.Open(schedulerConfig(cfg, nil), store); err != nil {
		return nil, fmt.Errorf("crawler: open scheduler: %w", err)
	}
	defer c.sched.Close()
	if c.logs, err = openLogs(cfg.Out); err != nil {
		return nil, &ErrOutDir{Dir: cfg.Out, Err: err}
	}
	defer c.logs.close()
	if cfg.Archive.WARC {
		if c.arch, err = openArchive(cfg, ""); err != nil {
			return nil, err
		}
		defer c.arch.Close()
	}
	c.tr, c.robots = newPoliteStack(cfg, c.sched, store, nil, c.onRobotsFetch)

	byHost := map[string][]string{}
	for _, s := range seeds {
		u, err := scheduler.Canonicalize(s, nil)
		if err != nil {
			fmt.Fprintln(log, crawllog.Printable(fmt.Sprintf("seed %s: %v", s, err)))
			continue
		}
		a := scheduler.Authority(u)
		byHost[a] = append(byHost[a], u.String())
	}
	hosts := make([]string, 0, len(byHost))
	for a := range byHost {
		hosts = append(hosts, a)
	}
	sort.Strings(hosts)
	out := make([]DryRunHost, len(hosts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, cfg.Fetch.Workers)
	for i, a := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			out[i] = c.dryRunHost(ctx, a, byHost[a])
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return out, ctx.Err()
	}
	b, _ := json.MarshalIndent(out, "", "  ")
	if err := os.WriteFile(filepath.Join(cfg.Out, DryRunFile), append(b, '\n'), 0o644); err != nil {
		return out, &ErrOutDir{Dir: cfg.Out, Err: err}
	}
	return out, nil
}

func (c *crawl) dryRunHost(ctx context.Context, a string, seeds []string) DryRunHost {
	h := DryRunHost{Host: a, VisitTimes: []crawllog.WindowJSON{}, Comments: []string{}}
	st, err := c.robots.Refresh(ctx, a)
	if err != nil {
		h.Outcome = "not fetched: " + err.Error()
		return h
	}
	rec := st.Record()
	h.Outcome, h.Status = rec.Outcome, rec.Status
	now := time.Now()
	if st.Good() {
		c.sched.SetRules(a, st.Rules(c.cfg.Agent.Token))
		hs := c.sched.Host(a)
		h.PaceSeconds, h.PaceRule = hs.Interval.Seconds(), hs.PaceSource
		for _, w := range st.Group().VisitTimes() {
			h.VisitTimes = append(h.VisitTimes, crawllog.WindowJSON{From: w.FromClock(), To: w.ToClock()})
		}
		h.VisitOpen = st.Group().VisitAllowed(now)
		if !h.VisitOpen {
			nv := st.Group().NextVisit(now).UTC()
			h.NextVisit = &nv
		}
		if cs := st.Group().Comments(); cs != nil {
			h.Comments = cs
		}
	}
	for _, s := range seeds {
		v := DryRunVerdict{URL: s}
		if !st.Good() {
			v.Reason = "robots.txt unreachable: " + rec.Failure()
		} else {
			verdict := st.Group().Allowed(s)
			v.Allowed, v.Rule, v.Line = verdict.Allowed, verdict.Rule, verdict.Line
		}
		h.Seeds = append(h.Seeds, v)
	}
	return h
}

// PrintDryRun writes a dry run's result for a person. Text that may come
// from a server (a Comment: line, a rule, an outcome) is written through
// crawllog.Printable, so it cannot act on the terminal.
func PrintDryRun(w io.Writer, hosts []DryRunHost) {
	for _, h := range hosts {
		fmt.Fprintf(w, "%s\n  robots.txt: %s", crawllog.Printable(h.Host), crawllog.Printable(h.Outcome))
		if h.Status != 0 {
			fmt.Fprintf(w, " (HTTP %d)", h.Status)
		}
		fmt.Fprintln(w)
		if h.PaceRule != "" {
			fmt.Fprintf(w, "  pace: one request every %s, set by %s\n", crawllog.RoundSeconds(h.PaceSeconds), crawllog.Printable(h.PaceRule))
		}
		if len(h.VisitTimes) > 0 {
			ws := make([]string, len(h.VisitTimes))
			for i, v := range h.VisitTimes {
				ws[i] = crawllog.Printable(v.From + "-" + v.To)
			}
			fmt.Fprintf(w, "  visit-time: %s UTC", strings.Join(ws, ", "))
			if h.VisitOpen {
				fmt.Fprintln(w, " (open now)")
			} else if h.NextVisit != nil {
				fmt.Fprintf(w, " (closed; next opens %s)\n", h.NextVisit.Format(time.RFC3339))
			}
		}
		for _, cm := range h.Comments {
			fmt.Fprintf(w, "  the site says: %s\n", crawllog.Printable(cm))
		}
		for _, s := range h.Seeds {
			u, rule := crawllog.Printable(s.URL), crawllog.Printable(s.Rule)
			switch {
			case s.Reason != "":
				fmt.Fprintf(w, "  NOT ALLOWED %s: %s\n", u, crawllog.Printable(s.Reason))
			case s.Allowed && s.Line > 0:
				fmt.Fprintf(w, "  allowed     %s (line %d: %s)\n", u, s.Line, rule)
			case s.Allowed:
				fmt.Fprintf(w, "  allowed     %s (no rule matches)\n", u)
			default:
				fmt.Fprintf(w, "  DISALLOWED  %s (line %d: %s)\n", u, s.Line, rule)
			}
		}
	}
}
