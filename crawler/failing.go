package crawler

import (
	"hash/maphash"
	"sync"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

// maxFailing bounds the URLs a failingSet remembers (some 40 MB at most).
// Past it, a URL that fails is counted as an error for good, even if a
// later attempt succeeds.
const maxFailing = 1 << 20

// failingSet holds the URLs whose last attempt failed (no answer, 429 or
// a 5xx), as 64-bit hashes, with their host and the run of that attempt:
// the errors of a crawl are the URLs that ended in error, not the failed
// attempts, so a 429 retried with success is no error. It is filled from
// crawl.jsonl, read in order when a run starts, and then by the run, so a
// URL that failed in an earlier run and is fetched now stops counting
// there. Safe for concurrent use.
type failingSet struct {
	mu       sync.Mutex
	seed     maphash.Seed
	m        map[uint64]failure
	overflow map[failure]int // failures past maxFailing, counted for good
}

// failure is the last failed attempt at a URL: its host, and the start of
// the run that made it.
type failure struct {
	host string
	run  time.Time
}

func newFailingSet() *failingSet {
	return &failingSet{seed: maphash.MakeSeed(), m: map[uint64]failure{}, overflow: map[failure]int{}}
}

// note records the attempt e, made in the run that started at run: the
// URL fails now if failed, else its earlier failure no longer counts.
// robots.txt requests are no URLs of the crawl's and are left out.
func (f *failingSet) note(e crawllog.CrawlEntry, run time.Time, failed bool) {
	if e.Kind == scheduler.KindRobots.String() {
		return
	}
	h := maphash.String(f.seed, e.URL)
	f.mu.Lock()
	defer f.mu.Unlock()
	_, known := f.m[h]
	switch {
	case !failed:
		delete(f.m, h)
	case known || len(f.m) < maxFailing:
		f.m[h] = failure{host: e.Host, run: run.UTC()}
	default:
		f.overflow[failure{host: e.Host, run: run.UTC()}]++
	}
}

// rekey moves the failures noted under the run start from to to.
func (f *failingSet) rekey(from, to time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for h, x := range f.m {
		if x.run.Equal(from) {
			x.run = to.UTC()
			f.m[h] = x
		}
	}
	for x, n := range f.overflow {
		if x.run.Equal(from) {
			delete(f.overflow, x)
			f.overflow[failure{host: x.host, run: to.UTC()}] += n
		}
	}
}

// counts returns the URLs that ended in error by host, and by the start of
// the run of their last attempt.
func (f *failingSet) counts() (byHost map[string]int, byRun map[time.Time]int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	byHost, byRun = map[string]int{}, map[time.Time]int{}
	count := func(x failure, n int) {
		byHost[x.host] += n
		byRun[x.run] += n
	}
	for _, x := range f.m {
		count(x, 1)
	}
	for x, n := range f.overflow {
		count(x, n)
	}
	return byHost, byRun
}
