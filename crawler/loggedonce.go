package crawler

import (
	"hash/maphash"
	"sync"
)

// maxLoggedOnce bounds the URLs a loggedOnceSet remembers: up to about
// 150 MB of hashes for each of the two sets (this run's, the earlier
// runs'), for skip logs of gigabytes (each line is some 300 octets). Past
// it, a URL not remembered is logged again when met again.
const maxLoggedOnce = 4 << 20

// loggedOnceSet is a set of URLs logged for a reason logged once
// (loggedOnce), as 64-bit hashes: those earlier runs logged (as logged:
// cut to scope.max_url_length if longer), read when the run starts, or
// those this run logs. Once full it keeps what it has and takes no more,
// so the URLs met most often, which come first, stay logged once. Safe
// for concurrent use.
type loggedOnceSet struct {
	mu   sync.Mutex
	seed maphash.Seed
	max  int
	m    map[uint64]struct{}
}

func newLoggedOnceSet(max int) *loggedOnceSet {
	return &loggedOnceSet{seed: maphash.MakeSeed(), max: max, m: map[uint64]struct{}{}}
}

// add records u and reports whether it was new.
func (l *loggedOnceSet) add(u string) bool {
	h := maphash.String(l.seed, u)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.m[h]; ok {
		return false
	}
	if len(l.m) < l.max {
		l.m[h] = struct{}{}
	}
	return true
}

// has reports whether u was added.
func (l *loggedOnceSet) has(u string) bool {
	h := maphash.String(l.seed, u)
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.m[h]
	return ok
}
