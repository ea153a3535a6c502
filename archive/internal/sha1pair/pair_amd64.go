package sha1pair

// havePairBlocks reports whether the CPU has the SHA extensions and SSSE3
// that pairBlocks uses.
var havePairBlocks = hasSHA()

// hasSHA reads CPUID: leaf 1 ECX bit 9 is SSSE3, leaf 7 EBX bit 29 is SHA.
func hasSHA() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	_, ebx7, _, _ := cpuid(7, 0)
	return ecx1&(1<<9) != 0 && ebx7&(1<<29) != 0
}

func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// pairBlocks runs the SHA-1 compression function over n 64-byte blocks of
// each lane: lane 0 reads from a, lane 1 from b.
//
//go:noescape
func pairBlocks(st *pairState, a, b *byte, n int)
