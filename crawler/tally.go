package crawler

import (
	"strconv"
	"sync"
)

// tally counts what happened per host during this run. Safe for concurrent
// use; bounded by the number of hosts crawled.
type tally struct {
	mu         sync.Mutex
	hosts      map[string]*hostTally
	duplicates int
}

type hostTally struct {
	byStatus map[string]int
	fetched  int
	errors   int
	skipped  map[string]int
	bytes    int64
	robots   int // robots.txt requests (and their redirect hops), not pages
}

func newTally() *tally { return &tally{hosts: map[string]*hostTally{}} }

func (t *tally) host(a string) *hostTally {
	h := t.hosts[a]
	if h == nil {
		h = &hostTally{byStatus: map[string]int{}, skipped: map[string]int{}}
		t.hosts[a] = h
	}
	return h
}

func (t *tally) fetch(a string, status int, bytes int64, failed bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h := t.host(a)
	key := "error"
	if status > 0 {
		key = strconv.Itoa(status)
	}
	h.byStatus[key]++
	h.fetched++
	h.bytes += bytes
	if failed {
		h.errors++
	}
}

func (t *tally) robotsFetch(a string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.host(a).robots++
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
