package scheduler

import (
	"encoding/binary"
	"sync"
)

// hotSeenMax bounds hotSeen: about 6 MiB at most.
const hotSeenMax = 1 << 18

// hotSeen remembers seen-set keys recently confirmed on disk, so that the
// many links to pages already seen (every page's navigation) are answered
// from RAM. It only ever answers "seen" for a key that was read as seen,
// and it is bounded: when full it forgets everything and fills again. The
// zero value is ready to use and safe for concurrent use.
type hotSeen struct {
	mu sync.Mutex
	m  map[[2]uint64]struct{}
}

func hotKey(k []byte) [2]uint64 {
	return [2]uint64{binary.LittleEndian.Uint64(k[:8]), binary.LittleEndian.Uint64(k[8:16])}
}

func (h *hotSeen) has(k []byte) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	_, ok := h.m[hotKey(k)]
	return ok
}

func (h *hotSeen) add(k []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil || len(h.m) >= hotSeenMax {
		h.m = make(map[[2]uint64]struct{})
	}
	h.m[hotKey(k)] = struct{}{}
}
