package redisfrontier

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/redistest"
)

// TestStatusTellsStaleProcesses: Status reports each process's heartbeat
// with the interval it is written at (DefaultHeartbeat for a heartbeat
// that does not say), and a process counts as stale once its last
// heartbeat is older than three intervals.
func TestStatusTellsStaleProcesses(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	live := open(t, url, prefix, time.Second) // heartbeat every 200 ms
	ctx := context.Background()
	silent := time.Now().Add(-10 * time.Second)
	if err := live.rdb.HSet(ctx, keys{prefix}.procs(), "gone-1-ab", fmt.Sprintf(`{"pid":1,"seen":%d}`, silent.UnixMilli())).Err(); err != nil {
		t.Fatal(err)
	}
	var r Report
	for deadline := time.Now().Add(5 * time.Second); len(r.Processes) < 2 && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var err error
		if r, err = StatusPrefix(ctx, url, prefix); err != nil {
			t.Fatal(err)
		}
	}
	if len(r.Processes) != 2 {
		t.Fatalf("processes %+v, want the live one and the silent one", r.Processes)
	}
	gone, alive := r.Processes[0], r.Processes[1]
	if alive.ID == "gone-1-ab" {
		gone, alive = alive, gone
	}
	now := time.Now()
	if alive.ID != live.opts.ProcessID || alive.Heartbeat != 200*time.Millisecond || alive.Stale(now) {
		t.Errorf("live process: %+v, stale %t; want a heartbeat of 200ms, not stale", alive, alive.Stale(now))
	}
	if !alive.Stale(alive.LastSeen.Add(600*time.Millisecond+time.Millisecond)) || alive.Stale(alive.LastSeen.Add(600*time.Millisecond)) {
		t.Error("a process must turn stale once its last heartbeat is older than three intervals, and not before")
	}
	if gone.Heartbeat != DefaultHeartbeat || !gone.Stale(now) || !gone.LastSeen.Equal(time.UnixMilli(silent.UnixMilli())) {
		t.Errorf("silent process: %+v, stale %t; want the default heartbeat, stale", gone, gone.Stale(now))
	}
}
