package crawler

import (
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

func TestProgressLineCountsHostStates(t *testing.T) {
	st := scheduler.Stats{Fetched: 50, Queued: 7, Errors: 2,
		HostsActive: 1, HostsWaiting: 2, HostsParked: 1, HostsBackingOff: 1, HostsDeferred: 1, HostsDone: 1}
	got := progressLine(st, 0, 10*time.Second)
	for _, want := range []string{"pages 50 |", "queued 7", "1 active", "2 waiting", "1 parked", "1 backing off", "1 deferred", "errors 2", "5.0 pages/s"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress line %q lacks %q", got, want)
		}
	}
}

// TestProgressLineRateAfterResume: pages fetched by earlier runs of the
// same output directory count in the total but not in this run's rate.
func TestProgressLineRateAfterResume(t *testing.T) {
	tests := []struct {
		name    string
		fetched int
		before  int
		elapsed time.Duration
		want    []string
	}{
		{"nothing fetched yet by this run", 14, 14, 500 * time.Millisecond, []string{"pages 14 (0 this run)", "0.0 pages/s"}},
		{"this run's pages over this run's time", 34, 14, 10 * time.Second, []string{"pages 34 (20 this run)", "errors 3 this run", "2.0 pages/s"}},
		{"no time elapsed", 14, 14, 0, []string{"0.0 pages/s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := progressLine(scheduler.Stats{Fetched: tt.fetched, Errors: 3}, tt.before, tt.elapsed)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("progress line %q lacks %q", got, w)
				}
			}
		})
	}
}

// TestRefreshSlowsWithTheHostCount: the host-state watcher reads, under
// the scheduler's lock, the hosts changed since its last read; once a
// read takes longer than a twentieth of progressEvery it waits twenty
// reads' time, so it never holds the lock more than a twentieth of the
// time (a read of all 100,000 hosts once took 253 ms, twice every 500 ms).
func TestRefreshSlowsWithTheHostCount(t *testing.T) {
	for _, tc := range []struct{ took, want time.Duration }{
		{time.Millisecond, progressEvery},
		{progressEvery / 20, progressEvery},
		{253 * time.Millisecond, 5060 * time.Millisecond},
	} {
		if got := nextRefresh(tc.took); got != tc.want {
			t.Errorf("after a read of %v: %v, want %v", tc.took, got, tc.want)
		}
	}
}
