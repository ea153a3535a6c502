package crawler

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/scheduler"
)

// The held links are bounded: hold reports full at maxHeldUnfollowed, so
// that the caller logs them; the first skip of a URL is the one kept, and
// take empties the set.
func TestUnfollowedBounded(t *testing.T) {
	t.Parallel()
	var u unfollowed
	hold := func(s scheduler.Skip) bool {
		full, err := u.hold(s)
		if err != nil {
			t.Fatal(err)
		}
		return full
	}
	if hold(scheduler.Skip{URL: "http://a.test/0", Parent: "http://a.test/p1"}) {
		t.Fatal("full after one")
	}
	if hold(scheduler.Skip{URL: "http://a.test/0", Parent: "http://a.test/p2"}) {
		t.Fatal("full after a repeat")
	}
	for i := 1; i < maxHeldUnfollowed-1; i++ {
		if hold(scheduler.Skip{URL: fmt.Sprintf("http://a.test/%d", i)}) {
			t.Fatalf("full at %d", i+1)
		}
	}
	if !hold(scheduler.Skip{URL: "http://a.test/last"}) {
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

// Each link held is on disk at once (a kill -9 loses none), a restart
// reads them back (a torn last line passed over), keep rewrites the file
// with what stays held, and an empty set removes it.
func TestUnfollowedFile(t *testing.T) {
	dir := t.TempDir()
	var u unfollowed
	if err := u.load(dir); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/a", "/b", "/a"} {
		if _, err := u.hold(scheduler.Skip{URL: "http://a.test" + p, Reason: scheduler.ReasonNofollow, Parent: "http://a.test/nf"}); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, UnfollowedFile)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"url":"http://a.test/torn","reas`) // a kill -9 mid-line
	f.Close()
	var again unfollowed
	if err := again.load(dir); err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(again.held)); !slices.Equal(got, []string{"http://a.test/a", "http://a.test/b"}) {
		t.Fatalf("read back %q; want /a and /b", got)
	}
	again.take()
	if err := again.keep(map[string]scheduler.Skip{"http://a.test/b": {URL: "http://a.test/b", Reason: scheduler.ReasonNofollow}}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil || strings.Count(string(b), "\n") != 1 || !strings.Contains(string(b), `"url":"http://a.test/b"`) {
		t.Fatalf("kept file %q (%v); want /b alone", b, err)
	}
	again.take()
	if err := again.keep(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("nothing held, and the file stays: %v", err)
	}
}

// A file that cannot be written is reported once, with the first link,
// not once per link; the links stay held in memory.
func TestUnfollowedFileUnwritable(t *testing.T) {
	u := unfollowed{path: filepath.Join(t.TempDir(), "missing", UnfollowedFile)}
	_, err := u.hold(scheduler.Skip{URL: "http://a.test/a", Reason: scheduler.ReasonNofollow})
	if err == nil {
		t.Fatal("no error for a file in a missing directory")
	}
	if _, err := u.hold(scheduler.Skip{URL: "http://a.test/b", Reason: scheduler.ReasonNofollow}); err != nil {
		t.Errorf("second link: %v; want the failure reported once", err)
	}
	if len(u.take()) != 2 {
		t.Error("the links are not held")
	}
}
