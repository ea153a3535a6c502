package archive

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math"
	"math/bits"
)

// A general deflate compressor spends a fixed ~10 µs per gzip member on
// setting up its state and building its Huffman tables, which dominates
// the cost of the small records (request, metadata, warcinfo, redirects)
// that make up two of the three members per page. smallEncoder is a lean
// deflate encoder for such records: greedy LZ77 matching over one small
// hash table, then one block with whichever costs fewest bits: dynamic
// Huffman codes built for the record, the fixed codes of RFC 1951 section
// 3.2.6, or stored bytes.

// Parameters of the small-record encoder (RFC 1951 sections 3.2.5, 3.2.6).
const (
	smallHashBits    = 12    // largest match table: 4096 slots
	smallMinMatch    = 4     // matches are found by hashing 4 bytes
	smallMaxMatch    = 258   // longest deflate match
	smallMaxDistance = 32768 // deflate window
	maxStoredBlock   = 65535 // bytes in one stored block (LEN is 16 bits)
	endOfBlock       = 256   // literal/length symbol ending a block
	gzipHeaderLen    = 10
	gzipTrailerLen   = 8 // CRC-32 and ISIZE
)

// smallGzipHeader is the fixed RFC 1952 member header: ID1 ID2, CM=8
// (deflate), FLG=0 (no name, comment or extra field), MTIME=0 (none),
// XFL=0, OS=255 (unknown).
const smallGzipHeader = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"

// A token is one step of the LZ77 parse: a literal byte (< 1<<31), or
// matchToken | length<<16 | distance.
const matchToken = 1 << 31

// smallEncoder writes gzip members of one deflate block each. Its output
// is exact RFC 1951/1952 data that any inflater reads. It is not safe for
// concurrent use; memberPool keeps a pool of them. The zero value is not
// usable: call newSmallEncoder.
type smallEncoder struct {
	// head maps a hash of 4 bytes to base + the last position holding
	// them. Entries below base are from earlier inputs, so the table needs
	// no clearing between inputs.
	head   [1 << smallHashBits]int32
	base   int32
	tokens []uint32 // the parse of the current input
	// litFreq and distFreq count the symbols of tokens (with one end of
	// block); extraBits totals their extra bits, fixedBits their bits in
	// the fixed codes.
	litFreq              [numLitLen]uint32
	distFreq             [numDist]uint32
	extraBits, fixedBits int

	fixedLit, fixedDist prefixCode // RFC 1951 section 3.2.6
	lit, dist           prefixCode // built for the current input
	header              dynamicHeader
	huffman             huffmanBuilder
}

// newSmallEncoder returns an encoder with the fixed codes built.
func newSmallEncoder() *smallEncoder {
	e := new(smallEncoder)
	for s := range 288 {
		switch {
		case s < 144:
			e.fixedLit.bits[s] = 8
		case s < 256:
			e.fixedLit.bits[s] = 9
		case s < 280:
			e.fixedLit.bits[s] = 7
		default:
			e.fixedLit.bits[s] = 8
		}
	}
	var syms [288]uint16
	for s := range syms {
		syms[s] = uint16(s)
	}
	e.fixedLit.assignCodes(syms[:])
	for d := range numDist {
		e.fixedDist.bits[d] = 5
	}
	e.fixedDist.assignCodes(syms[:numDist])
	return e
}

// lengthSymbol returns the literal/length symbol of a match length
// (3..258) with its extra bits: how many and their value (RFC 1951
// section 3.2.5). Symbols 257..264 have no extra bits; from 265 on, each
// group of four symbols has one extra bit more than the previous group.
func lengthSymbol(length int) (sym, extraBits, extra uint) {
	l := uint(length - 3)
	switch {
	case l < 8:
		return 257 + l, 0, 0
	case length == smallMaxMatch:
		return 285, 0, 0
	}
	top := uint(bits.Len(l)) - 1 // 3..7
	extraBits = top - 2
	return 257 + 4*(top-1) + (l>>extraBits)&3, extraBits, l & (1<<extraBits - 1)
}

// distanceSymbol returns the distance symbol of a match distance
// (1..32768) with its extra bits (RFC 1951 section 3.2.5): codes 0..3
// have none, then each pair of codes has one extra bit more.
func distanceSymbol(dist int) (sym, extraBits, extra uint) {
	d := uint(dist - 1)
	if d < 4 {
		return d, 0, 0
	}
	top := uint(bits.Len(d)) - 1 // 2..14
	extraBits = top - 1
	return 2*top + (d>>extraBits)&1, extraBits, d & (1<<extraBits - 1)
}

// storedLen is the length of src as deflate stored blocks.
func storedLen(n int) int {
	return n + 5*max(1, (n+maxStoredBlock-1)/maxStoredBlock)
}

// maxSmallMember bounds the gzip member writeMember makes of n bytes: the
// encoder never sends more than stored blocks would.
func maxSmallMember(n int) int {
	return gzipHeaderLen + storedLen(n) + gzipTrailerLen
}

// writeMember appends one complete gzip member (RFC 1952) holding src to
// dst. It allocates only when dst must grow.
func (e *smallEncoder) writeMember(dst *bytes.Buffer, src []byte) {
	dst.Grow(maxSmallMember(len(src)))
	dst.Write(e.appendMember(dst.AvailableBuffer(), src))
}

// appendMember appends one gzip member holding src to dst: header, one
// deflate stream (appendDeflate), CRC-32 and ISIZE (the length modulo
// 2^32).
func (e *smallEncoder) appendMember(dst, src []byte) []byte {
	dst = append(dst, smallGzipHeader...)
	dst = e.appendDeflate(dst, src, bestBlock)
	dst = binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(src))
	return binary.LittleEndian.AppendUint32(dst, uint32(len(src)))
}

// Block types (BTYPE, RFC 1951 section 3.2.3) for appendDeflate.
const (
	storedBlock  = 0
	fixedBlock   = 1
	dynamicBlock = 2
	bestBlock    = -1 // whichever of the three is smallest
)

// appendDeflate appends src as a deflate stream of one final block of
// type btype: dynamic codes built for src, the fixed codes, or stored
// bytes (several stored blocks past 65535 bytes). bestBlock picks the
// smallest, preferring fixed to dynamic and both to stored on a tie.
// Inputs past 1 GiB are always stored.
func (e *smallEncoder) appendDeflate(dst, src []byte, btype int) []byte {
	if len(src) > math.MaxInt32/2 { // head holds int32 positions
		return appendStored(dst, src)
	}
	e.parse(src)
	if btype == bestBlock {
		// Sizes in bits; both coded blocks start with 3 header bits.
		fixed := 3 + e.extraBits + e.fixedBits
		dynamic := 3 + e.extraBits + e.huffman.build(&e.lit, e.litFreq[:], maxCodeBits) +
			e.huffman.build(&e.dist, e.distFreq[:], maxCodeBits) + e.header.plan(&e.huffman, &e.lit, &e.dist)
		switch {
		case 8*storedLen(len(src)) < min(fixed, dynamic):
			btype = storedBlock
		case fixed <= dynamic:
			btype = fixedBlock
		default:
			btype = dynamicBlock
		}
	} else if btype == dynamicBlock {
		e.huffman.build(&e.lit, e.litFreq[:], maxCodeBits)
		e.huffman.build(&e.dist, e.distFreq[:], maxCodeBits)
		e.header.plan(&e.huffman, &e.lit, &e.dist)
	}
	switch btype {
	case storedBlock:
		return appendStored(dst, src)
	case fixedBlock:
		w := bitWriter{out: dst, acc: 0b011, n: 3} // BFINAL=1, BTYPE=01
		return e.appendTokens(&w, &e.fixedLit, &e.fixedDist)
	default:
		w := bitWriter{out: dst, acc: 0b101, n: 3} // BFINAL=1, BTYPE=10
		e.header.write(&w)
		return e.appendTokens(&w, &e.lit, &e.dist)
	}
}

// appendStored appends src as a deflate stream of stored blocks (RFC 1951
// section 3.2.4), the last one marked final.
func appendStored(dst, src []byte) []byte {
	for {
		n := min(len(src), maxStoredBlock)
		final := byte(0)
		if n == len(src) {
			final = 1 // BFINAL=1, BTYPE=00
		}
		dst = append(dst, final, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8))
		dst = append(dst, src[:n]...)
		src = src[n:]
		if final == 1 {
			return dst
		}
	}
}

// parse turns src into tokens, greedily replacing each run of 4 or more
// bytes seen before within the window by a match, and counts the symbols.
func (e *smallEncoder) parse(src []byte) {
	n := len(src)
	if cap(e.tokens) < n {
		e.tokens = make([]uint32, n+n/4) // room to grow into
	}
	tokens := e.tokens[:n] // at most one token per byte
	if e.base == 0 || int(e.base)+n >= math.MaxInt32 {
		clear(e.head[:])
		e.base = 1
	}
	base := int(e.base)
	e.base += int32(n) + 1
	head := &e.head
	litFreq := &e.litFreq
	clear(litFreq[:])
	clear(e.distFreq[:])
	e.extraBits, e.fixedBits = 0, 0
	nt := 0
	i := 0
	for i <= n-smallMinMatch {
		v := binary.LittleEndian.Uint32(src[i:])
		h := v * 0x9e3779b1 >> (32 - smallHashBits)
		cand := int(head[h]) - base
		head[h] = int32(base + i)
		if uint(cand) >= uint(i) || i-cand > smallMaxDistance || binary.LittleEndian.Uint32(src[cand:]) != v {
			c := src[i]
			tokens[nt] = uint32(c)
			litFreq[c]++
			nt++
			i++
			continue
		}
		length := e.match(src, cand, i)
		tokens[nt] = matchToken | uint32(length)<<16 | uint32(i-cand)
		nt++
		// Remember the positions inside the match too, so later repeats
		// of them are found.
		end := min(i+length, n-smallMinMatch+1)
		for j := i + 1; j < end; j++ {
			head[binary.LittleEndian.Uint32(src[j:])*0x9e3779b1>>(32-smallHashBits)] = int32(base + j)
		}
		i += length
	}
	for ; i < n; i++ {
		c := src[i]
		tokens[nt] = uint32(c)
		litFreq[c]++
		nt++
	}
	litFreq[endOfBlock] = 1
	// The literals' bits in the fixed code: 8 each, 9 from 144 on.
	litBits := 0
	for c, f := range litFreq[:256] {
		litBits += int(f) * int(e.fixedLit.bits[c])
	}
	e.fixedBits += litBits + int(e.fixedLit.bits[endOfBlock])
	e.tokens = tokens[:nt]
}

// match returns the length of the match at i with the bytes at cand,
// whose first 4 bytes are equal, and counts its symbols.
func (e *smallEncoder) match(src []byte, cand, i int) int {
	length := smallMinMatch + matchLen(src[cand+smallMinMatch:], src[i+smallMinMatch:min(len(src), i+smallMaxMatch)])
	sym, eb, _ := lengthSymbol(length)
	dsym, deb, _ := distanceSymbol(i - cand)
	e.litFreq[sym]++
	e.distFreq[dsym]++
	e.extraBits += int(eb + deb)
	e.fixedBits += int(e.fixedLit.bits[sym]) + 5
	return length
}

// appendTokens sends the parsed tokens and the end of block with the
// codes lit and dist, pads to a byte and returns the output.
func (e *smallEncoder) appendTokens(w *bitWriter, lit, dist *prefixCode) []byte {
	// The loop keeps the writer's state in locals (registers); it does what
	// bitWriter.put does.
	out, acc, n := w.out, w.acc, w.n
	for _, t := range e.tokens {
		if t < matchToken {
			c := lit.enc[t&0xff]
			acc |= uint64(c&0xffff) << (n & 63)
			n += uint(c >> 16)
		} else {
			sym, eb, ev := lengthSymbol(int(t >> 16 & 0x1ff))
			c := lit.enc[sym]
			acc |= (uint64(c&0xffff) | uint64(ev)<<(c>>16&63)) << (n & 63)
			n += uint(c>>16) + eb
			if n >= 32 {
				out = binary.LittleEndian.AppendUint32(out, uint32(acc))
				acc >>= 32
				n -= 32
			}
			dsym, deb, dev := distanceSymbol(int(t & 0xffff))
			c = dist.enc[dsym]
			acc |= (uint64(c&0xffff) | uint64(dev)<<(c>>16&63)) << (n & 63)
			n += uint(c>>16) + deb
		}
		if n >= 32 {
			out = binary.LittleEndian.AppendUint32(out, uint32(acc))
			acc >>= 32
			n -= 32
		}
	}
	w.out, w.acc, w.n = out, acc, n
	w.put(uint64(lit.enc[endOfBlock]&0xffff), uint(lit.bits[endOfBlock]))
	return w.flush()
}

// bitWriter packs bits least significant first (RFC 1951 section 3.1.1).
// Whole 32-bit words leave acc as soon as they are complete, so acc holds
// fewer than 32 bits between calls and put may add up to 32 at once.
type bitWriter struct {
	out []byte
	acc uint64
	n   uint
}

// put sends the n low bits of v.
func (w *bitWriter) put(v uint64, n uint) {
	w.acc |= v << (w.n & 63)
	w.n += n
	if w.n >= 32 {
		w.out = binary.LittleEndian.AppendUint32(w.out, uint32(w.acc))
		w.acc >>= 32
		w.n -= 32
	}
}

// flush pads the last byte with zero bits and returns the output.
func (w *bitWriter) flush() []byte {
	for ; w.n > 0; w.n -= min(w.n, 8) {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
	}
	return w.out
}

// matchLen returns how many leading bytes a and b share (b no longer than a).
func matchLen(a, b []byte) int {
	n := 0
	for len(b)-n >= 8 {
		if x := binary.LittleEndian.Uint64(a[n:]) ^ binary.LittleEndian.Uint64(b[n:]); x != 0 {
			return n + bits.TrailingZeros64(x)/8
		}
		n += 8
	}
	for n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}
