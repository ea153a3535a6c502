package redisfrontier

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/crawlproject/crawl/robots"
	"github.com/crawlproject/crawl/scheduler"
)

// TestVisitTimeHoldsForRobotsAndHops protects "never outside its
// Visit-time windows" for every request to a host, as the scheduler's
// Wait keeps it: once a host's rules are known, a robots.txt redirect hop
// to it and a fetch of its robots.txt again (its copy expired) are parked
// outside its windows, and a robots lease given up there does not come
// back before the next window opens.
func TestVisitTimeHoldsForRobotsAndHops(t *testing.T) {
	a, b := twoProcesses(t, testConfig())
	addURLs(t, a, "http://visit.test", 2)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l, err := a.Next(ctx)
	if err != nil || l.Kind != scheduler.KindRobots {
		t.Fatalf("first lease %+v, %v: want the robots lease", l, err)
	}
	// A window that opens a few minutes from now: closed now.
	m := time.Now().UTC().Hour()*60 + time.Now().UTC().Minute()
	closed := robots.Window{From: (m + 5) % 1440, To: (m + 10) % 1440}
	if err := a.RobotsStore().PutRobots(l.Authority, []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	a.SetRules(l.Authority, scheduler.Rules{VisitTimes: []robots.Window{closed}})
	var wait *scheduler.WaitError
	if err := b.WaitHop(ctx, l.Authority); !errors.As(err, &wait) || !errors.Is(err, scheduler.ErrParked) {
		t.Fatalf("a hop outside the host's Visit-time: %v, want parked", err)
	}
	// Its rules expire while the robots lease is held: the robots.txt
	// fetch is parked too, and the robots lease given up waits for the
	// window.
	a.ExpireRules(l.Authority)
	if err := a.Wait(ctx, l.Authority); !errors.Is(err, scheduler.ErrParked) {
		t.Fatalf("robots.txt again outside the host's Visit-time: %v, want parked", err)
	}
	if err := a.Finish(l, scheduler.Result{Requeue: true}); err != nil {
		t.Fatal(err)
	}
	short, stop := context.WithTimeout(ctx, 400*time.Millisecond)
	defer stop()
	if got, err := b.Next(short); got != nil || !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, scheduler.ErrDrained) {
		t.Fatalf("outside the host's Visit-time: lease %+v, %v, want none (the host deferred)", got, err)
	}
}
