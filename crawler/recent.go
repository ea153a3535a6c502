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
