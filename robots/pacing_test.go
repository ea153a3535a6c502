package robots

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestCrawlDelay(t *testing.T) {
	for _, c := range []struct {
		value string
		want  time.Duration
		warn  bool
	}{
		{"10", 10 * time.Second, false},
		{"0.5", 500 * time.Millisecond, false},
		{"0", 0, false},
		{"2.25s", 2250 * time.Millisecond, false},
		{"-3", 3 * time.Second, true},
		{"soon", FallbackDelay, true},
		{"NaN", FallbackDelay, true},
		{"1e12", MaxDelay, true},
	} {
		g := Parse([]byte("User-agent: *\nCrawl-delay: " + c.value + "\n")).Group("bot")
		d, ok := g.CrawlDelay()
		if !ok || d != c.want {
			t.Errorf("Crawl-delay: %s = %v %v, want %v", c.value, d, ok, c.want)
		}
		if got := len(g.Warnings()) > 0; got != c.warn {
			t.Errorf("Crawl-delay: %s: warnings %v", c.value, g.Warnings())
		}
	}
	g := Parse([]byte("User-agent: *\nCrawl-delay: 3\nCrawl-delay: 7\nCrawl-delay: 5\n")).Group("bot")
	if d, _ := g.CrawlDelay(); d != 7*time.Second {
		t.Errorf("several Crawl-delay lines: %v, want the longest (7s)", d)
	}
	if _, ok := Parse([]byte("User-agent: *\nDisallow: /\n")).Group("bot").CrawlDelay(); ok {
		t.Error("CrawlDelay ok without a Crawl-delay line")
	}
}

// TestExtended1996_RequestRate covers the <rate> format of the extended
// standard ("10/60", "10/10m", "20/1h", the 100/24h normalisation) and the
// conservative readings of malformed values.
func TestExtended1996_RequestRate(t *testing.T) {
	for _, c := range []struct {
		value     string
		requests  int
		per       time.Duration
		interval  time.Duration
		window    string // "" for none
		malformed bool
	}{
		{"10/60", 10, time.Minute, 6 * time.Second, "", false},
		{"10/10m", 10, 10 * time.Minute, time.Minute, "", false},
		{"20/1h", 20, time.Hour, 3 * time.Minute, "", false},
		{"100/24h", 100, 24 * time.Hour, 864 * time.Second, "", false},
		{"1/30m", 1, 30 * time.Minute, 30 * time.Minute, "", false},
		{"1 / 5 s", 1, 5 * time.Second, 5 * time.Second, "", false},
		{"1/m", 1, time.Minute, time.Minute, "", false},
		{"1/10m 1300-1659", 1, 10 * time.Minute, 10 * time.Minute, "13:00-16:59", false},
		{"1/10m 1300 1659", 1, 10 * time.Minute, 10 * time.Minute, "13:00-16:59", false},
		{"1/20m 1700-0459", 1, 20 * time.Minute, 20 * time.Minute, "17:00-04:59", false},
		{"1/20m 17:00-04:59", 1, 20 * time.Minute, 20 * time.Minute, "17:00-04:59", false},
		{"0.5/1m", 1, 2 * time.Minute, 2 * time.Minute, "", false},
		{"10", 1, 10 * time.Second, 10 * time.Second, "", true},
		{"0/10s", 1, 10 * time.Second, 10 * time.Second, "", true},
		{"5/0", 5, time.Second, 200 * time.Millisecond, "", true},
		{"-2/1m", 2, time.Minute, 30 * time.Second, "", true},
		{"1/10x", 1, 10 * time.Hour, 10 * time.Hour, "", true},
		{"10/1d", 10, 24 * time.Hour, 144 * time.Minute, "", false},
		{"1/10m 9999-1", 1, 10 * time.Minute, 10 * time.Minute, "", true},
	} {
		rates := Parse([]byte("User-agent: *\nRequest-rate: " + c.value + "\n")).Group("bot").RequestRates()
		if len(rates) != 1 {
			t.Errorf("%q: %d rates", c.value, len(rates))
			continue
		}
		r := rates[0]
		window := ""
		if r.Windowed {
			window = r.Window.String()
		}
		if r.Requests != c.requests || r.Per != c.per || r.Interval() != c.interval || window != c.window || r.Malformed != c.malformed {
			t.Errorf("%q: got %d/%v interval %v window %q malformed %v", c.value, r.Requests, r.Per, r.Interval(), window, r.Malformed)
		}
		if r.Line != 2 || r.Text != "Request-rate: "+c.value {
			t.Errorf("%q: line %d text %q", c.value, r.Line, r.Text)
		}
	}
	if rates := Parse([]byte("User-agent: *\nRequest-rate: fast\n")).Group("bot").RequestRates(); len(rates) != 1 ||
		rates[0].Interval() != FallbackDelay || !rates[0].Malformed {
		t.Errorf("unreadable rate: %v, want 1/10s malformed", rates)
	}
}

func TestExtended1996_VisitTime(t *testing.T) {
	for _, c := range []struct {
		value string
		want  []Window
	}{
		{"0600-0845", []Window{{360, 525}}},
		{"0600 0845", []Window{{360, 525}}},
		{"06:00-08:45", []Window{{360, 525}}},
		{"2200-0200", []Window{{1320, 120}}},
		{"0100-0200 1400-1500", []Window{{60, 120}, {840, 900}}},
		{"0100-0200, 1400-1500", []Window{{60, 120}, {840, 900}}},
		{"0000-2400", []Window{{0, 1439}}},
		{"2500-2600", nil},
		{"0600", nil},
		{"morning", nil},
	} {
		g := Parse([]byte("User-agent: *\nVisit-time: " + c.value + "\n")).Group("bot")
		got := g.VisitTimes()
		if len(got) != len(c.want) {
			t.Errorf("%q: %v, want %v", c.value, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: %v, want %v", c.value, got, c.want)
			}
		}
		if c.want == nil && len(g.Warnings()) != 1 {
			t.Errorf("%q: no warning", c.value)
		}
	}
	g := Parse([]byte("User-agent: *\nVisit-time: 2200-0200\nVisit-time: 1200-1259\n")).Group("bot")
	for _, c := range []struct {
		now  time.Time
		ok   bool
		next time.Time
	}{
		{at(23, 0), true, at(23, 0)},
		{at(1, 59), true, at(1, 59)},
		{at(2, 0), true, at(2, 0)},
		{at(2, 1), false, at(12, 0)},
		{at(13, 0), false, at(22, 0)},
	} {
		if got := g.VisitAllowed(c.now); got != c.ok {
			t.Errorf("VisitAllowed(%s) = %v", c.now.Format("15:04"), got)
		}
		if got := g.NextVisit(c.now); !got.Equal(c.next) {
			t.Errorf("NextVisit(%s) = %v, want %v", c.now.Format("15:04"), got, c.next)
		}
	}
	if !Parse(nil).Group("bot").VisitAllowed(at(3, 0)) {
		t.Error("no Visit-time must allow any time")
	}
}

func TestPace(t *testing.T) {
	body := "User-agent: *\n" +
		"Crawl-delay: 20\n" + // 2
		"Request-rate: 1/10s\n" + // 3
		"Request-rate: 1/30s\n" + // 4 (slowest unwindowed)
		"Request-rate: 1/1m 0100-0159\n" + // 5
		"Request-rate: 1/5s 0200-0259\n" // 6
	g := Parse([]byte(body)).Group("bot")
	for _, c := range []struct {
		now  time.Time
		want time.Duration
		src  string
	}{
		{at(0, 30), 30 * time.Second, "line 4: Request-rate: 1/30s"},
		{at(1, 30), time.Minute, "line 5: Request-rate: 1/1m 0100-0159"},
		{at(2, 30), 30 * time.Second, "line 4: Request-rate: 1/30s"},
	} {
		iv, src, ok := g.Pace(c.now)
		if !ok || iv != c.want || src != c.src {
			t.Errorf("Pace(%s) = %v %q %v, want %v %q", c.now.Format("15:04"), iv, src, ok, c.want, c.src)
		}
	}
	g = Parse([]byte("User-agent: *\nCrawl-delay: 2.5\nRequest-rate: 1/1s\n")).Group("bot")
	if iv, src, _ := g.Pace(at(0, 0)); iv != 2500*time.Millisecond || src != "line 2: Crawl-delay: 2.5" {
		t.Errorf("Pace = %v %q, want Crawl-delay 2.5s", iv, src)
	}
	if _, _, ok := Parse(nil).Group("bot").Pace(at(0, 0)); ok {
		t.Error("Pace ok for an empty group")
	}
}

// TestDigitsLikeParseFloat checks the Crawl-delay shortcut against
// strconv.ParseFloat, which reads every other value.
func TestDigitsLikeParseFloat(t *testing.T) {
	for _, s := range []string{"0", "7", "007", "86400", "86401", "999999999", "1234567890", "", "1.5", "-3", "+3", "3s", "1e3", " 3"} {
		got, ok := digits(s)
		want, err := strconv.ParseFloat(s, 64)
		if ok && (err != nil || got != want) {
			t.Errorf("digits(%q) = %v, ParseFloat = %v, %v", s, got, want, err)
		}
		if all := s != "" && strings.Trim(s, "0123456789") == ""; ok != (all && len(s) <= 9) {
			t.Errorf("digits(%q) ok = %v", s, ok)
		}
	}
	if d, msg := parseDelay("86401"); d != MaxDelay || msg == "" {
		t.Errorf("parseDelay(86401) = %v, %q; want the 24 h cap with a warning", d, msg)
	}
}
