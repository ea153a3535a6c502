package report

import (
	"hash/maphash"
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

// maxQueuedKeys bounds the URLs left queued whose lines queuedLines tells
// apart (some 40 MB of hashes); past it, a URL logged by two runs is read
// twice.
const maxQueuedKeys = 1 << 20

// queuedLines decides which lines of URLs left queued (queued: true,
// their host deferred or given up for the run) the report reads. A crawl
// logs such a URL once per reason, the first time it is left queued, so a
// line of an earlier run still stands while its host has URLs queued; an
// older crawl logged it again at every run, and the repeats are read once.
// Lines of earlier runs of hosts with nothing queued are passed over: the
// URLs were fetched since. (dropFetched passes over a line whose URL a
// later request fetched.)
type queuedLines struct {
	last    time.Time       // the start of the summary's latest crawl run
	waiting map[string]bool // hosts the summary has URLs queued for
	seed    maphash.Seed
	seen    map[uint64]struct{}
}

func newQueuedLines(s *summary) *queuedLines {
	q := &queuedLines{waiting: map[string]bool{}, seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}}
	for _, r := range s.Runs {
		if r.Mode == crawllog.ModeCrawl && r.Started.After(q.last) {
			q.last = r.Started
		}
	}
	for _, hs := range s.Hosts {
		if hs.Queued > 0 {
			q.waiting[hs.Host] = true
		}
	}
	return q
}

// read reports whether the skip line k is read.
func (q *queuedLines) read(k *skip) bool {
	if !k.Queued {
		return true
	}
	if k.Time.Before(q.last) && !q.waiting[hostOf(k.Host, k.URL)] {
		return false
	}
	h := maphash.String(q.seed, k.Reason+" "+k.URL)
	if _, ok := q.seen[h]; ok {
		return false
	}
	if len(q.seen) < maxQueuedKeys {
		q.seen[h] = struct{}{}
	}
	return true
}

// fetchedLater collects the URLs of the queued skip lines kept, with the
// time each was logged, so that countRequests can tell those a later
// request fetched (dropFetched).
type fetchedLater struct {
	logged  map[string]time.Time
	fetched map[string]bool
}

func newFetchedLater(skips []skip) *fetchedLater {
	f := &fetchedLater{logged: map[string]time.Time{}, fetched: map[string]bool{}}
	for _, k := range skips {
		if k.Queued {
			f.logged[k.URL] = k.Time
		}
	}
	return f
}

// note takes a request in log order.
func (f *fetchedLater) note(r request) {
	if t, ok := f.logged[r.URL]; ok && r.Time.After(t) {
		f.fetched[r.URL] = true
	}
}

// dropFetched returns skips without the queued lines whose URL a later
// request fetched.
func (f *fetchedLater) dropFetched(skips []skip) []skip {
	if len(f.fetched) == 0 {
		return skips
	}
	out := skips[:0]
	for _, k := range skips {
		if !k.Queued || !f.fetched[k.URL] {
			out = append(out, k)
		}
	}
	return out
}
