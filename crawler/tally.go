package crawler

import (
	"strconv"
	"sync"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

// tally counts what happened per host during one run, or (as a history's)
// during the earlier runs. Safe for concurrent use; bounded by the number
// of hosts crawled.
type tally struct {
	mu         sync.Mutex
	hosts      map[string]*hostTally
	duplicates int
	// queuedAgain counts the skips of URLs left queued that were not
	// logged again (an earlier run logged them): the run's share.
	queuedAgain int
	// refetch tells a page fetched again from its first fetch; the run's
	// tally shares the history's, which the earlier runs' logs filled.
	refetch *refetchSet
}

type hostTally struct {
	byStatus map[string]int // answers by status, every request counted
	fetched  int            // pages (distinct URLs) that got an answer
	errors   int
	skipped  map[string]int
	bytes    int64
	robots   int // robots.txt requests (and their redirect hops), not pages
}

func newTally() *tally { return &tally{hosts: map[string]*hostTally{}, refetch: newRefetchSet()} }

func (t *tally) host(a string) *hostTally {
	h := t.hosts[a]
	if h == nil {
		h = &hostTally{byStatus: map[string]int{}, skipped: map[string]int{}}
		t.hosts[a] = h
	}
	return h
}

// logged counts one crawl.jsonl line, as the run writes it or as a later
// run reads it back, in the order written: a robots.txt request, or a
// fetch. A fetch is a page fetched when it is the first answer (any
// status) its URL got, so a page fetched twice (a retry, a body cut short
// fetched once more) is one page; every answer counts under its status.
// It failed when no answer came or the answer was 429 or a 5xx; a request
// that got no answer is counted as failed only, under the status "error".
func (t *tally) logged(e crawllog.CrawlEntry) (fetched, failed bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h := t.host(e.Host)
	if e.Kind == scheduler.KindRobots.String() {
		h.robots++
		return false, false
	}
	answered := e.Status > 0
	failed = e.Error != "" || e.Status == 429 || e.Status >= 500
	key := "error"
	if answered {
		key = strconv.Itoa(e.Status)
		h.bytes += e.Bytes
		if fetched = !t.refetch.answered(e); fetched {
			h.fetched++
		}
	}
	h.byStatus[key]++
	if failed {
		h.errors++
	}
	return fetched, failed
}

func (t *tally) skip(a, reason string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.host(a).skipped[reason]++
}

func (t *tally) duplicate() {
	t.mu.Lock()
	t.duplicates++
	t.mu.Unlock()
}

// add adds o's counts to h.
func (h *hostTally) add(o *hostTally) {
	for k, n := range o.byStatus {
		h.byStatus[k] += n
	}
	for k, n := range o.skipped {
		h.skipped[k] += n
	}
	h.fetched += o.fetched
	h.errors += o.errors
	h.bytes += o.bytes
	h.robots += o.robots
}

// runCounts returns the run's share of the counts: pages, robots.txt
// requests, skips and errors over every host.
func (t *tally) runCounts(r *crawllog.RunSummary) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, h := range t.hosts {
		r.Fetched += h.fetched
		r.RobotsFetches += h.robots
		r.Errors += h.errors
		for _, n := range h.skipped {
			r.Skipped += n
		}
	}
}
