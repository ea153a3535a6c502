//go:build !amd64

package sha1pair

const havePairBlocks = false

func pairBlocks(st *pairState, a, b *byte, n int) {
	panic("sha1pair: pairBlocks without the SHA extensions")
}
