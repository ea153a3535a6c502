package crawler

import (
	"fmt"
	"testing"

	"github.com/crawlproject/crawl/scheduler"
)

// The held links are bounded: hold reports full at maxHeldUnfollowed, so
// that the caller logs them; the first skip of a URL is the one kept, and
// take empties the set.
func TestUnfollowedBounded(t *testing.T) {
	var u unfollowed
	if u.hold(scheduler.Skip{URL: "http://a.test/0", Parent: "http://a.test/p1"}) {
		t.Fatal("full after one")
	}
	if u.hold(scheduler.Skip{URL: "http://a.test/0", Parent: "http://a.test/p2"}) {
		t.Fatal("full after a repeat")
	}
	for i := 1; i < maxHeldUnfollowed-1; i++ {
		if u.hold(scheduler.Skip{URL: fmt.Sprintf("http://a.test/%d", i)}) {
			t.Fatalf("full at %d", i+1)
		}
	}
	if !u.hold(scheduler.Skip{URL: "http://a.test/last"}) {
		t.Fatalf("not full at %d", maxHeldUnfollowed)
	}
	held := u.take()
	if len(held) != maxHeldUnfollowed || held["http://a.test/0"].Parent != "http://a.test/p1" {
		t.Errorf("took %d, /0 from %q; want %d, /0 from its first page", len(held), held["http://a.test/0"].Parent, maxHeldUnfollowed)
	}
	if len(u.take()) != 0 {
		t.Error("take did not empty the set")
	}
}
