package robots

import (
	"slices"
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
		{"0600-0845", []Window{{360, 525, 2, ""}}},
		{"0600 0845", []Window{{360, 525, 2, ""}}},
		{"06:00-08:45", []Window{{360, 525, 2, ""}}},
		{"2200-0200", []Window{{1320, 120, 2, ""}}},
		{"0100-0200 1400-1500", []Window{{60, 120, 2, ""}, {840, 900, 2, ""}}},
		{"0100-0200, 1400-1500", []Window{{60, 120, 2, ""}, {840, 900, 2, ""}}},
		{"0000-2400", []Window{{0, 1439, 2, ""}}},
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
			want := c.want[i]
			if i == 0 {
				want.Text = "Visit-time: " + c.value // the line as written, on its first window
			}
			if got[i] != want {
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
	// "Crawl-delay: 0" is a pace line that asks for none: reported with its
	// line, interval 0, so callers can say so and keep their own minimum.
	g = Parse([]byte("User-agent: *\nCrawl-delay: 0\n")).Group("bot")
	if iv, src, ok := g.Pace(at(0, 0)); !ok || iv != 0 || src != "line 2: Crawl-delay: 0" {
		t.Errorf("Pace = %v %q %v, want 0 \"line 2: Crawl-delay: 0\" true", iv, src, ok)
	}
	// A windowed Request-rate outside its window is no pace line at now.
	g = Parse([]byte("User-agent: *\nRequest-rate: 1/1m 0100-0159\n")).Group("bot")
	if _, _, ok := g.Pace(at(3, 0)); ok {
		t.Error("Pace ok outside the only Request-rate's window")
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

// TestCrawlDelay_OutOfRange pins the readings of Crawl-delay values that
// are numbers but no usable delay (doc.go, "Conservative readings"): too
// large ones, however they are written, are capped at MaxDelay; negative
// ones count by their magnitude; NaN is not a number. Each reading but a
// plain delay of at most a day warns, and says what it did.
func TestCrawlDelay_OutOfRange(t *testing.T) {
	const (
		capped    = "Crawl-delay longer than a day; capped at 24 h"
		negCapped = "negative Crawl-delay whose magnitude is longer than a day; capped at 24 h"
		notNumber = "Crawl-delay is not a number of seconds; read as 10 s"
	)
	for _, c := range []struct {
		value string
		want  time.Duration
		msg   string
	}{
		{"86400", MaxDelay, ""},
		{"86401", MaxDelay, capped},
		{"999999999", MaxDelay, capped},
		{"1e400", MaxDelay, capped}, // too large for a float64
		{"Inf", MaxDelay, capped},
		{"+Infinity", MaxDelay, capped},
		{"100000000000000000000s", MaxDelay, capped},
		{"1e400 s", MaxDelay, capped},
		{"-Inf", MaxDelay, negCapped},
		{"-1e400", MaxDelay, negCapped},
		{"-86401", MaxDelay, negCapped},
		{"-2.5s", 2500 * time.Millisecond, "negative Crawl-delay; read as its magnitude"},
		{"NaN", FallbackDelay, notNumber},
		{"NaNs", FallbackDelay, notNumber},
		{"s", FallbackDelay, notNumber},
		{"1e-400", 0, ""}, // a number too small for a float64 is 0
		// A number and a unit is read in that unit, not as the 10 s of a
		// value that is not a number: "1m" is paced one minute, not 10 s.
		{"1m", time.Minute, `Crawl-delay is in seconds; "1m" read as 60 seconds`},
		{"2 min", 2 * time.Minute, `Crawl-delay is in seconds; "2 min" read as 120 seconds`},
		{"1h", time.Hour, `Crawl-delay is in seconds; "1h" read as 3600 seconds`},
		{"1.5 hours", 90 * time.Minute, `Crawl-delay is in seconds; "1.5 hours" read as 5400 seconds`},
		{"2d", MaxDelay, `Crawl-delay is in seconds; "2d" read as 172800 seconds; ` + capped},
		{"-2m", 2 * time.Minute, `Crawl-delay is in seconds; "-2m" read as -120 seconds; negative Crawl-delay; read as its magnitude`},
		{"10 sec", 10 * time.Second, ""},
		{"5 x", FallbackDelay, notNumber},
		{"1.5.2", FallbackDelay, notNumber},
		// Any other value that is not a number: the longest span written
		// in it, at least 10 s.
		{"30 seconds please", 30 * time.Second, "Crawl-delay is not a number of seconds; read as 30s (the longest time span written in it, at most 24 h)"},
		{"1,000", 1000 * time.Second, "Crawl-delay is not a number of seconds; read as 16m40s (the longest time span written in it, at most 24 h)"},
		{"about 1 min", time.Minute, "Crawl-delay is not a number of seconds; read as 1m0s (the longest time span written in it, at most 24 h)"},
		{"3 days or so", MaxDelay, "Crawl-delay is not a number of seconds; read as 24h0m0s (the longest time span written in it, at most 24 h)"},
	} {
		g := Parse([]byte("User-agent: *\nCrawl-delay: " + c.value + "\n")).Group("bot")
		if d, ok := g.CrawlDelay(); !ok || d != c.want {
			t.Errorf("Crawl-delay: %s = %v %v, want %v", c.value, d, ok, c.want)
		}
		var want []Warning
		if c.msg != "" {
			want = []Warning{{Line: 2, Text: "Crawl-delay: " + c.value, Message: c.msg}}
		}
		if got := g.Warnings(); !slices.Equal(got, want) {
			t.Errorf("Crawl-delay: %s: warnings %q, want %q", c.value, got, want)
		}
	}
}

// TestExtended1996_RequestRatePeriod covers the period of a Request-rate,
// per the 1996 extended standard:
//
//	<rate> is defined as <numdocuments> '/' <timeunit>. The default time
//	unit is the second.
//	Request-rate: <rate> <time> '-' <time>
//	A normalized rate is one document per X seconds. For example, a rate
//	of 100/24h can be normalized as: [...] 1 document every 864 seconds
//
// The period is kept as written and only the normalised interval is capped
// at MaxDelay. A period that cannot be read is one document per the count
// in seconds, at least FallbackDelay, never the count per one second; white
// space ends the rate, so a window after "1/ " is a window.
//
// Text after the count that is neither '/' and a period nor a window ("1
// per 10s", "1,000/1h", "1:10") is unreadable: one document per the
// slowest reading of the numbers in it, at least FallbackDelay.
func TestExtended1996_RequestRatePeriod(t *testing.T) {
	const line = "Request-rate: "
	for _, c := range []struct {
		value    string
		requests int
		per      time.Duration
		interval time.Duration
		window   string   // "" for none
		msgs     []string // every warning, in order
	}{
		{"100/24h", 100, 24 * time.Hour, 864 * time.Second, "", nil},
		{"100/48h", 100, 48 * time.Hour, 28*time.Minute + 48*time.Second, "", nil},
		{"3/2d", 3, 48 * time.Hour, 16 * time.Hour, "", nil},
		{"24/1d", 24, 24 * time.Hour, time.Hour, "", nil},
		{"1/2d", 1, 48 * time.Hour, MaxDelay, "", []string{
			"one document every 48h0m0s is slower than one a day; capped at one every 24 h"}},
		{"1/100000000000000000000s", 1, MaxDelay, MaxDelay, "", []string{
			"one document every more than 290 years is slower than one a day; capped at one every 24 h"}},
		{"100/", 1, 100 * time.Second, 100 * time.Second, "", []string{
			"no period after '/'; read as one document per 1m40s (the count as seconds, at least 10 s)"}},
		{"1/", 1, FallbackDelay, FallbackDelay, "", []string{
			"no period after '/'; read as one document per 10s (the count as seconds, at least 10 s)"}},
		{"100/soon", 1, 100 * time.Second, 100 * time.Second, "", []string{
			`period "soon" is neither a number nor a time unit (s, m, h, d); read as one document per 1m40s (the count as seconds, at least 10 s)`}},
		{"1/ 0600-0700", 1, FallbackDelay, FallbackDelay, "06:00-07:00", []string{
			"no period after '/' (white space ends the rate; a time window follows); read as one document per 10s (the count as seconds, at least 10 s)"}},
		{"1/ 0600 0700", 1, FallbackDelay, FallbackDelay, "06:00-07:00", []string{
			"no period after '/' (white space ends the rate; a time window follows); read as one document per 10s (the count as seconds, at least 10 s)"}},
		{"1/5.5.5", 1, 5*time.Hour + 30*time.Minute, 5*time.Hour + 30*time.Minute, "", []string{
			`period "5.5.5" is not a number and a time unit (s, m, h, d); its number 5.5 is read as hours`}},
		{"1/1e3", 1, time.Hour, time.Hour, "", []string{
			`period "1e3" is not a number and a time unit (s, m, h, d); its number 1 is read as hours`}},
		{"1/10x", 1, 10 * time.Hour, 10 * time.Hour, "", []string{`unknown time unit "x"; read as hours`}},
		{"1/ 10m", 1, 10 * time.Minute, 10 * time.Minute, "", nil},
		{"1/ 60", 1, time.Minute, time.Minute, "", nil},
		{"100/h", 100, time.Hour, 36 * time.Second, "", nil},
		{"2/ 3 hours 0100-0200", 2, 3 * time.Hour, 90 * time.Minute, "01:00-02:00", nil},
		{"100000000000/1s", 1e9, time.Second, time.Nanosecond, "", []string{
			"more than 10^9 documents per period; read as 10^9"}},
		// Text after the count that is not '/' and a period: at least
		// FallbackDelay, and never faster than any reading of its numbers
		// ("1 per 10s" is not one per second, nor "1,000/1h").
		{"1 per 10s", 1, 10 * time.Second, 10 * time.Second, "", []string{
			`"per 10s" after the count is not '/' and a period; read as one document per 10s (the slowest reading of its numbers, at least 10 s)`}},
		{"1 per 30 seconds", 1, 30 * time.Second, 30 * time.Second, "", []string{
			`"per 30 seconds" after the count is not '/' and a period; read as one document per 30s (the slowest reading of its numbers, at least 10 s)`}},
		{"2 per minute", 1, 30 * time.Second, 30 * time.Second, "", []string{
			`"per minute" after the count is not '/' and a period; read as one document per 30s (the slowest reading of its numbers, at least 10 s)`}},
		{"1,000/1h", 1, time.Hour, time.Hour, "", []string{
			`",000/1h" after the count is not '/' and a period; read as one document per 1h0m0s (the slowest reading of its numbers, at least 10 s)`}},
		{"1e3/1h", 1, time.Hour, time.Hour, "", []string{
			`"e3/1h" after the count is not '/' and a period; read as one document per 1h0m0s (the slowest reading of its numbers, at least 10 s)`}},
		{"1:10", 1, FallbackDelay, FallbackDelay, "", []string{
			`":10" after the count is not '/' and a period; read as one document per 10s (the slowest reading of its numbers, at least 10 s)`}},
		{"1:30", 1, 30 * time.Second, 30 * time.Second, "", []string{
			`":30" after the count is not '/' and a period; read as one document per 30s (the slowest reading of its numbers, at least 10 s)`}},
		{"1m", 1, time.Minute, time.Minute, "", []string{
			`"m" after the count is not '/' and a period; read as one document per 1m0s (the slowest reading of its numbers, at least 10 s)`}},
		{"1 x", 1, FallbackDelay, FallbackDelay, "", []string{
			`"x" after the count is not '/' and a period; read as one document per 10s (the slowest reading of its numbers, at least 10 s)`}},
		{"100 per 1h", 1, 100 * time.Second, 100 * time.Second, "", []string{
			`"per 1h" after the count is not '/' and a period; read as one document per 1m40s (the slowest reading of its numbers, at least 10 s)`}},
		{"0.5 per 10s", 1, 20 * time.Second, 20 * time.Second, "", []string{
			`"per 10s" after the count is not '/' and a period; read as one document per 20s (the slowest reading of its numbers, at least 10 s)`}},
		{"1 per 3d", 1, 72 * time.Hour, MaxDelay, "", []string{
			`"per 3d" after the count is not '/' and a period; read as one document per 72h0m0s (the slowest reading of its numbers, at least 10 s)`,
			"one document every 72h0m0s is slower than one a day; capped at one every 24 h"}},
		// A count alone, or with a window, is the count in seconds.
		{"5", 1, 5 * time.Second, 5 * time.Second, "", []string{"no period; read as one document per that many seconds"}},
		{"20 0600-0700", 1, 20 * time.Second, 20 * time.Second, "06:00-07:00", []string{"no period; read as one document per that many seconds"}},
		// 4,000,000 h does not fit a Duration; one every 20 h does.
		{"200000/4000000h", 1, 20 * time.Hour, 20 * time.Hour, "", nil},
	} {
		rates := Parse([]byte("User-agent: *\n" + line + c.value + "\n")).Group("bot").RequestRates()
		if len(rates) != 1 {
			t.Errorf("%q: %d rates", c.value, len(rates))
			continue
		}
		r := rates[0]
		window := ""
		if r.Windowed {
			window = r.Window.String()
		}
		if r.Requests != c.requests || r.Per != c.per || r.Interval() != c.interval || window != c.window || r.Malformed != (len(c.msgs) > 0) {
			t.Errorf("%q: got %d/%v interval %v window %q malformed %v, want %d/%v interval %v window %q",
				c.value, r.Requests, r.Per, r.Interval(), window, r.Malformed, c.requests, c.per, c.interval, c.window)
		}
		var want []Warning
		for _, m := range c.msgs {
			want = append(want, Warning{Line: 2, Text: line + c.value, Message: m})
		}
		if got := Parse([]byte("User-agent: *\n" + line + c.value + "\n")).Warnings(); !slices.Equal(got, want) {
			t.Errorf("%q: warnings\n%q\nwant\n%q", c.value, got, want)
		}
	}
}

// TestVisitTimeBounded: a hostile Visit-time line of thousands of windows
// keeps MaxVisitWindows of them, with a warning, and its text once, cut to
// 200 octets: the windows are kept with the host's record in a crawler's
// frontier and written at every request.
func TestVisitTimeBounded(t *testing.T) {
	line := "Visit-time: " + strings.Repeat("0000-2359,", 3000)
	r := Parse([]byte("User-agent: *\n" + line + "\n"))
	ws := r.Group("bot").VisitTimes()
	if len(ws) != MaxVisitWindows {
		t.Fatalf("%d windows, want %d", len(ws), MaxVisitWindows)
	}
	if len(ws[0].Text) > 203 || !strings.HasPrefix(ws[0].Text, "Visit-time: 0000-2359,") || !strings.HasSuffix(ws[0].Text, "...") {
		t.Errorf("first window's text %d octets: %.40q", len(ws[0].Text), ws[0].Text)
	}
	for _, w := range ws[1:] {
		if w.Text != "" || w.Line != 2 {
			t.Fatalf("window %+v: want line 2 and no text of its own", w)
		}
	}
	if w := r.Warnings(); len(w) != 1 || !strings.Contains(w[0].Message, "more than 24 Visit-time windows") {
		t.Errorf("warnings %v", w)
	}
	rate := Parse([]byte("User-agent: *\nRequest-rate: 1/5s" + strings.Repeat(" ", 1000) + "x\n")).Group("bot").RequestRates()
	if len(rate) != 1 {
		t.Fatalf("rates %v: want the long line read as one (slowest reading)", rate)
	}
	for _, rr := range rate {
		if len(rr.Text) > 203 {
			t.Errorf("Request-rate text %d octets, want at most 200 and \"...\"", len(rr.Text))
		}
	}
}
