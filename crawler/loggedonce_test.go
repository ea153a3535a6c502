package crawler

import (
	"fmt"
	"testing"
)

// A loggedOnceSet tells a URL met again from a new one, and once full it
// keeps what it has (the URLs met first and most often stay logged once)
// and takes no more: a new URL then reads as new each time.
func TestLoggedOnceSet(t *testing.T) {
	l := newLoggedOnceSet(3)
	if !l.add("a") || l.add("a") {
		t.Fatal("the first add must be new, the second not")
	}
	for i := range 10 {
		l.add(fmt.Sprint(i))
		if len(l.m) > 3 {
			t.Fatalf("set grew to %d, bound is 3", len(l.m))
		}
	}
	if l.add("a") || l.add("0") || l.add("1") {
		t.Error("a URL taken before the set was full was forgotten")
	}
	if first, again := l.add("9"), l.add("9"); !first || !again {
		t.Error("a URL met after the set was full must read as new")
	}
	if !l.has("a") || l.has("9") {
		t.Error("has disagrees with add")
	}
}
