package scheduler

import (
	"fmt"
	"strings"
)

// maxRepeatRun is the longest run of path segments pathRepeat looks for
// repeats of. The traps it catches come from relative links ("a/" on a
// page at /a/ leads to /a/a/, then /a/a/a/, ...), whose runs are the one
// or few segments of the link; a longer run repeating is caught by
// Scope.MaxURLLength in the end. With the bound, a path of n segments
// costs about 2n comparisons (each run length k tries one position in
// max*k), 18 µs for the 1,000 segments of the longest link the default
// max_url_length takes (BenchmarkPathRepeat).
const maxRepeatRun = 16

// A pathRepeatFinding names the run of path segments that occurs more
// times in a row than allowed: run is the segments joined with their
// slashes ("a/" or "a/b/"), times how many times it occurs there.
type pathRepeatFinding struct {
	run   string
	times int
}

// pathRepeat looks in an escaped URL path for a run of 1 to maxRepeatRun
// segments that occurs more than max times in a row, as /a/a/a/ or
// /x/y/x/y/x/y/ do (a segment is what lies between two slashes, the empty
// one included, so /a//// repeats the empty segment). It returns the
// shortest such run, first in the path, and ok false when there is none
// or max is 0. This is the rule of Heritrix's PathologicalPathDecideRule,
// without a backtracking regular expression.
func pathRepeat(path string, max int) (f pathRepeatFinding, ok bool) {
	if max <= 0 || strings.Count(path, "/") <= max {
		return f, false // fewer segments than max+1 copies of one
	}
	segs, hashes := splitSegments(path)
	n := len(segs)
	eq := func(i, j int) bool { return hashes[i] == hashes[j] && segs[i] == segs[j] }
	for k := 1; k <= maxRepeatRun && k*(max+1) <= n; k++ {
		// max+1 copies of a run of k segments from position p are the
		// max*k positions in a row from p where a segment equals the one
		// k further on. Any max*k positions in a row hold a multiple of
		// max*k, so only those are tried; from one that matches, the
		// positions in a row around it are counted.
		need := max * k
		for i := 0; i+k < n; i += need {
			if !eq(i, i+k) {
				continue
			}
			lo, hi := i, i
			for lo > 0 && eq(lo-1, lo-1+k) {
				lo--
			}
			for hi+1+k < n && eq(hi+1, hi+1+k) {
				hi++
			}
			if same := hi - lo + 1; same >= need {
				var run strings.Builder
				for _, s := range segs[lo : lo+k] {
					run.WriteString(s + "/")
				}
				return pathRepeatFinding{run: run.String(), times: same/k + 1}, true
			}
			i = hi - hi%need // the next try is the first multiple past hi
		}
	}
	return f, false
}

// splitSegments splits an escaped path into its segments after the first
// slash, with a hash (FNV-1a) of each, so that the passes of pathRepeat
// compare numbers and compare text only where they are equal.
func splitSegments(path string) (segs []string, hashes []uint64) {
	path = strings.TrimPrefix(path, "/")
	n := strings.Count(path, "/") + 1
	segs, hashes = make([]string, 0, n), make([]uint64, 0, n)
	for {
		text, rest, more := strings.Cut(path, "/")
		h := uint64(14695981039346656037)
		for i := 0; i < len(text); i++ {
			h = (h ^ uint64(text[i])) * 1099511628211
		}
		segs, hashes = append(segs, text), append(hashes, h)
		if !more {
			return segs, hashes
		}
		path = rest
	}
}

// maxRunShown bounds the run a skip's detail quotes: sixteen segments of a
// long path can be long.
const maxRunShown = 200

// describe says what was found, for a skip's detail.
func (f pathRepeatFinding) describe(max int) string {
	run, what := f.run, "path segment %q occurs"
	if strings.Count(run, "/") > 1 {
		what = "path segments %q occur"
	}
	if len(run) > maxRunShown {
		run = run[:maxRunShown] + "..."
	}
	return fmt.Sprintf(what+" %d times in a row, more than %d (scope.max_path_repeats)", run, f.times, max)
}
