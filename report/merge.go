package report

// One report over the --out directories of the processes of one
// distributed crawl: their summaries combined, their logs merged by time.

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

// outDirs are the --out directories a report is read from: one crawl's,
// or those of the processes of one distributed crawl.
type outDirs []string

// readSummaries reads and combines the summary.json of every dir
// (mergeSummaries). A missing or unreadable one is an error, wrapping
// fs.ErrNotExist when it is absent.
func readSummaries(dirs outDirs) (summary, error) {
	all := make([]summary, 0, len(dirs))
	for _, dir := range dirs {
		path := filepath.Join(dir, SummaryFile)
		b, err := os.ReadFile(path)
		if err != nil {
			return summary{}, fmt.Errorf("report: read summary: %w", err)
		}
		var s summary
		if err := json.Unmarshal(b, &s); err != nil {
			return summary{}, fmt.Errorf("report: parse %s: %w", path, err)
		}
		all = append(all, s)
	}
	if len(all) == 1 {
		return all[0], nil
	}
	return mergeSummaries(all), nil
}

// mergeSummaries combines the summaries of the processes of one crawl:
// what each did is summed (requests, skips, duplicate links, each host's
// counts), runs are listed together by start, and what describes the
// shared frontier at the end (URLs queued, hosts deferred or given up,
// each host's state, pace and robots.txt) is the summary that finished
// last's. The crawl started at the first start and finished at the last
// end; it was interrupted if any process was, and its exit code is the
// highest.
func mergeSummaries(all []summary) summary {
	all = slices.Clone(all)
	slices.SortStableFunc(all, func(a, b summary) int { return a.Finished.Compare(b.Finished) })
	out := all[len(all)-1]
	out.Hosts, out.Runs, out.SkipReasons = nil, nil, map[string]int{}
	outs := make([]string, 0, len(all))
	hosts := map[string]*hostSummary{}
	var order []string
	for i, s := range all {
		if i == 0 || s.Started.Before(out.Started) {
			out.Started = s.Started
		}
		out.Interrupted = out.Interrupted || s.Interrupted
		out.ExitCode = max(out.ExitCode, s.ExitCode)
		out.Ephemeral = out.Ephemeral || s.Ephemeral
		outs = append(outs, s.Out)
		out.Runs = append(out.Runs, s.Runs...)
		for reason, n := range s.SkipReasons {
			out.SkipReasons[reason] += n
		}
		if i < len(all)-1 {
			addWork(&out.Totals, s.Totals)
		}
		for _, hs := range s.Hosts {
			if hosts[hs.Host] == nil {
				order = append(order, hs.Host)
			}
			hosts[hs.Host] = mergeHost(hosts[hs.Host], hs)
		}
	}
	out.Out = strings.Join(outs, ", ")
	slices.SortStableFunc(out.Runs, func(a, b runSummary) int { return a.Started.Compare(b.Started) })
	slices.Sort(order)
	for _, h := range order {
		out.Hosts = append(out.Hosts, *hosts[h])
	}
	return out
}

// addWork adds the work counts of t to sum: requests and their outcomes,
// skips and duplicate links, not the frontier's state.
func addWork(sum *totals, t totals) {
	sum.Fetched += t.Fetched
	sum.Requisites += t.Requisites
	sum.Sitemaps += t.Sitemaps
	sum.RobotsFetches += t.RobotsFetches
	sum.Skipped += t.Skipped
	sum.Errors += t.Errors
	sum.DuplicateLinks += t.DuplicateLinks
}

// mergeHost combines a host's summary so far (nil: none yet) with later,
// from a summary that finished later: the counts are summed, the events
// merged by time, and the state, pace, queue and robots.txt are later's.
func mergeHost(sum *hostSummary, later hostSummary) *hostSummary {
	if sum == nil {
		h := later
		h.PagesByStatus = addCounts(nil, later.PagesByStatus)
		return &h
	}
	h := later
	h.Label, h.Note = cmp.Or(sum.Label, later.Label), cmp.Or(sum.Note, later.Note)
	h.PagesByStatus = addCounts(sum.PagesByStatus, later.PagesByStatus)
	h.Fetched += sum.Fetched
	h.Requisites += sum.Requisites
	h.Sitemaps += sum.Sitemaps
	h.RobotsFetches += sum.RobotsFetches
	h.Errors += sum.Errors
	h.Skipped += sum.Skipped
	if h.Robots == nil {
		h.Robots = sum.Robots
	}
	h.Events = append(slices.Clone(sum.Events), later.Events...)
	slices.SortStableFunc(h.Events, func(a, b event) int { return a.Time.Compare(b.Time) })
	return &h
}

// addCounts returns a new map with the counts of a and b added up.
func addCounts(a, b map[string]int) map[string]int {
	out := make(map[string]int, len(a)+len(b))
	for k, n := range a {
		out[k] += n
	}
	for k, n := range b {
		out[k] += n
	}
	return out
}

// eachMergedLine calls fn with the well-formed lines of name in every dir,
// merged by time: each file is read in its own order, and the next line
// given is the earliest of the files' next lines (at equal times, the
// first dir's). A missing file or malformed lines leave a note naming
// the file's path. Every file is read to its end; their read errors are
// returned together.
func eachMergedLine[T any](dirs outDirs, name string, notes *[]string, fn func(T)) error {
	type head struct {
		next func() (T, bool)
		v    T
		ok   bool
	}
	errs := make([]error, len(dirs))
	heads := make([]*head, len(dirs))
	for i, dir := range dirs {
		seq := iter.Seq[T](func(yield func(T) bool) {
			errs[i] = eachFileLine(dir, name, filepath.Join(dir, name), notes, func(v T) { yield(v) })
		})
		next, stop := iter.Pull(seq)
		defer stop()
		h := &head{next: next}
		h.v, h.ok = next()
		heads[i] = h
	}
	for {
		var first *head
		for _, h := range heads {
			if h.ok && (first == nil || lineTime(&h.v).Before(lineTime(&first.v))) {
				first = h
			}
		}
		if first == nil {
			return errors.Join(errs...)
		}
		fn(first.v)
		first.v, first.ok = first.next()
	}
}

// lineTime is the time of a log line the report reads: a request, a skip
// or a robots.txt fetch.
func lineTime(v any) time.Time {
	switch x := v.(type) {
	case *crawllog.CrawlEntry:
		return x.Time
	case *skip:
		return x.Time
	case *robotsFetch:
		return x.Time
	}
	return time.Time{}
}
