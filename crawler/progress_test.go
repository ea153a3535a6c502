package crawler

import (
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

func TestProgressLineCountsHostStates(t *testing.T) {
	hosts := []scheduler.HostStatus{
		{State: scheduler.StateActive}, {State: scheduler.StateWaiting}, {State: scheduler.StateParked},
		{State: scheduler.StateBackingOff}, {State: scheduler.StateDeferred}, {State: scheduler.StateDone},
	}
	got := progressLine(scheduler.Stats{Fetched: 50, Queued: 7, Errors: 2}, hosts, 10*time.Second)
	for _, want := range []string{"pages 50", "queued 7", "2 active", "1 parked", "1 backing off", "1 deferred", "errors 2", "5.0 pages/s"} {
		if !strings.Contains(got, want) {
			t.Errorf("progress line %q lacks %q", got, want)
		}
	}
}
