package report

import (
	"fmt"
	"sort"
	"time"
)

// buildOverview sums up the crawl: run, totals, settings, deferred hosts
// and when to resume.
func buildOverview(in *input, span timeSpan, hosts []*hostView) overview {
	s := in.summary
	o := overview{
		Started: fmtTime(s.Started), Finished: fmtTime(s.Finished),
		Agent: s.Agent, UserAgent: s.UserAgent, Out: s.Out,
		Interrupted: s.Interrupted, ExitCode: s.ExitCode, Totals: s.Totals,
		Requests: len(in.requests), RobotsFetches: len(in.robots), Notes: in.notes,
	}
	if in.large != nil {
		o.Requests = in.large.counts.total
	}
	o.Duration, o.Span, o.Runs = runTimes(in)
	keys := make([]string, 0, len(s.Politeness))
	for k := range s.Politeness {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		o.Politeness = append(o.Politeness, keyValue{Key: labelFor(k), Value: fmtValue(k, s.Politeness[k])})
	}
	var earliest *time.Time
	queued := 0
	for _, hv := range hosts {
		o.ShortGaps += hv.Timeline.Short
		if hv.State != "deferred" && hv.deferredAt == nil {
			continue
		}
		if in.large == nil || len(o.Deferred) < in.large.rows {
			o.Deferred = append(o.Deferred, hv)
		} else {
			o.DeferredMore++
		}
		queued += hv.Queued
		if hv.deferredAt != nil && (earliest == nil || hv.deferredAt.Before(*earliest)) {
			earliest = hv.deferredAt
		}
	}
	if earliest != nil {
		o.Rerun = fmt.Sprintf("Resume after %s", fmtTime(*earliest))
		if !s.Finished.IsZero() && earliest.After(s.Finished) {
			o.Rerun += fmt.Sprintf(" (%s after this crawl finished)", fmtDuration(earliest.Sub(s.Finished)))
		}
		if s.Ephemeral {
			// crawl demo: its sites ended with it, nothing can resume.
			o.Rerun = fmt.Sprintf("%d URL(s) wait on %d deferred host(s); the sites of this crawl (crawl demo) ended with it, so it cannot be resumed.", queued, len(o.Deferred)+o.DeferredMore)
			return o
		}
		o.Rerun += fmt.Sprintf(": %d URL(s) wait on %d deferred host(s). Run the same crawl again with the same output directory", queued, len(o.Deferred)+o.DeferredMore)
		if s.Out != "" {
			o.Rerun += " (" + s.Out + ")"
		}
		o.Rerun += "; it resumes from the saved frontier."
	}
	return o
}

// runRow is one run of the output directory in the Run table.
type runRow struct {
	Mode, Started, Took string
	Fetched             int
	Interrupted         bool
}

// runTimes returns how long the crawl ran: the sum of its runs' own
// durations, not first start to last end, which would count the time
// between a dry run today and a crawl tomorrow. With more than one run,
// span says when they ran and rows lists them. A run with no recorded end
// (killed) is counted up to its last logged request, as "at least". A
// summary without runs falls back to its started and finished times.
func runTimes(in *input) (took, span string, rows []runRow) {
	s := in.summary
	if len(s.Runs) == 0 {
		if !s.Started.IsZero() && !s.Finished.IsZero() {
			took = fmtDuration(s.Finished.Sub(s.Started))
		}
		return took, "", nil
	}
	var total time.Duration
	approx := false
	first, last := s.Runs[0].Started, s.Runs[0].Started
	for i, r := range s.Runs {
		var next time.Time
		if i+1 < len(s.Runs) {
			next = s.Runs[i+1].Started
		}
		end, known := runEnd(r, next, in.requests)
		if in.large != nil {
			end, known = in.large.counts.runEnd(i)
		}
		d := max(end.Sub(r.Started), 0)
		total += d
		row := runRow{Mode: r.Mode, Started: fmtTime(r.Started), Took: fmtDuration(d), Fetched: r.Fetched, Interrupted: r.Interrupted}
		if !known {
			approx = true
			row.Took = "at least " + row.Took + " (no end recorded)"
		}
		rows = append(rows, row)
		if r.Started.Before(first) {
			first = r.Started
		}
		if end.After(last) {
			last = end
		}
	}
	took = fmtDuration(total)
	if approx {
		took = "at least " + took
	}
	if len(s.Runs) > 1 {
		span = fmt.Sprintf("%d runs over %s", len(s.Runs), fmtRange(first, last))
	} else {
		rows = nil
	}
	return took, span, rows
}

// runEnd returns when run r ended and whether that was recorded; without a
// record, its last request logged before next (the next run's start, zero
// if none) stands in.
func runEnd(r runSummary, next time.Time, reqs []request) (time.Time, bool) {
	if r.Finished != nil {
		return *r.Finished, true
	}
	end := r.Started
	for _, q := range reqs {
		if q.Time.After(end) && (next.IsZero() || q.Time.Before(next)) {
			end = q.Time
		}
	}
	return end, false
}

// fmtRange writes the stretch from a to b in UTC, the date once when both
// fall on one day: "2026-11-22 05:04:51–05:35:02 UTC".
func fmtRange(a, b time.Time) string {
	a, b = a.UTC(), b.UTC()
	if sameDay(a, b) {
		return a.Format("2006-01-02 15:04:05") + "–" + b.Format("15:04:05") + " UTC"
	}
	return a.Format("2006-01-02 15:04:05") + " – " + b.Format("2006-01-02 15:04:05") + " UTC"
}
