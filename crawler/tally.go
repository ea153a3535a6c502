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
	byStatus   map[string]int
	fetched    int // pages that got an answer
	requisites int // requisites that got an answer
	sitemaps   int // sitemaps that got an answer
	skipped    map[string]int
	bytes      int64
	robots     int // robots.txt requests (and their redirect hops), not pages
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
// fetch. A fetch is a page, requisite or sitemap fetched (each counted
// apart) when it is the first answer (any status) its URL got, so a URL
// fetched twice (a retry, a body cut short fetched once more) is counted
// once; every answer counts under its status. It failed when no answer
// came or the answer was 429 or a 5xx; a request that got no answer is
// counted under the status "error". Whether a failed URL ended in error
// is the failingSet's to say.
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
			*h.kindCount(e.Kind)++
		}
	}
	h.byStatus[key]++
	return fetched, failed
}

// kindCount is the counter of the answers of URLs of kind (a Kind's
// name): pages, requisites or sitemaps.
func (h *hostTally) kindCount(kind string) *int {
	switch kind {
	case scheduler.KindRequisite.String():
		return &h.requisites
	case scheduler.KindSitemap.String():
		return &h.sitemaps
	}
	return &h.fetched
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
	h.requisites += o.requisites
	h.sitemaps += o.sitemaps
	h.bytes += o.bytes
	h.robots += o.robots
}

// runCounts returns the run's share of the counts: pages, requisites,
// sitemaps, robots.txt requests and skips over every host (its errors are
// the failingSet's).
func (t *tally) runCounts(r *crawllog.RunSummary) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, h := range t.hosts {
		r.Fetched += h.fetched
		r.Requisites += h.requisites
		r.Sitemaps += h.sitemaps
		r.RobotsFetches += h.robots
		for _, n := range h.skipped {
			r.Skipped += n
		}
	}
}
