package scheduler

import (
	"fmt"
	"path/filepath"
	"testing"
)

func TestBloomNoFalseNegativesFewFalsePositives(t *testing.T) {
	const n = 20_000
	f := newBloom(n)
	for i := range n {
		f.add(seenKey(fmt.Sprint("in", i)))
	}
	for i := range n {
		if !f.has(seenKey(fmt.Sprint("in", i))) {
			t.Fatalf("false negative for key %d", i)
		}
	}
	fp := 0
	for i := range n {
		if f.has(seenKey(fmt.Sprint("out", i))) {
			fp++
		}
	}
	if rate := float64(fp) / n; rate > 0.03 {
		t.Errorf("false positive rate %.3f at capacity, want about 0.01", rate)
	}
	if f.full() {
		t.Error("full at capacity")
	}
	f.add(seenKey("one more"))
	if !f.full() {
		t.Error("not full beyond capacity")
	}
}

func TestBoltSeenAcrossBloomRebuild(t *testing.T) {
	st, err := OpenBoltWith(filepath.Join(t.TempDir(), "f.db"), BoltOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	small := newBloom(100)
	st.bloom.Store(small)
	var ops []Op
	for i := range 300 {
		ops = append(ops, Op{Code: OpSeen, URL: fmt.Sprint("u", i)})
	}
	if err := st.Apply(ops[:150]); err != nil {
		t.Fatal(err)
	}
	if st.bloom.Load() == small {
		t.Fatal("filter not rebuilt when full")
	}
	if err := st.Apply(ops[150:]); err != nil {
		t.Fatal(err)
	}
	for i := range 300 {
		if ok, err := st.Seen(fmt.Sprint("u", i)); !ok || err != nil {
			t.Fatalf("u%d not seen after rebuild: %v", i, err)
		}
	}
	if ok, _ := st.Seen("never"); ok {
		t.Error("unseen URL reported seen")
	}
}
