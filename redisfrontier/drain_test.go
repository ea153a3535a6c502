package redisfrontier

import (
	"context"
	"errors"
	"testing"

	"github.com/crawlproject/crawl/internal/redistest"
	"github.com/crawlproject/crawl/scheduler"
)

// TestDrainSeesFinishesDuringItsSweep: a drain check sweeps the shards
// one after another, so a lease finished meanwhile by another process
// (whose page's links went to a shard already read) could leave both
// unseen. The check counts the finishes of every process around its
// sweep and does not call the frontier drained when one happened.
func TestDrainSeesFinishesDuringItsSweep(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	a := open(t, url, prefix, 0)
	b := open(t, url, prefix, 0)
	ctx := context.Background()
	if _, err := a.Next(ctx); !errors.Is(err, scheduler.ErrDrained) {
		t.Fatalf("empty frontier: Next = %v, want drained", err)
	}
	addURLs(t, b, "http://drain.test", 1)
	l := nextPage(t, b)
	before, err := a.activity(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Finish(l, scheduler.Result{Status: 200}); err != nil {
		t.Fatal(err)
	}
	// Everything is done now, as a's sweep would find it; but a lease was
	// finished since before, so a sweeps again rather than exiting.
	a.maybeDrained()
	if drained, err := a.drained(ctx, before); err != nil || drained {
		t.Errorf("drained = %v, %v after a finish during the sweep; want another sweep", drained, err)
	}
	again, err := a.activity(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Next(ctx); !errors.Is(err, scheduler.ErrDrained) {
		t.Fatalf("after the finish: Next = %v, want drained", err)
	}
	if drained, err := a.drained(ctx, again); err != nil || !drained {
		t.Errorf("drained = %v, %v with no finish since; want drained", drained, err)
	}
}
