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
	if !s.Started.IsZero() && !s.Finished.IsZero() {
		o.Duration = fmtDuration(s.Finished.Sub(s.Started))
	}
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
		o.Deferred = append(o.Deferred, hv)
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
		o.Rerun += fmt.Sprintf(": %d URL(s) wait on %d deferred host(s). Run the same crawl again with the same output directory", queued, len(o.Deferred))
		if s.Out != "" {
			o.Rerun += " (" + s.Out + ")"
		}
		o.Rerun += "; it resumes from the saved frontier."
	}
	return o
}
