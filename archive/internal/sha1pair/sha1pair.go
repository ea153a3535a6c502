// Package sha1pair computes the SHA-1 digests of two messages at once.
//
// A WARC response record needs two digests of nearly the same bytes: the
// block digest over the HTTP header and body, and the payload digest over
// the body alone. SHA-1 cannot share work between them, but on x86-64 CPUs
// with the SHA extensions one SHA-1 is bound by the latency of the round
// instruction (SHA1RNDS4), not by its throughput, so two independent
// messages hashed in the same loop cost little more than one. Sum does
// that for the blocks the two messages have in common and leaves the tail
// of each, and the padding, to crypto/sha1 (FIPS 180-4 section 6.1).
//
// Elsewhere Sum is two calls of crypto/sha1.Sum.
package sha1pair

import (
	"crypto/sha1"
	"encoding"
	"encoding/binary"
)

// Size is the size of a SHA-1 digest in bytes.
const Size = sha1.Size

const blockSize = 64

// Sum returns the SHA-1 digests of a and b.
func Sum(a, b []byte) (da, db [Size]byte) {
	n := min(len(a), len(b)) / blockSize
	if n < minPairBlocks || !havePairBlocks {
		return sha1.Sum(a), sha1.Sum(b)
	}
	st := initialState()
	pairBlocks(&st, &a[0], &b[0], n)
	done := uint64(n * blockSize)
	return finish(st.get(0), done, a[done:]), finish(st.get(1), done, b[done:])
}

// minPairBlocks is the shortest common run of blocks worth the set-up of a
// pair: below it, resuming crypto/sha1 from a state costs more than the
// rounds the pair saves (measured: 3 blocks each, 410 ns paired against
// 385 ns for two sha1.Sum calls; 4 blocks, 447 against 459).
const minPairBlocks = 4

// pairState is the hash state of two lanes laid out for the SHA
// instructions: per lane, H0..H3 as four words with H0 highest (the ABCD
// register), then H4 as the highest of four words whose others are zero
// (the E register).
type pairState [2][8]uint32

// initialState holds the SHA-1 initial hash value H(0) (FIPS 180-4
// section 5.3.1) in both lanes.
func initialState() pairState {
	const h0, h1, h2, h3, h4 = 0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0
	lane := [8]uint32{h3, h2, h1, h0, 0, 0, 0, h4}
	return pairState{lane, lane}
}

func (s *pairState) get(lane int) [5]uint32 {
	l := &s[lane]
	return [5]uint32{l[3], l[2], l[1], l[0], l[7]}
}

// finish resumes crypto/sha1 from state h after done bytes and hashes
// rest, the message's remaining bytes, with the final padding.
func finish(h [5]uint32, done uint64, rest []byte) [Size]byte {
	// crypto/sha1 marshals its state as "sha\x01", H0..H4 big-endian, the
	// 64-byte partial block and the length so far (big-endian): the
	// encoding.BinaryUnmarshaler format of every hash in the standard
	// library, stable across releases.
	var m [4 + 5*4 + blockSize + 8]byte
	copy(m[:], "sha\x01")
	for i, v := range h {
		binary.BigEndian.PutUint32(m[4+4*i:], v)
	}
	binary.BigEndian.PutUint64(m[len(m)-8:], done)
	d := sha1.New()
	if err := d.(encoding.BinaryUnmarshaler).UnmarshalBinary(m[:]); err != nil {
		// The format is crypto/sha1's own; a release that changed it
		// would fail every test of this package.
		panic("sha1pair: crypto/sha1 refused its state format: " + err.Error())
	}
	d.Write(rest)
	var out [Size]byte
	d.Sum(out[:0])
	return out
}
