package crawler

import (
	"hash/maphash"
	"sync"
)

// maxRecentSkips bounds the URLs remembered as already logged.
const maxRecentSkips = 1 << 17

// recentSet remembers up to max keys (as 64-bit hashes); when full it
// forgets them all and starts again, so memory stays bounded and a key is
// at worst reported once more. Safe for concurrent use.
type recentSet struct {
	mu   sync.Mutex
	seed maphash.Seed
	max  int
	m    map[uint64]struct{}
}

func newRecentSet(max int) *recentSet {
	return &recentSet{seed: maphash.MakeSeed(), max: max, m: make(map[uint64]struct{})}
}

// add records key and reports whether it was new.
func (r *recentSet) add(key string) bool {
	h := maphash.String(r.seed, key)
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.m[h]; ok {
		return false
	}
	if len(r.m) >= r.max {
		clear(r.m)
	}
	r.m[h] = struct{}{}
	return true
}

// maxLoggedBefore bounds the URLs an earlier run logged that loggedBefore
// remembers: about 100 MB of hashes, for skip logs of gigabytes.
const maxLoggedBefore = 4 << 20

// loggedBefore is the set of URLs that earlier runs of the crawl logged
// for a reason logged once (loggedOnce), as 64-bit hashes of the URL as
// logged (cut to scope.max_url_length if longer). It is filled once, when
// the run starts, and then only read.
type loggedBefore struct {
	seed maphash.Seed
	m    map[uint64]struct{}
}

func newLoggedBefore() *loggedBefore {
	return &loggedBefore{seed: maphash.MakeSeed(), m: map[uint64]struct{}{}}
}

// add remembers u, up to maxLoggedBefore URLs.
func (l *loggedBefore) add(u string) {
	if len(l.m) < maxLoggedBefore {
		l.m[maphash.String(l.seed, u)] = struct{}{}
	}
}

// has reports whether u was added.
func (l *loggedBefore) has(u string) bool {
	_, ok := l.m[maphash.String(l.seed, u)]
	return ok
}
