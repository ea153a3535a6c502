package scheduler

import (
	"testing"
	"time"

	"github.com/crawlproject/crawl/robots"
)

func TestInterval(t *testing.T) {
	cfg := DefaultConfig() // 10 s default, factor 2
	noon := epoch.Add(12 * time.Hour)
	for _, tc := range []struct {
		name string
		cfg  func(*Config)
		p    paceState
		want time.Duration
		src  string
	}{
		{"1996 rule of thumb: 10 s when fetches are fast", nil, paceState{adaptive: 2 * time.Second}, 10 * time.Second, "default 10s (1996 rule of thumb)"},
		{"1996 rule of thumb: twice the fetch time when slower", nil, paceState{adaptive: 16 * time.Second}, 16 * time.Second, "adaptive 2x8s"},
		{"Crawl-delay replaces the default", nil, paceState{rules: Rules{HasCrawlDelay: true, CrawlDelay: 3 * time.Second, CrawlDelayLine: 4}, crawlDelay: 3 * time.Second}, 3 * time.Second, "crawl-delay 3s (line 4)"},
		{"Crawl-delay 0 asks for no pace: the default stays", nil, paceState{rules: Rules{HasCrawlDelay: true}}, 10 * time.Second, "default 10s (1996 rule of thumb)"},
		{"adaptive beats a shorter Crawl-delay", nil, paceState{rules: Rules{HasCrawlDelay: true, CrawlDelay: time.Second}, crawlDelay: time.Second, adaptive: 4 * time.Second}, 4 * time.Second, "adaptive 2x2s"},
		{"1996 Request-rate: the unwindowed line with the fewest documents", nil, paceState{rules: Rules{RequestRates: []robots.RequestRate{rrate(10, time.Minute, "", 1), rrate(100, 24*time.Hour, "", 2), rrate(1, 5*time.Second, "", 3)}}}, 864 * time.Second, "request-rate 100/24h (line 2)"},
		{"1996 Request-rate: windowed rate inside its window", nil, paceState{rules: Rules{RequestRates: []robots.RequestRate{rrate(1, 10*time.Minute, "1100-1259", 1)}}}, 10 * time.Minute, "request-rate 1/10m 11:00-12:59 (line 1)"},
		{"1996 Request-rate: windowed rate outside its window falls back to the default", nil, paceState{rules: Rules{RequestRates: []robots.RequestRate{rrate(1, 10*time.Minute, "1300-1659", 1)}}}, 10 * time.Second, "default 10s (1996 rule of thumb)"},
		{"min delay is a floor", func(c *Config) { c.MinDelay = time.Minute }, paceState{}, time.Minute, "min-delay 1m"},
		{"back-off slows everything", nil, paceState{backoff: 40 * time.Second}, 40 * time.Second, "back-off 40s"},
		{"margin is added", func(c *Config) { c.Margin = 5 * time.Millisecond }, paceState{}, 10*time.Second + 5*time.Millisecond, "default 10s (1996 rule of thumb)"},
		{"adaptive label rounds the measured fetch time to 3 digits, not the interval", func(c *Config) { c.DefaultDelay = 10 * time.Millisecond }, paceState{adaptive: 2 * 41761261 * time.Nanosecond}, 2 * 41761261 * time.Nanosecond, "adaptive 2x41.8ms"},
		{"adaptive label of a slow fetch", nil, paceState{adaptive: 2 * (83*time.Second + 456789*time.Microsecond)}, 2 * (83*time.Second + 456789*time.Microsecond), "adaptive 2x1m23.5s"},
		{"restart: the previous run's interval stands in for unknown rules", nil, paceState{restored: 500 * time.Millisecond}, 500 * time.Millisecond, "previous run's interval 500ms (until robots.txt is read)"},
		{"restart: a Crawl-delay equal to the previous run's interval names the robots rule", nil, paceState{restored: 500 * time.Millisecond, rules: Rules{HasCrawlDelay: true, CrawlDelay: 500 * time.Millisecond, CrawlDelayLine: 3}, crawlDelay: 500 * time.Millisecond}, 500 * time.Millisecond, "crawl-delay 500ms (line 3)"},
		{"restart: a Request-rate equal to the previous run's interval names the robots rule", nil, paceState{restored: time.Second, rules: Rules{RequestRates: []robots.RequestRate{rrate(1, time.Second, "", 5)}}}, time.Second, "request-rate 1/1s (line 5)"},
		{"restart: a slower previous interval is still the floor", nil, paceState{restored: 2 * time.Second, rules: Rules{HasCrawlDelay: true, CrawlDelay: time.Second, CrawlDelayLine: 3}, crawlDelay: time.Second}, 2 * time.Second, "previous run's interval 2s (until robots.txt is read)"},
		{"a default other than the rule of thumb's 10 s is not called the rule of thumb", func(c *Config) { c.DefaultDelay = 200 * time.Millisecond }, paceState{}, 200 * time.Millisecond, "default 200ms (configured)"},
		{"a longer default is configured too", func(c *Config) { c.DefaultDelay = 30 * time.Second }, paceState{}, 30 * time.Second, "default 30s (configured)"},
		{"no pace at all", func(c *Config) { c.DefaultDelay = 0; c.Margin = time.Millisecond }, paceState{}, 0, "none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cfg
			if tc.cfg != nil {
				tc.cfg(&c)
			}
			iv, src := interval(&c, &tc.p, noon)
			if iv != tc.want || src != tc.src {
				t.Errorf("interval = %s %q, want %s %q", iv, src, tc.want, tc.src)
			}
		})
	}
}

func TestEarliest(t *testing.T) {
	cfg := DefaultConfig()
	cfg.FetchTimeFactor = 0
	clock := func(h, m, s int) time.Time {
		return epoch.Add(time.Duration(h)*time.Hour + time.Duration(m)*time.Minute + time.Duration(s)*time.Second)
	}
	rates := []robots.RequestRate{rrate(1, 10*time.Minute, "1300-1659", 1), rrate(1, 20*time.Minute, "1700-0459", 2), rrate(5, time.Minute, "0500-1259", 3)}
	for _, tc := range []struct {
		name   string
		p      paceState
		now    time.Time
		want   time.Time
		parked bool
	}{
		{"first request is immediate", paceState{}, clock(1, 0, 0), clock(1, 0, 0), false},
		{"interval after the last start", paceState{base: clock(1, 0, 0)}, clock(1, 0, 1), clock(1, 0, 10), false},
		{"1996 example: switch to 1/10m at 13:00", paceState{rules: Rules{RequestRates: rates}, base: clock(12, 59, 50)}, clock(12, 59, 55), clock(13, 9, 50), false},
		{"1996 example: switch to 5/1m at 05:00", paceState{rules: Rules{RequestRates: rates}, base: clock(4, 50, 0)}, clock(4, 55, 0), clock(5, 0, 0), false},
		{"1996 example: wraps past midnight", paceState{rules: Rules{RequestRates: rates}, base: clock(23, 50, 0)}, clock(23, 55, 0), clock(24, 10, 0), false},
		{"Visit-time: parked until the window opens", paceState{rules: Rules{VisitTimes: []robots.Window{win("0600", "0845")}}}, clock(1, 0, 0), clock(6, 0, 0), true},
		{"Visit-time: last minute of the window is inside", paceState{rules: Rules{VisitTimes: []robots.Window{win("0600", "0845")}}}, clock(8, 45, 59), clock(8, 45, 59), false},
		{"Visit-time: pace pushes past the window", paceState{rules: Rules{VisitTimes: []robots.Window{win("0600", "0845")}}, base: clock(8, 45, 55)}, clock(8, 45, 56), clock(30, 0, 0), true},
		{"Visit-time: the nearest of several windows", paceState{rules: Rules{VisitTimes: []robots.Window{win("2200", "0100"), win("0600", "0845")}}}, clock(1, 30, 0), clock(6, 0, 0), true},
		{"not before a back-off", paceState{until: clock(2, 0, 0)}, clock(1, 0, 0), clock(2, 0, 0), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := earliest(&cfg, &tc.p, tc.now)
			if !got.start.Equal(tc.want) || got.parked != tc.parked {
				t.Errorf("earliest = %s parked=%v, want %s parked=%v", got.start, got.parked, tc.want, tc.parked)
			}
		})
	}
}

func TestBackoffDoubling(t *testing.T) {
	want := []time.Duration{0, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second, 10 * time.Second}
	for streak, w := range want {
		if got := backoff(time.Second, 10*time.Second, streak); got != w {
			t.Errorf("backoff(streak %d) = %s, want %s", streak, got, w)
		}
	}
	if got := backoff(time.Second, time.Hour, 200); got != time.Hour {
		t.Errorf("backoff overflow: %s", got)
	}
}
