package archive

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The index is sorted in bounded memory: lines beyond a run's size are
// sorted in run files and merged, and the output is the lines in order,
// with no run file left behind.
func TestLineSorterMergesRuns(t *testing.T) {
	dir := t.TempDir()
	s := newLineSorter(dir)
	s.runBytes = 512
	r := rand.New(rand.NewPCG(1, 2))
	var want []string
	for i := range 1000 {
		l := fmt.Sprintf("com,example)/%d %08d {}", r.IntN(5000), i)
		want = append(want, l)
		if err := s.add(l); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.runs) < 10 {
		t.Fatalf("%d runs, want the lines spread over many", len(s.runs))
	}
	var b bytes.Buffer
	if err := s.writeTo(&b); err != nil {
		t.Fatal(err)
	}
	s.close()
	slices.Sort(want)
	if got := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("merged %d lines, not the %d lines in order", len(got), len(want))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*")); len(left) > 0 {
		t.Errorf("run files left: %v", left)
	}
}

// A Writer whose journal could not be written still writes a complete
// index at Close: from the WARC files.
func TestCloseIndexesWithoutJournal(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := w.WriteExchange(page(fmt.Sprintf("http://example.com/%d", i), "/", fmt.Sprintf("body %d", i))); err != nil {
			t.Fatal(err)
		}
	}
	w.journal.f.Close() // the buffered lines cannot be written
	if err := w.Close(); err == nil {
		t.Error("Close reported no journal error")
	}
	if n := strings.Count(indexText(t, dir), "\n"); n != 5 {
		t.Errorf("index has %d lines, want 5", n)
	}
	if _, err := os.Stat(filepath.Join(dir, IndexName)); err != nil {
		t.Error(err)
	}
}

// The revisit table remembers the payloads met most recently: a digest
// found again survives a generation change, one not met again is
// forgotten, and the table never holds more than its bound.
func TestRevisitTableKeepsRecentPayloads(t *testing.T) {
	tab := newRevisitTable(4)
	ref := func(s string) revisitRef { return revisitRef{uri: s} }
	tab.remember("a", ref("a"))
	tab.remember("b", ref("b"))
	tab.remember("c", ref("c")) // a and b move to the old generation
	if r, ok := tab.lookup("a"); !ok || r.uri != "a" {
		t.Fatalf("a: %v %v, want remembered", r, ok)
	}
	tab.remember("d", ref("d")) // c and a move to the old generation, b is dropped
	if _, ok := tab.lookup("b"); ok {
		t.Error("b, not met again, is still remembered")
	}
	for _, d := range []string{"a", "c", "d"} {
		if _, ok := tab.lookup(d); !ok {
			t.Errorf("%s forgotten", d)
		}
	}
	tab.remember("a", ref("other"))
	if r, _ := tab.lookup("a"); r.uri != "a" {
		t.Errorf("a refers to %q, want the first response that stored it", r.uri)
	}
	if n := len(tab.cur) + len(tab.old); n > 4 {
		t.Errorf("table holds %d digests, bound 4", n)
	}
}
