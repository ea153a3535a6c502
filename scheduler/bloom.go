package scheduler

import (
	"encoding/binary"
	"math/bits"
	"sync/atomic"
)

// bloomBitsPerKey and bloomK give about 1% false positives at capacity.
const (
	bloomBitsPerKey = 10
	bloomK          = 7
	bloomMinCap     = 1 << 20
)

// bloom is a Bloom filter over seen-set keys (which are already uniform
// hashes). It lets BoltStore answer "not seen" for a new URL without a read
// transaction. Safe for concurrent use: bits are set atomically.
type bloom struct {
	words []atomic.Uint64
	mask  uint64 // number of bits - 1 (a power of two)
	n     atomic.Int64
	cap   int64
}

func newBloom(capacity int64) *bloom {
	capacity = max(capacity, 64)
	nbits := uint64(1) << bits.Len64(uint64(capacity*bloomBitsPerKey-1))
	return &bloom{words: make([]atomic.Uint64, nbits/64), mask: nbits - 1, cap: capacity}
}

func (b *bloom) positions(key []byte, f func(bit uint64) bool) {
	h1 := binary.LittleEndian.Uint64(key[:8])
	h2 := binary.LittleEndian.Uint64(key[8:16]) | 1
	for i := range uint64(bloomK) {
		if !f((h1 + i*h2) & b.mask) {
			return
		}
	}
}

func (b *bloom) add(key []byte) {
	b.positions(key, func(bit uint64) bool {
		b.words[bit/64].Or(1 << (bit % 64))
		return true
	})
	b.n.Add(1)
}

// has reports whether key may have been added (false means surely not).
func (b *bloom) has(key []byte) bool {
	found := true
	b.positions(key, func(bit uint64) bool {
		if b.words[bit/64].Load()&(1<<(bit%64)) == 0 {
			found = false
		}
		return found
	})
	return found
}

// full reports whether the filter holds more keys than it was sized for.
func (b *bloom) full() bool { return b.n.Load() > b.cap }
