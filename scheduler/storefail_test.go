package scheduler

import (
	"context"
	"errors"
	"sync"
	"syscall"
	"testing"
)

// fillingStore is a MemStore on a disk that fills up: while full, Apply
// fails with ENOSPC; applies counts the calls made after the first
// failure.
type fillingStore struct {
	*MemStore
	mu      sync.Mutex
	full    bool
	failed  bool
	applies int
}

func (s *fillingStore) setFull(full bool) {
	s.mu.Lock()
	s.full = full
	s.mu.Unlock()
}

func (s *fillingStore) Apply(ops []Op) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failed {
		s.applies++
	}
	if s.full {
		s.failed = true
		return syscall.ENOSPC
	}
	return s.MemStore.Apply(ops)
}

// TestStoreFailureStopsWriting protects the frontier as a prefix of the
// crawl's history: after a commit fails (a full disk), no later change is
// written, even once the disk has room again (a page's lease finished
// without the links it queued would lose them), and Next, Flush and Close
// report the failure, wrapped in ErrStore.
func TestStoreFailureStopsWriting(t *testing.T) {
	store := &fillingStore{MemStore: NewMemStore()}
	s, err := Open(testConfig(), store)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range urls("http://a.test", 3) {
		if sk, err := s.Add(Candidate{URL: u, Seed: true}); sk != nil || err != nil {
			t.Fatal(sk, err)
		}
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	store.setFull(true)
	if _, err := s.Add(Candidate{URL: "http://a.test/lost-in-the-failed-commit", Seed: true}); err != nil {
		t.Fatal(err)
	}
	err = s.Flush()
	if !errors.Is(err, ErrStore) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Flush after the failed commit: %v, want ErrStore wrapping ENOSPC", err)
	}
	store.setFull(false)
	s.Add(Candidate{URL: "http://a.test/after-the-failure", Seed: true})
	if _, err := s.Next(context.Background()); !errors.Is(err, ErrStore) {
		t.Errorf("Next after the failure: %v, want ErrStore", err)
	}
	if err := s.Close(); !errors.Is(err, ErrStore) {
		t.Errorf("Close after the failure: %v, want ErrStore", err)
	}
	if store.applies != 0 {
		t.Errorf("%d commits were tried after the failed one, want none", store.applies)
	}
	queues, err := store.Queues()
	if err != nil {
		t.Fatal(err)
	}
	if q := queues["http://a.test:80"]; q.Len != 3 {
		t.Errorf("the store holds %d URLs of a.test, want the 3 committed before the failure", q.Len)
	}
}
