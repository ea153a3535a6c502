package scheduler

import (
	"context"
	"fmt"
	"testing"
)

// Progress counts what Stats counts, reading only the hosts changed since
// its last call: each host's status is returned when its state changes,
// and not again while it stays.
func TestProgressCountsChangedHosts(t *testing.T) {
	s, err := Open(testConfig(), NewMemStore())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for h := range 3 {
		for p := range 2 {
			if _, err := s.Add(Candidate{URL: fmt.Sprintf("http://h%d.test/p%d", h, p), Seed: true}); err != nil {
				t.Fatal(err)
			}
		}
	}
	st, moved := s.Progress()
	full := s.Stats()
	if st.Queued != full.Queued || st.Queued != 6 || st.Hosts != 3 || st.HostsActive != full.HostsActive {
		t.Errorf("Progress %+v, Stats %+v: want the same totals", st, full)
	}
	if len(moved) != 3 || moved[0].Authority != "http://h0.test:80" {
		t.Errorf("moved %v, want the 3 new hosts by authority", moved)
	}
	if _, moved := s.Progress(); len(moved) != 0 {
		t.Errorf("nothing changed, yet %d hosts moved", len(moved))
	}
	l, err := s.Next(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(l, Result{Status: 404}); err != nil {
		t.Fatal(err)
	}
	st, _ = s.Progress()
	if full := s.Stats(); st.Queued != full.Queued || st.InFlight != full.InFlight || st.Leased != full.Leased {
		t.Errorf("after a lease: Progress %+v, Stats %+v", st, full)
	}
}
