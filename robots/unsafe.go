package robots

import (
	"encoding/binary"
	"unsafe"
)

// The package's only uses of unsafe are here. Each one is kept because a
// benchmark or a documented guarantee needs it; the rest of the package
// reads strings with bounds checks and copies where it must.
//
// The check path (BenchmarkCheck, one Robots.Group and Group.Allowed, the
// ratio to temoto's TestAgent that this package promises to keep at 20x
// or more, with no allocation): the wiki-like file's check is the
// tightest, at about 20x. On the 2-core development machine, best of 12
// runs of BenchmarkCheck/wiki alternating the builds, it took 31.9 ns with
// the unchecked reads below and 34.2 ns with bounds-checked reads (peek
// and wordAt through load64, paths shorter than eight octets read octet
// by octet; under callgrind 469 instructions a check against 329), while
// temoto's took 626-663 ns: 20x against 19x. Remembering the last agent
// by a copy of its octets, in atomic words, instead of by its address
// (lastAgent) cost another 2.1 ns (36.3 ns, 18x; 618 instructions).
//
// The zero-copy views (bytesView) are behaviour, not speed: Parse keeps
// the caller's buffer, which Body returns (TestParse_KeepsBody), and
// Group.Allowed does not allocate for a path of up to 341 octets that
// needs escaping (TestAllowedAllocationBound), which it normalises into a
// buffer on the stack.

// peek returns the octets of u from d on, up to eight, as one word,
// zero-padded. A path shorter than eight octets must lie in a buffer of at
// least eight (see padded).
func peek(u string, d int) uint64 {
	p := unsafe.Pointer(unsafe.StringData(u))
	if r := len(u) - d; r < 8 && len(u) >= 8 {
		return loadAt(p, len(u)-8) >> ((64 - 8*r) & 63)
	}
	return loadAt(p, d)
}

// padded returns s, or for s shorter than eight octets a copy of s in pad,
// followed by zeros, which peek may read whole.
func padded(pad *[8]byte, s string) string {
	if len(s) >= 8 {
		return s
	}
	*pad = [8]byte{}
	copy(pad[:], s)
	return unsafe.String(&pad[0], len(s))
}

// wordAt returns the eight octets of s from i on as one word, without a
// bounds check: s must have them (m.labels ends with eight zeros so that
// the last word of a label can be read so).
func wordAt(s string, i int) uint64 {
	return loadAt(unsafe.Pointer(unsafe.StringData(s)), i)
}

// loadAt returns the eight octets at p+i as one word.
func loadAt(p unsafe.Pointer, i int) uint64 {
	return binary.LittleEndian.Uint64((*[8]byte)(unsafe.Add(p, i))[:])
}

// stringData returns the address of s's octets, by which lastAgent
// recognises the agent a crawler asks with again.
func stringData(s string) *byte { return unsafe.StringData(s) }

// stringAddr returns where *s's octets start: an address to compare,
// never to read through.
func stringAddr(s *string) uintptr { return uintptr(unsafe.Pointer(unsafe.StringData(*s))) }

// stringAt returns the n octets at p as a string.
func stringAt(p *byte, n int) string { return unsafe.String(p, n) }

// bytesView returns b's octets as a string, without a copy: b must not
// change while the string is in use.
func bytesView(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }
