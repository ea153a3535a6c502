package redisfrontier

import (
	"context"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/redistest"
	"github.com/crawlproject/crawl/robots"
	"github.com/crawlproject/crawl/scheduler"
)

// TestLuaEarliestMatchesScheduler protects the one pace computation: the
// Lua earliest over a host's pace table gives the start, and the parked
// verdict, the scheduler's own earliest gives, across windowed
// Request-rates and Visit-time windows, at chosen instants.
func TestLuaEarliestMatchesScheduler(t *testing.T) {
	url := redistest.URL(t)
	rdb, err := NewClient(url)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	sc := loadScripts()
	cfg := scheduler.DefaultConfig()
	cfg.DefaultDelay, cfg.MinDelay, cfg.Margin = 2*time.Second, 500*time.Millisecond, 7*time.Millisecond
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	at := func(h, m, s int) time.Time {
		return day.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second)
	}
	rate := func(n int, per time.Duration, from, to int, windowed bool) robots.RequestRate {
		return robots.RequestRate{Requests: n, Per: per, Window: robots.Window{From: from, To: to}, Windowed: windowed}
	}
	rulesets := []scheduler.Rules{
		{},
		{HasCrawlDelay: true, CrawlDelay: 3 * time.Second},
		{RequestRates: []robots.RequestRate{rate(1, 12*time.Second, 0, 12*60+59, true), rate(1, 10*time.Minute, 13*60, 16*60+59, true)}},
		{RequestRates: []robots.RequestRate{rate(1, 5*time.Second, 0, 0, false)}, VisitTimes: []robots.Window{{From: 6 * 60, To: 8*60 + 45}}},
		{HasCrawlDelay: true, CrawlDelay: time.Second, VisitTimes: []robots.Window{{From: 22 * 60, To: 2 * 60}},
			RequestRates: []robots.RequestRate{rate(2, time.Minute, 23*60, 23*60+59, true)}},
	}
	nows := []time.Time{at(0, 0, 0), at(6, 0, 0), at(8, 44, 58), at(12, 59, 48), at(12, 59, 59), at(13, 0, 0), at(16, 59, 55), at(21, 59, 59), at(23, 59, 50)}
	for ri, r := range rulesets {
		pace := encodePace(scheduler.NewPaceTable(&cfg, r))
		for _, now := range nows {
			for _, in := range []scheduler.PaceInput{
				{},
				{Last: now.Add(-time.Second)},
				{Last: now.Add(-100 * time.Millisecond), Adaptive: 4 * time.Second},
				{Last: now.Add(-time.Second), Until: now.Add(30 * time.Second), Backoff: 5 * time.Second},
				{Last: now.Add(-2 * time.Hour), Until: now.Add(3 * time.Hour)},
			} {
				in.Rules = r
				want, wantParked := scheduler.EarliestStart(&cfg, in, now)
				res, err := sc.earliest.Run(context.Background(), rdb, []string{"t:{s0}:"}, now.UnixMilli(), pace, in.Last.UnixMilli()*boolInt(!in.Last.IsZero()),
					in.Until.UnixMilli()*boolInt(!in.Until.IsZero()), in.Adaptive.Milliseconds(), in.Backoff.Milliseconds(), cfg.Margin.Milliseconds()).Slice()
				if err != nil {
					t.Fatal(err)
				}
				got, gotParked := msTime(int64Of(res, 0)), int64Of(res, 1) == 1
				if !got.Equal(want) || gotParked != wantParked {
					t.Errorf("rules %d, now %s, %+v: lua %s parked %v, scheduler %s parked %v", ri, now.Format("15:04:05"), in, got.UTC().Format("15:04:05.000"), gotParked, want.UTC().Format("15:04:05.000"), wantParked)
				}
			}
		}
	}
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
