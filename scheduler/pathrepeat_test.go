package scheduler

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestPathRepeat: a run of segments occurring more than max times in a
// row is found, the shortest and first one, with every copy counted;
// paths that merely reuse a segment elsewhere, or repeat it max times, are
// not.
func TestPathRepeat(t *testing.T) {
	for _, c := range []struct {
		path  string
		max   int
		run   string
		times int // 0: none found
	}{
		{"/", 2, "", 0},
		{"/a/", 2, "", 0},
		{"/a/a/", 2, "", 0},
		{"/a/a/a/", 2, "a/", 3},
		{"/a/a/a", 2, "a/", 3}, // the last segment counts, slash or not
		{"/a/a/a/a/a/x", 2, "a/", 5},
		{"/docs/a/a/a/index.html", 2, "a/", 3},
		{"/a/b/a/b/", 2, "", 0},
		{"/a/b/a/b/a/b/", 2, "a/b/", 3},
		{"/x/a/b/c/a/b/c/a/b/c/a/b", 2, "a/b/c/", 3}, // the partial fourth copy is not counted
		{"/a/b/a/c/a/d/", 2, "", 0},                  // a reused, never in a row
		{"/2024/01/01/post", 2, "", 0},
		{"/1/1/1.png", 2, "", 0},
		{"/a////b", 2, "/", 3}, // the empty segment between slashes
		{"/a/a/a/", 1, "a/", 3},
		{"/a/a/", 1, "a/", 2},
		{"/a/a/a/a/", 4, "", 0},
		{"/a/a/a/a/a/", 4, "a/", 5},
		{"/a/a/a/a/a/a/a/", 0, "", 0}, // 0: no limit
		{"/b/a/b/a/a/a/", 2, "a/", 3}, // the shortest run first
		{"/%7E/%7e/%7E/", 2, "", 0},   // compared as written: the canonical form settles case
		{"/" + strings.Repeat("s1/s2/s3/s4/s5/s6/s7/s8/s9/s10/s11/s12/s13/s14/s15/s16/", 3), 2, "s1/s2/s3/s4/s5/s6/s7/s8/s9/s10/s11/s12/s13/s14/s15/s16/", 3},
		{"/" + strings.Repeat("s1/s2/s3/s4/s5/s6/s7/s8/s9/s10/s11/s12/s13/s14/s15/s16/s17/", 3), 2, "", 0}, // past maxRepeatRun
	} {
		f, ok := pathRepeat(c.path, c.max)
		if ok != (c.times > 0) || f.run != c.run || f.times != c.times {
			t.Errorf("pathRepeat(%q, %d) = %+v, %v; want run %q %d times", c.path, c.max, f, ok, c.run, c.times)
		}
	}
}

// TestPathRepeatAgreesWithBruteForce: on random paths over a small set of
// segments (so that repeats abound), pathRepeat, which tries only some
// positions, finds what trying every run length and start finds.
func TestPathRepeatAgreesWithBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "", "cc"}
	found := 0
	for range 20000 {
		segs := make([]string, 1+rng.IntN(40))
		for i := range segs {
			segs[i] = alphabet[rng.IntN(1+rng.IntN(len(alphabet)))]
		}
		path, max := "/"+strings.Join(segs, "/"), 1+rng.IntN(3)
		want, wantOK := bruteRepeat(segs, max)
		got, ok := pathRepeat(path, max)
		if ok != wantOK || got != want {
			t.Fatalf("pathRepeat(%q, %d) = %+v, %v; brute force finds %+v, %v", path, max, got, ok, want, wantOK)
		}
		if ok {
			found++
		}
	}
	if found < 1000 || found > 19000 {
		t.Errorf("%d of 20000 paths had a repeat: the test's paths do not try both outcomes", found)
	}
}

// bruteRepeat is pathRepeat by definition: for each run length, the
// first start from which the run occurs more than max times in a row.
func bruteRepeat(segs []string, max int) (pathRepeatFinding, bool) {
	for k := 1; k <= maxRepeatRun; k++ {
		for p := 0; p+k <= len(segs); p++ {
			c := 1
			for p+(c+1)*k <= len(segs) && slices.Equal(segs[p+c*k:p+(c+1)*k], segs[p:p+k]) {
				c++
			}
			if c > max {
				return pathRepeatFinding{run: strings.Join(segs[p:p+k], "/") + "/", times: c}, true
			}
		}
	}
	return pathRepeatFinding{}, false
}

// TestPathRepeatDescribe: the detail names the run and the limit, and
// quotes a long run cut.
func TestPathRepeatDescribe(t *testing.T) {
	if got := (pathRepeatFinding{run: "a/", times: 3}).describe(2); got != `path segment "a/" occurs 3 times in a row, more than 2 (scope.max_path_repeats)` {
		t.Errorf("describe = %s", got)
	}
	if got := (pathRepeatFinding{run: "a/b/", times: 4}).describe(2); got != `path segments "a/b/" occur 4 times in a row, more than 2 (scope.max_path_repeats)` {
		t.Errorf("describe = %s", got)
	}
	long := pathRepeatFinding{run: strings.Repeat("x", 300) + "/", times: 3}.describe(2)
	if !strings.Contains(long, strings.Repeat("x", maxRunShown)+`..."`) || strings.Contains(long, strings.Repeat("x", maxRunShown+1)) {
		t.Errorf("long run not cut at %d octets: %s", maxRunShown, long)
	}
}

// BenchmarkPathRepeat: the check on a typical path, and on the worst a
// link under the default max_url_length can be (1,000 distinct segments,
// so every run length up to maxRepeatRun is scanned in full).
func BenchmarkPathRepeat(b *testing.B) {
	var worst strings.Builder
	for i := range 1000 {
		worst.WriteString("/" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)))
	}
	for _, c := range []struct{ name, path string }{
		{"typical", "/blog/2026/11/22/a-post-about-crawling/"},
		{"1000-segments", worst.String()},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, ok := pathRepeat(c.path, 2); ok {
					b.Fatal("found a repeat")
				}
			}
		})
	}
}
