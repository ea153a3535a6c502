package scheduler

import (
	"context"
	"errors"
	"testing"
	"time"
)

// While a feed is open the frontier is not drained: Next waits for the
// URLs still to come instead of ending the crawl, and ends it once the
// feed is done and nothing is left.
func TestFeedHoldsDrain(t *testing.T) {
	s, err := Open(testConfig(), NewMemStore())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	done := s.Feed()
	got := make(chan error, 1)
	go func() {
		_, err := s.Next(context.Background())
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("Next returned %v with a feed open", err)
	case <-time.After(100 * time.Millisecond):
	}
	done()
	done() // a second call changes nothing
	select {
	case err := <-got:
		if !errors.Is(err, ErrDrained) {
			t.Fatalf("Next after the feed: %v, want ErrDrained", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Next still waits after the feed is done")
	}
}
