package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/redisfrontier"
	"github.com/crawlproject/crawl/scheduler"
)

// frontierStatus is the progress of a crawl across the processes that
// share its frontier, as "crawl status" prints it.
type frontierStatus struct {
	// Queued, Leased and Done count URLs: waiting in the frontier, held
	// by a process now, and finished.
	Queued int        `json:"queued"`
	Leased int        `json:"leased"`
	Done   int        `json:"done"`
	Hosts  hostCounts `json:"hosts"`
	// Processes are the crawl processes that reported a heartbeat, in
	// the frontier's order.
	Processes []processStatus `json:"processes"`
}

// hostCounts counts the hosts of a frontier, and those held back:
// waiting for a Visit-time window (parked), backing off after 429, 503 or
// failures, deferred beyond politeness.max_wait, or given up (dropped).
type hostCounts struct {
	Total      int `json:"total"`
	Parked     int `json:"parked"`
	BackingOff int `json:"backing_off"`
	Deferred   int `json:"deferred"`
	Dropped    int `json:"dropped"`
}

// processStatus is one crawl process of a shared frontier, from its
// heartbeats: its id (host name, pid and random digits), where it runs
// and writes, the pages it fetched, when it started and last reported,
// and whether that report is stale: older than three of its heartbeat
// intervals, so the process has stopped (killed, or cut off from the
// frontier) without ending.
type processStatus struct {
	ID       string    `json:"id"`
	Host     string    `json:"host"`
	PID      int       `json:"pid"`
	Out      string    `json:"out"`
	Pages    int       `json:"pages"`
	Started  time.Time `json:"started"`
	LastSeen time.Time `json:"last_seen"`
	Stale    bool      `json:"stale"`
}

// statusFunc reads the status of the frontier at url.
type statusFunc func(ctx context.Context, url string) (frontierStatus, error)

// newStatusCommand returns "crawl status --frontier URL [--json]", which
// prints what status reads of the shared frontier at URL (--frontier, or
// CRAWL_FRONTIER_URL).
func newStatusCommand(status statusFunc) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "status --frontier URL [--json]",
		Short: "Print the progress of a distributed crawl across its processes",
		Long: `Print the progress of the crawl whose frontier is at URL, across every process
that shares it: URLs queued, leased and done; hosts parked, backing off,
deferred and given up; and each process with its pages and last heartbeat,
marked stale when older than three heartbeat intervals (the process was
killed or lost the frontier). URL is the --frontier the processes were
started with (or CRAWL_FRONTIER_URL).`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := config.Loader{Flags: cmd.Flags(), FlagKeys: map[string]string{"frontier": "frontier.url"}}.Load()
			if err != nil {
				return &usageError{err}
			}
			if cfg.Frontier.URL == "" {
				return usagef("status: give --frontier URL (or CRAWL_FRONTIER_URL), the Redis URL the crawl's processes share")
			}
			st, err := status(cmd.Context(), cfg.Frontier.URL)
			if err != nil {
				return err
			}
			if asJSON {
				return printStatusJSON(cmd.OutOrStdout(), st)
			}
			return printStatus(cmd.OutOrStdout(), config.RedactURL(cfg.Frontier.URL), st, time.Now())
		},
	}
	cmd.Flags().String("frontier", "", "the Redis URL of the crawl's shared frontier")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the status as JSON")
	return cmd
}

// printStatus writes st for a reader: the frontier (its URL redacted), the
// URL and host counts, then one line per process with its pages and how
// long ago, before now, it last reported, marked "(stale)" when stale.
func printStatus(w io.Writer, redactedURL string, st frontierStatus, now time.Time) error {
	fmt.Fprintf(w, "Frontier %s\n", crawllog.Printable(redactedURL))
	fmt.Fprintf(w, "  URLs:  %d queued, %d leased, %d done\n", st.Queued, st.Leased, st.Done)
	h := st.Hosts
	fmt.Fprintf(w, "  hosts: %d (%d parked, %d backing off, %d deferred, %d given up)\n", h.Total, h.Parked, h.BackingOff, h.Deferred, h.Dropped)
	if len(st.Processes) == 0 {
		_, err := fmt.Fprintln(w, "  processes: none has reported")
		return err
	}
	fmt.Fprintf(w, "  processes: %d\n", len(st.Processes))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "    PROCESS\tPAGES\tLAST HEARTBEAT\tOUT")
	for _, p := range st.Processes {
		seen := sinceWords(now, p.LastSeen)
		if p.Stale {
			seen += " (stale)"
		}
		fmt.Fprintf(tw, "    %s\t%d\t%s\t%s\n", crawllog.Printable(p.ID), p.Pages, seen, crawllog.Printable(p.Out))
	}
	return tw.Flush()
}

// sinceWords says how long before now t was, to the second ("3s ago",
// "2m5s ago"); "never" for the zero time.
func sinceWords(now, t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	d := max(now.Sub(t), 0).Round(time.Second)
	return d.String() + " ago"
}

// printStatusJSON writes st as one indented JSON object, times in UTC.
func printStatusJSON(w io.Writer, st frontierStatus) error {
	st.Processes = slices.Clone(st.Processes)
	for i := range st.Processes {
		p := &st.Processes[i]
		p.Started, p.LastSeen = p.Started.UTC(), p.LastSeen.UTC()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(st)
}

// redisStatus reads the status of the shared frontier at url.
func redisStatus(ctx context.Context, url string) (frontierStatus, error) {
	r, err := redisfrontier.Status(ctx, url)
	if err != nil {
		return frontierStatus{}, err
	}
	return statusOf(r, time.Now()), nil
}

// statusOf is what "crawl status" prints of the frontier's report r, read
// at now.
func statusOf(r redisfrontier.Report, now time.Time) frontierStatus {
	s := frontierStatus{Queued: int(r.Queued), Leased: int(r.Leased), Done: int(r.Done),
		Hosts: hostCounts{Total: int(r.Hosts), Parked: r.States[scheduler.StateParked], BackingOff: r.States[scheduler.StateBackingOff],
			Deferred: r.States[scheduler.StateDeferred], Dropped: r.States[scheduler.StateDropped]}}
	for _, p := range r.Processes {
		s.Processes = append(s.Processes, processStatus{ID: p.ID, Host: p.Host, PID: p.PID, Out: p.Out, Pages: p.Pages,
			Started: p.Started, LastSeen: p.LastSeen, Stale: p.Stale(now)})
	}
	return s
}
