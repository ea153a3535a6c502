package archive

import (
	"math"
	"math/bits"
	"slices"
)

// Deflate's alphabets and code length limits (RFC 1951 sections 3.2.5-3.2.7).
const (
	numLitLen     = 286 // literal/length symbols in use: 0..285
	numDist       = 30  // distance symbols in use: 0..29
	numCodeLen    = 19  // code length symbols: 0..18
	maxCodeBits   = 15  // longest literal/length or distance code
	maxCodeLenLen = 7   // longest code length code (3-bit fields)
)

// prefixCode is a canonical Huffman code (RFC 1951 section 3.2.2) for up
// to 288 symbols.
type prefixCode struct {
	// bits is each symbol's code length; 0 marks an unused symbol.
	bits [288]uint8
	// enc is each used symbol's code, bit-reversed so it can be sent least
	// significant bit first, in the low 16 bits, and its length above.
	enc [288]uint32
}

// assignCodes fills in the canonical codes of syms, the used symbols in
// increasing order, from their lengths: shorter codes first, equal
// lengths in symbol order (RFC 1951 section 3.2.2).
func (c *prefixCode) assignCodes(syms []uint16) {
	var count, next [maxCodeBits + 1]uint16
	for _, s := range syms {
		count[c.bits[s]&maxCodeBits]++
	}
	code := uint16(0)
	for l := 1; l <= maxCodeBits; l++ {
		code = (code + count[l-1]) << 1
		next[l] = code
	}
	for _, s := range syms {
		l := c.bits[s] & maxCodeBits
		c.enc[s] = uint32(bits.Reverse16(next[l])>>(16-l)) | uint32(l)<<16
		next[l]++
	}
}

// huffmanBuilder computes length-limited Huffman codes; its arrays are
// scratch space reused between calls. The zero value is ready to use; it
// is not safe for concurrent use.
type huffmanBuilder struct {
	syms   [288]uint16  // used symbols in symbol order
	order  [288]uint16  // used symbols by increasing frequency
	bucket [1024]uint16 // counting sort of small frequencies
	keys   [288]uint64  // frequency<<16 | symbol, to sort large ones
	// The tree: weights of the leaves (in order) and of the internal
	// nodes (in the order made), each node's parent, internal nodes' depths.
	leafW      [288 + 1]uint64
	nodeW      [288]uint64
	leafParent [288]uint16
	nodeParent [288]uint16
	nodeDepth  [288]uint16
}

// build sets c to a prefix code for the symbols counted in freq (up to
// 288) and returns the bits freq costs in it. The code is Huffman's
// (optimal) unless that needs codes longer than limit (2^limit must be at
// least len(freq)); then those are cut to limit and the Kraft sum is
// restored by lengthening shorter codes, which is close to optimal.
// Unused symbols get length 0. At least two symbols always get a code, so
// the code is complete, which every inflater accepts (RFC 1951 lets a
// single distance code be one bit; some decoders reject other incomplete
// codes).
func (h *huffmanBuilder) build(c *prefixCode, freq []uint32, limit int) int {
	clear(c.bits[:len(freq)])
	m := 0
	maxFreq := uint32(0)
	for s, f := range freq {
		h.syms[m] = uint16(s) // m <= s < 288
		m += int(min(f, 1))
		maxFreq = max(maxFreq, f)
	}
	switch m { // pad with zero-frequency symbols, keeping symbol order
	case 0:
		h.syms[0], h.syms[1], m = 0, 1, 2
	case 1:
		if h.syms[0] == 0 {
			h.syms[1] = 1
		} else {
			h.syms[1], h.syms[0] = h.syms[0], 0
		}
		m = 2
	}
	syms, order := h.syms[:m], h.order[:m]
	if int(maxFreq) < len(h.bucket) {
		// Counting sort: stable, so equal frequencies stay in symbol order.
		bucket := h.bucket[:maxFreq+1]
		clear(bucket)
		for _, s := range syms {
			bucket[freq[s]]++
		}
		pos := uint16(0)
		for f, n := range bucket {
			bucket[f] = pos
			pos += n
		}
		for _, s := range syms {
			f := freq[s]
			order[bucket[f]] = s
			bucket[f]++
		}
	} else {
		keys := h.keys[:m]
		for i, s := range syms {
			keys[i] = uint64(freq[s])<<16 | uint64(s)
		}
		slices.Sort(keys)
		for i, k := range keys {
			order[i] = uint16(k)
		}
	}

	// Huffman's construction with two queues: the leaves by weight, and
	// the internal nodes, which are made in order of non-decreasing
	// weight. A maximal weight after each queue's last entry marks it empty.
	leafW, nodeW := h.leafW[:m+1], h.nodeW[:m-1]
	for i, s := range order {
		leafW[i] = uint64(freq[s])
	}
	leafW[m] = math.MaxUint64
	leaf, node := 0, 0
	for next := range nodeW {
		nodeW[next] = math.MaxUint64 // not made yet
		var sum uint64
		for range 2 {
			if leafW[leaf] <= nodeW[node] {
				sum += leafW[leaf]
				h.leafParent[leaf] = uint16(next)
				leaf++
			} else {
				sum += nodeW[node]
				h.nodeParent[node] = uint16(next)
				node++
			}
		}
		nodeW[next] = sum
	}
	// Depths: the root is the last node; a parent comes after its children.
	root := m - 2
	h.nodeDepth[root] = 0
	for i := root - 1; i >= 0; i-- {
		h.nodeDepth[i] = h.nodeDepth[h.nodeParent[i]] + 1
	}
	var count [maxCodeBits + 1]int
	overflow := false
	for _, p := range h.leafParent[:m] {
		d := int(h.nodeDepth[p]) + 1
		if d > limit {
			d, overflow = limit, true
		}
		count[d]++
	}
	if overflow {
		// Clamping codes to limit broke the Kraft inequality by some
		// multiples of 2^-limit. Each step moves one leaf from the deepest
		// level below limit down one level, where it and a clamped leaf
		// share the place the leaf had: one unit less.
		kraft := 0
		for l := 1; l <= limit; l++ {
			kraft += count[l] << (limit - l)
		}
		for ; kraft > 1<<limit; kraft-- {
			l := limit - 1
			for count[l] == 0 {
				l--
			}
			count[l]--
			count[l+1] += 2
			count[limit]--
		}
	}
	// The least frequent symbols get the longest codes.
	i, size := 0, 0
	for l := limit; l >= 1; l-- {
		for range count[l] {
			s := order[i]
			c.bits[s] = uint8(l)
			size += int(freq[s]) * l
			i++
		}
	}
	c.assignCodes(syms)
	return size
}

// Code length symbols that repeat (RFC 1951 section 3.2.7).
const (
	repeatPrevious = 16 // previous length 3..6 times, 2 extra bits
	repeatZero3    = 17 // zero 3..10 times, 3 extra bits
	repeatZero11   = 18 // zero 11..138 times, 7 extra bits
)

// codeLenOrder is the order in which the code length code's lengths are
// sent (RFC 1951 section 3.2.7).
const codeLenOrder = "\x10\x11\x12\x00\x08\x07\x09\x06\x0a\x05\x0b\x04\x0c\x03\x0d\x02\x0e\x01\x0f"

// dynamicHeader is the description of a block's two codes as sent in a
// dynamic Huffman block header (RFC 1951 section 3.2.7).
type dynamicHeader struct {
	hlit, hdist, hclen int // numbers of codes sent, not minus their bias
	// lens[:nlens] are the run-length coded code lengths: symbol (0..18)
	// in the low 5 bits, value of its extra bits above. (A count, not a
	// slice: no pointer writes, which cost write barriers while the GC
	// marks.)
	lens  [numLitLen + numDist]uint16
	nlens int
	freq  [numCodeLen]uint32
	code  prefixCode // the code length code
}

// plan run-length codes the code lengths of lit and dist, builds the code
// length code and returns the header's size in bits.
func (d *dynamicHeader) plan(h *huffmanBuilder, lit, dist *prefixCode) int {
	d.hlit, d.hdist = numLitLen, numDist
	for d.hlit > 257 && lit.bits[d.hlit-1] == 0 {
		d.hlit--
	}
	for d.hdist > 1 && dist.bits[d.hdist-1] == 0 {
		d.hdist--
	}
	var all [numLitLen + numDist]uint8
	n := copy(all[:], lit.bits[:d.hlit])
	n += copy(all[n:], dist.bits[:d.hdist])
	nlens := 0
	clear(d.freq[:])
	emit := func(sym, extra int) {
		d.lens[nlens] = uint16(sym | extra<<5)
		nlens++
		d.freq[sym]++
	}
	for i := 0; i < n; {
		v := all[i]
		run := 1
		for i+run < n && all[i+run] == v {
			run++
		}
		i += run
		if v == 0 {
			for ; run >= 11; run -= min(run, 138) {
				emit(repeatZero11, min(run, 138)-11)
			}
			if run >= 3 {
				emit(repeatZero3, run-3)
				run = 0
			}
		} else {
			emit(int(v), 0)
			run--
			for ; run >= 3; run -= min(run, 6) {
				emit(repeatPrevious, min(run, 6)-3)
			}
		}
		for ; run > 0; run-- {
			emit(int(v), 0)
		}
	}
	d.nlens = nlens
	size := h.build(&d.code, d.freq[:], maxCodeLenLen)
	d.hclen = numCodeLen
	for d.hclen > 4 && d.code.bits[codeLenOrder[d.hclen-1]] == 0 {
		d.hclen--
	}
	size += 5 + 5 + 4 + 3*d.hclen
	size += 2*int(d.freq[repeatPrevious]) + 3*int(d.freq[repeatZero3]) + 7*int(d.freq[repeatZero11])
	return size
}

// write sends the header after BFINAL and BTYPE: the numbers of codes,
// the code length code, then the run-length coded code lengths.
func (d *dynamicHeader) write(w *bitWriter) {
	w.put(uint64(d.hlit-257)|uint64(d.hdist-1)<<5|uint64(d.hclen-4)<<10, 14)
	for _, sym := range []byte(codeLenOrder[:d.hclen]) {
		w.put(uint64(d.code.bits[sym]), 3)
	}
	for _, l := range d.lens[:d.nlens] {
		sym := l & 31
		n := uint(d.code.bits[sym])
		v := uint64(d.code.enc[sym] & 0xffff)
		switch sym {
		case repeatPrevious:
			v, n = v|uint64(l>>5)<<n, n+2
		case repeatZero3:
			v, n = v|uint64(l>>5)<<n, n+3
		case repeatZero11:
			v, n = v|uint64(l>>5)<<n, n+7
		}
		w.put(v, n)
	}
}
