package crawler

import (
	"fmt"
	"testing"
)

func TestRecentSetRemembersAndStaysBounded(t *testing.T) {
	r := newRecentSet(3)
	if !r.add("a") || r.add("a") {
		t.Fatal("first add must be new, the second not")
	}
	for i := range 10 {
		r.add(fmt.Sprint(i))
		if len(r.m) > 3 {
			t.Fatalf("set grew to %d, bound is 3", len(r.m))
		}
	}
}
