package main

import (
	"context"
	"time"

	"github.com/crawlproject/crawl/redisfrontier"
	"github.com/crawlproject/crawl/scheduler"
)

// redisStatus reads the status of the shared frontier at url.
func redisStatus(ctx context.Context, url string) (frontierStatus, error) {
	r, err := redisfrontier.Status(ctx, url)
	if err != nil {
		return frontierStatus{}, err
	}
	return statusOf(r, time.Now()), nil
}

// statusOf is what "crawl status" prints of the frontier's report r, read
// at now.
func statusOf(r redisfrontier.Report, now time.Time) frontierStatus {
	s := frontierStatus{Queued: int(r.Queued), Leased: int(r.Leased), Done: int(r.Done),
		Hosts: hostCounts{Total: int(r.Hosts), Parked: r.States[scheduler.StateParked], BackingOff: r.States[scheduler.StateBackingOff],
			Deferred: r.States[scheduler.StateDeferred], Dropped: r.States[scheduler.StateDropped]}}
	for _, p := range r.Processes {
		s.Processes = append(s.Processes, processStatus{ID: p.ID, Host: p.Host, PID: p.PID, Out: p.Out, Pages: p.Pages,
			Started: p.Started, LastSeen: p.LastSeen, Stale: p.Stale(now)})
	}
	return s
}
