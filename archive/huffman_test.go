package archive

import (
	"container/heap"
	"math/rand/v2"
	"testing"
)

// weightHeap is a min-heap of subtree weights for the reference Huffman
// cost.
type weightHeap []uint64

func (h weightHeap) Len() int           { return len(h) }
func (h weightHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h weightHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *weightHeap) Push(x any)        { *h = append(*h, x.(uint64)) }
func (h *weightHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// optimalBits is the cost of an unlimited Huffman code for freq: the sum
// of the weights of all merged nodes (Huffman 1952).
func optimalBits(freq []uint32) int {
	h := &weightHeap{}
	for _, f := range freq {
		if f > 0 {
			heap.Push(h, uint64(f))
		}
	}
	total := 0
	for h.Len() > 1 {
		a, b := heap.Pop(h).(uint64), heap.Pop(h).(uint64)
		total += int(a + b)
		heap.Push(h, a+b)
	}
	return total
}

// checkCode asserts that c is a complete prefix code over freq's used
// symbols (Kraft sum exactly 1, RFC 1951 section 3.2.2 canonical codes
// distinct), no code longer than limit, and that size is its cost.
func checkCode(t *testing.T, c *prefixCode, freq []uint32, limit, size int) {
	t.Helper()
	kraft, used, cost := 0, 0, 0
	seen := map[[2]uint32]bool{}
	for s, f := range freq {
		l := int(c.bits[s])
		if f > 0 && l == 0 {
			t.Fatalf("symbol %d (frequency %d) has no code", s, f)
		}
		if l == 0 {
			continue
		}
		if l > limit {
			t.Fatalf("symbol %d: code of %d bits, limit %d", s, l, limit)
		}
		if int(c.enc[s]>>16) != l {
			t.Fatalf("symbol %d: enc says %d bits, bits %d", s, c.enc[s]>>16, l)
		}
		key := [2]uint32{c.enc[s] & 0xffff, uint32(l)}
		if seen[key] {
			t.Fatalf("symbol %d: code %b of %d bits used twice", s, key[0], l)
		}
		seen[key] = true
		kraft += 1 << (limit - l)
		used++
		cost += int(f) * l
	}
	if kraft != 1<<limit {
		t.Fatalf("Kraft sum %d/%d: code is not complete", kraft, 1<<limit)
	}
	if used < 2 {
		t.Fatalf("%d symbols have codes, want at least 2", used)
	}
	if cost != size {
		t.Fatalf("build returned %d bits, the code costs %d", size, cost)
	}
}

func TestHuffmanBuildOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var h huffmanBuilder
	var c prefixCode
	for round := range 600 {
		n := []int{numCodeLen, numDist, numLitLen}[round%3]
		// Below 1597 (the 17th Fibonacci number) in all, no Huffman code
		// is longer than 15 bits, so the limit does not bind; then larger
		// frequencies, where it may.
		maxFreq := []int{5, 30, 6}[round%3]
		if round >= 300 {
			maxFreq = []int{1000, 5000, 5000}[round%3]
		}
		freq := make([]uint32, n)
		for s := range freq {
			if rng.IntN(3) > 0 {
				freq[s] = uint32(rng.IntN(maxFreq))
			}
		}
		if round%7 == 0 { // large frequencies take the comparison sort
			freq[rng.IntN(n)] = 1 << 20
		}
		size := h.build(&c, freq, maxCodeBits)
		checkCode(t, &c, freq, maxCodeBits, size)
		want := optimalBits(freq)
		if round < 300 && size != want || size < want {
			t.Fatalf("round %d: %d bits, optimal Huffman code %d", round, size, want)
		}
	}
}

// TestHuffmanBuildLengthLimit gives Fibonacci frequencies, whose Huffman
// tree is as deep as there are symbols: the code must still respect RFC
// 1951's limits (7 bits for code length codes, 15 for the others).
func TestHuffmanBuildLengthLimit(t *testing.T) {
	var h huffmanBuilder
	var c prefixCode
	for _, tc := range []struct{ n, limit int }{{numCodeLen, maxCodeLenLen}, {numDist, maxCodeBits}, {40, maxCodeBits}} {
		freq := make([]uint32, tc.n)
		a, b := uint32(1), uint32(1)
		for s := range freq {
			freq[s] = a
			a, b = b, a+b
		}
		size := h.build(&c, freq, tc.limit)
		checkCode(t, &c, freq, tc.limit, size)
		if size < optimalBits(freq) {
			t.Fatalf("%d symbols: %d bits, less than the unlimited optimum", tc.n, size)
		}
	}
}

func TestHuffmanBuildFewSymbols(t *testing.T) {
	var h huffmanBuilder
	var c prefixCode
	for _, used := range [][]int{{}, {0}, {7}, {3, 9}} {
		freq := make([]uint32, numDist)
		for _, s := range used {
			freq[s] = 10
		}
		size := h.build(&c, freq, maxCodeBits)
		checkCode(t, &c, freq, maxCodeBits, size)
		for s, l := range c.bits[:numDist] {
			if l > 1 {
				t.Errorf("used %v: symbol %d has %d bits, want 1", used, s, l)
			}
		}
	}
}
