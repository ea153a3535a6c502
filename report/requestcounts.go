package report

import (
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

// requestCounts is what the report knows of every request in crawl.jsonl
// without holding the requests: read in one pass (countRequests), in
// memory that grows with the hosts, not the requests.
type requestCounts struct {
	total       int
	first, last time.Time             // of all requests
	hosts       map[string]*hostCount // by host
	order       []string              // the hosts in the order the log first names them
	// runLast holds, for each run of the summary without a recorded end,
	// its last request logged before the next run's start (see runEnd).
	runLast []time.Time
	runs    []runSummary
}

// hostCount is what the report counts of one host's requests, taken in
// time order.
type hostCount struct {
	n           int
	first, last time.Time
	short       int // gaps shorter than the interval in force, as the timeline counts them
	late        int // requests logged too late to be taken in time order (reorderWindow): no gap counted
}

// countRequests reads the crawl.jsonl of dirs once, in time order (timeOrder),
// counting per host; each request also goes to also, in log order. runs
// are the summary's, for runEnd.
func countRequests(dirs outDirs, runs []runSummary, notes *[]string, also func(request)) (*requestCounts, error) {
	c := &requestCounts{hosts: map[string]*hostCount{}, runLast: make([]time.Time, len(runs)), runs: runs}
	o := timeOrder{emit: c.add}
	err := eachLine(dirs, CrawlFile, notes, func(e crawllog.CrawlEntry) {
		r := requestOf(&e)
		c.note(r)
		also(r)
		o.push(r)
	})
	o.flush()
	return c, err
}

// note takes r in log order: the totals, the span, the order in which the
// log names the hosts, the runs' last requests.
func (c *requestCounts) note(r request) {
	c.total++
	if c.first.IsZero() || r.Time.Before(c.first) {
		c.first = r.Time
	}
	if c.last.IsZero() || r.Time.After(c.last) {
		c.last = r.Time
	}
	for i, run := range c.runs {
		if run.Finished != nil || !r.Time.After(run.Started) || r.Time.Before(c.runLast[i]) {
			continue
		}
		if i+1 == len(c.runs) || r.Time.Before(c.runs[i+1].Started) {
			c.runLast[i] = r.Time
		}
	}
	h := hostOf(r.Host, r.URL)
	if h == "" {
		return
	}
	if c.hosts[h] == nil {
		c.hosts[h] = &hostCount{}
		c.order = append(c.order, h)
	}
}

// add takes r in time order: its host's count and gap.
func (c *requestCounts) add(r request) {
	hc := c.hosts[hostOf(r.Host, r.URL)]
	if hc == nil {
		return
	}
	switch {
	case hc.n == 0:
		hc.first, hc.last = r.Time, r.Time
	case r.Time.Before(hc.last):
		hc.late++
		hc.first = minTime(hc.first, r.Time)
	default:
		if g := r.Time.Sub(hc.last).Seconds(); g < r.PaceSeconds-gapTolerance(r.PaceSeconds) {
			hc.short++
		}
		hc.last = r.Time
	}
	hc.n++
}

// runEnd is runEnd for run i of the summary, from the counts.
func (c *requestCounts) runEnd(i int) (time.Time, bool) {
	r := c.runs[i]
	if r.Finished != nil {
		return *r.Finished, true
	}
	if c.runLast[i].IsZero() {
		return r.Started, false
	}
	return c.runLast[i], false
}
