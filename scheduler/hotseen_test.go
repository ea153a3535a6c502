package scheduler

import (
	"crypto/sha256"
	"testing"
)

func TestHotSeenAnswersOnlyWhatWasAddedAndStaysBounded(t *testing.T) {
	var h hotSeen
	k := func(i int) []byte { s := sha256.Sum256([]byte{byte(i), byte(i >> 8), byte(i >> 16)}); return s[:16] }
	if h.has(k(1)) {
		t.Fatal("empty set answered seen")
	}
	h.add(k(1))
	if !h.has(k(1)) || h.has(k(2)) {
		t.Fatal("want exactly the added key")
	}
	for i := range hotSeenMax + 10 {
		h.add(k(i))
		if len(h.m) > hotSeenMax {
			t.Fatalf("grew past its bound: %d", len(h.m))
		}
	}
}
