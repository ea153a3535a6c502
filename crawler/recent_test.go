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

// loggedBefore remembers what it was given, past recentSet's bound (which
// forgets everything when full), up to maxLoggedBefore.
func TestLoggedBefore(t *testing.T) {
	l := newLoggedBefore()
	for i := range maxRecentSkips + 10 {
		l.add(fmt.Sprintf("http://a.test/%d", i))
	}
	if !l.has("http://a.test/0") || !l.has(fmt.Sprintf("http://a.test/%d", maxRecentSkips+9)) || l.has("http://a.test/x") {
		t.Error("loggedBefore forgot a URL or knows one it was not given")
	}
}
