package crawler

import (
	"hash/maphash"
	"sync"

	"github.com/crawlproject/crawl/crawllog"
)

// maxRefetchable bounds the URLs a refetchSet remembers: some 16 MB of
// hashes. Past it, a URL not remembered is counted again as a page fetched
// if it is fetched again.
const maxRefetchable = 1 << 20

// refetchSet remembers, as 64-bit hashes, the URLs that got an answer
// after which they may be fetched again: a 429 or 5xx (retried, or
// queued for a later run) or a body cut short (fetched once more). A page
// fetched twice is then counted once as a page fetched, at its first
// answer, without a set of every URL fetched: a URL whose answer is final
// (any other status) is done in the frontier and never fetched again, so
// it is forgotten, and so is a URL skipped for good. The crawl log, read
// back in order when a run starts, rebuilds it, so a retry in a later run
// is known too. Once full it takes no more. Safe for concurrent use.
type refetchSet struct {
	mu   sync.Mutex
	seed maphash.Seed
	m    map[uint64]struct{}
}

func newRefetchSet() *refetchSet {
	return &refetchSet{seed: maphash.MakeSeed(), m: map[uint64]struct{}{}}
}

// answered notes the answered fetch e (Status > 0) of a page and reports
// whether its URL had an answer before.
func (r *refetchSet) answered(e crawllog.CrawlEntry) (again bool) {
	h := maphash.String(r.seed, e.URL)
	r.mu.Lock()
	defer r.mu.Unlock()
	_, again = r.m[h]
	switch {
	case e.Status == 429 || e.Status >= 500 || e.Truncated:
		if len(r.m) < maxRefetchable {
			r.m[h] = struct{}{}
		}
	default:
		delete(r.m, h)
	}
	return again
}

// forget drops u: it was skipped for good and is not fetched again.
func (r *refetchSet) forget(u string) {
	h := maphash.String(r.seed, u)
	r.mu.Lock()
	delete(r.m, h)
	r.mu.Unlock()
}
