package report

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/robots"
)

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

func at(sec float64) time.Time { return t0.Add(time.Duration(sec * float64(time.Second))) }

func TestTimelineGapsAgainstInterval(t *testing.T) {
	tests := []struct {
		name      string
		times     []float64
		pace      float64
		wantShort int
	}{
		{"gaps equal to the interval", []float64{0, 1, 2, 3}, 1, 0},
		{"within 1% tolerance", []float64{0, 0.995, 1.99}, 1, 0},
		{"one gap too short", []float64{0, 1, 1.5, 2.5}, 1, 1},
		{"all too short", []float64{0, 0.1, 0.2}, 1, 2},
		{"5ms tolerance for tiny intervals", []float64{0, 0.196}, 0.2, 0},
		{"no interval recorded", []float64{0, 0.001}, 0, 0},
		{"unsorted input is sorted first", []float64{2, 0, 1}, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var reqs []request
			for _, s := range tt.times {
				reqs = append(reqs, request{Time: at(s), Kind: "page", Status: 200, PaceSeconds: tt.pace, PaceRule: "rule"})
			}
			tl := buildTimeline(newSpan(t0, at(5)), reqs, nil, nil, tlMaxMark)
			if tl.Short != tt.wantShort {
				t.Errorf("Short = %d, want %d", tl.Short, tt.wantShort)
			}
			short := 0
			for _, g := range tl.Gaps {
				if g.Short {
					short++
				}
				if g.X2 < g.X1 {
					t.Errorf("gap drawn backwards: %v", g)
				}
			}
			if short != tt.wantShort || len(tl.Gaps) != len(tt.times)-1 || len(tl.Marks) != len(tt.times) {
				t.Errorf("%d gaps (%d short), %d marks", len(tl.Gaps), short, len(tl.Marks))
			}
		})
	}
}

func TestTimelineMarksBandsEvents(t *testing.T) {
	span := newSpan(t0, at(10))
	reqs := []request{
		{Time: at(0), Kind: "robots", Status: 200, URL: "http://h/robots.txt"},
		{Time: at(1), Kind: "page", Status: 429, URL: "http://h/busy", PaceSeconds: 1, PaceRule: "crawl-delay 1s (line 3)"},
		{Time: at(4), Kind: "page", Status: 200, URL: "http://h/busy", PaceSeconds: 3, PaceRule: "retry-after 3s"},
	}
	until := at(4)
	events := []event{{Time: at(1), Kind: "retry-after", Until: &until, Detail: "429"}}
	tl := buildTimeline(span, reqs, nil, events, tlMaxMark)
	if !tl.Marks[0].Robots || tl.Marks[0].Points == "" || tl.Marks[1].Robots {
		t.Errorf("robots.txt mark not distinct: %+v", tl.Marks[:2])
	}
	if tl.Marks[1].Class != "s4" || tl.Marks[2].Class != "s2" {
		t.Errorf("status classes %q %q", tl.Marks[1].Class, tl.Marks[2].Class)
	}
	if len(tl.Bands) != 3 {
		t.Fatalf("%d bands, want 3", len(tl.Bands))
	}
	// Each band is the interval the next request is checked against: after
	// robots.txt at 0s the 1s crawl-delay (0s to 1s), after the 429 at 1s
	// the 3s retry-after (1s to 4s); the last request keeps its own 3s.
	for i, want := range [][2]float64{{0, 1}, {1, 4}, {4, 7}} {
		b := tl.Bands[i]
		if b.X != span.x(at(want[0])) || b.W != round2(span.x(at(want[1]))-span.x(at(want[0]))) {
			t.Errorf("band %d %+v, want from %v to %v", i, b, span.x(at(want[0])), span.x(at(want[1])))
		}
	}
	if !strings.Contains(tl.Marks[1].Title, "429") || !strings.Contains(tl.Bands[0].Title, "crawl-delay 1s (line 3)") ||
		!strings.Contains(tl.Bands[1].Title, "retry-after 3s") {
		t.Errorf("titles do not explain: %q / %q / %q", tl.Marks[1].Title, tl.Bands[0].Title, tl.Bands[1].Title)
	}
	if len(tl.Events) != 1 || tl.Events[0].Span == nil || tl.Events[0].Span.X != span.x(at(1)) {
		t.Errorf("event not drawn from its time to its until: %+v", tl.Events)
	}
}

// TestTimelineBandAfterRobotsAgreesWithGap: a robots.txt request is logged
// with the pace in force before the file was read (the 10s default); the
// pages after it run at the file's 11ms. The band after robots.txt must be
// the 11ms the next gap is judged against, not a 10s band the pages sit in.
func TestTimelineBandAfterRobotsAgreesWithGap(t *testing.T) {
	const def, delay = 10.0, 0.011
	reqs := []request{{Time: at(0), Kind: "robots", Status: 200, URL: "http://h/robots.txt", PaceSeconds: def, PaceRule: "default 10s (1996 rule of thumb)"}}
	for i := range 5 {
		reqs = append(reqs, request{Time: at(0.015 + float64(i)*delay), Kind: "page", Status: 200, PaceSeconds: delay, PaceRule: "crawl-delay 11ms (line 3)"})
	}
	span := newSpan(t0, at(1))
	tl := buildTimeline(span, reqs, nil, nil, tlMaxMark)
	if tl.Short != 0 || len(tl.Bands) != len(reqs) {
		t.Fatalf("%d short gaps, %d bands; want 0 and %d", tl.Short, len(tl.Bands), len(reqs))
	}
	for i, b := range tl.Bands {
		end := reqs[i].Time.Add(time.Duration(delay * float64(time.Second)))
		if want := round2(math.Max(span.x(end)-span.x(reqs[i].Time), 0.5)); b.W != want {
			t.Errorf("band %d is %v wide, want %v (the 11ms in force for the next request)", i, b.W, want)
		}
		if strings.Contains(b.Title, "10s") || !strings.Contains(b.Title, "crawl-delay 11ms (line 3)") {
			t.Errorf("band %d title %q, want the 11ms crawl-delay", i, b.Title)
		}
	}
	for i, g := range tl.Gaps {
		if !strings.Contains(g.Title, "11ms in force") {
			t.Errorf("gap %d title %q disagrees with the band", i, g.Title)
		}
	}
}

// TestMarksPerHostShareABudget: up to 20 hosts with requests draw 3000
// each; more share 60,000, down to 200 each.
func TestMarksPerHostShareABudget(t *testing.T) {
	for hosts, want := range map[int]int{0: 3000, 1: 3000, 20: 3000, 21: 2857, 50: 1200, 300: 200, 1000: 200} {
		if got := marksPerHost(hosts); got != want {
			t.Errorf("marksPerHost(%d) = %d, want %d", hosts, got, want)
		}
	}
	reqs := make([]request, 300)
	for i := range reqs {
		reqs[i] = request{Time: at(float64(i)), Kind: "page", Status: 200, PaceSeconds: 2}
	}
	tl := buildTimeline(newSpan(t0, at(300)), reqs, nil, nil, 200)
	if len(tl.Marks) != 200 || len(tl.Gaps) != 199 || tl.Omitted != 100 || tl.Short != 299 {
		t.Errorf("%d marks, %d gaps, %d omitted, %d short; want 200 drawn, 100 counted, every gap short", len(tl.Marks), len(tl.Gaps), tl.Omitted, tl.Short)
	}
}

func TestTimelineCapsMarks(t *testing.T) {
	reqs := make([]request, tlMaxMark+5)
	for i := range reqs {
		reqs[i] = request{Time: at(float64(i)), Kind: "page", Status: 200}
	}
	tl := buildTimeline(newSpan(t0, at(float64(len(reqs)))), reqs, nil, nil, tlMaxMark)
	if len(tl.Marks) != tlMaxMark || tl.Omitted != 5 || tl.Requests != len(reqs) {
		t.Errorf("%d marks, %d omitted", len(tl.Marks), tl.Omitted)
	}
}

// TestVisitTimeShading follows the 1996 extended standard: windows are UTC
// and may wrap past midnight.
func TestExtended1996VisitTimeShading(t *testing.T) {
	span := timeSpan{start: time.Date(2026, 11, 21, 22, 30, 0, 0, time.UTC), end: time.Date(2026, 11, 22, 1, 30, 0, 0, time.UTC)}
	tests := []struct {
		name string
		w    robots.Window
		want [][2]string
	}{
		{"wrapping window inside the span", robots.Window{From: 23 * 60, To: 59}, [][2]string{{"23:00", "01:00"}}},
		{"open at the start", robots.Window{From: 22 * 60, To: 22*60 + 59}, [][2]string{{"22:30", "23:00"}}},
		{"open past the end", robots.Window{From: 60, To: 120}, [][2]string{{"01:00", "01:30"}}},
		{"closed throughout", robots.Window{From: 3 * 60, To: 5 * 60}, nil},
		{"always open", robots.Window{From: 0, To: 24*60 - 1}, [][2]string{{"22:30", "00:00"}, {"00:00", "01:30"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := occurrences(tt.w, span)
			if len(got) != len(tt.want) {
				t.Fatalf("occurrences = %v, want %v", got, tt.want)
			}
			for i, iv := range got {
				if iv[0].Format("15:04") != tt.want[i][0] || iv[1].Format("15:04") != tt.want[i][1] {
					t.Errorf("occurrence %d = %s-%s, want %s-%s", i, iv[0].Format("15:04"), iv[1].Format("15:04"), tt.want[i][0], tt.want[i][1])
				}
			}
		})
	}
}

func TestTicks(t *testing.T) {
	tests := []struct {
		name      string
		span      time.Duration
		wantFirst string
		maxTicks  int
	}{
		{"seconds", 10 * time.Second, "10:00:02", 8},
		{"minutes", 20 * time.Minute, "10:05", 8},
		{"days", 72 * time.Hour, "Nov 21 12:00", 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := ticks(timeSpan{start: t0.Add(time.Millisecond), end: t0.Add(tt.span)})
			if len(ts) == 0 || len(ts) > tt.maxTicks {
				t.Fatalf("%d ticks", len(ts))
			}
			if ts[0].Label != tt.wantFirst {
				t.Errorf("first tick %q, want %q", ts[0].Label, tt.wantFirst)
			}
			for i := 1; i < len(ts); i++ {
				if ts[i].X <= ts[i-1].X {
					t.Errorf("ticks not increasing: %v", ts)
				}
			}
		})
	}
}

func TestSpanClampsAndPads(t *testing.T) {
	s := newSpan(t0, t0) // empty crawl: widened to a second
	if !s.end.After(s.start) {
		t.Fatal("empty span")
	}
	if x := s.x(t0.Add(-time.Hour)); x != tlPadL {
		t.Errorf("before the span: x = %v, want %v", x, tlPadL)
	}
	if x := s.x(t0.Add(time.Hour)); x != tlWidth-tlPadR {
		t.Errorf("after the span: x = %v, want %v", x, tlWidth-tlPadR)
	}
}

// TestTimelineLabelIsTheHostsOwn: the label tells the host's first and
// last request, not the shared (padded, multi-run) span as a duration.
func TestTimelineLabelIsTheHostsOwn(t *testing.T) {
	span := newSpan(t0, at(86400+60)) // a dry run today, a crawl tomorrow
	tests := []struct {
		times []float64
		want  string
	}{
		{nil, "No request"},
		{[]float64{1.5}, "1 request, at 10:00:01.500 UTC"},
		{[]float64{1, 3.25}, "2 requests from 10:00:01.000 to 10:00:03.250 UTC (2.25s)"},
		{[]float64{1, 86401}, "2 requests from 2026-11-21 10:00:01.000 to 2026-11-22 10:00:01.000 UTC (24h)"},
	}
	for _, tt := range tests {
		var reqs []request
		for _, s := range tt.times {
			reqs = append(reqs, request{Time: at(s), Kind: "page", Status: 200})
		}
		if got := buildTimeline(span, reqs, nil, nil, tlMaxMark).Label; got != tt.want {
			t.Errorf("label %q, want %q", got, tt.want)
		}
	}
}

// TestReportOfManyBusyHostsSharesMarks: in a report of 30 hosts with 2100
// requests each, each timeline draws its share of the budget (2000) and
// counts the rest.
func TestReportOfManyBusyHostsSharesMarks(t *testing.T) {
	in := &input{summary: summary{Started: t0, Finished: at(3000)}}
	for h := range 30 {
		host := fmt.Sprintf("http://h%d.test:80", h)
		for i := range 2100 {
			in.requests = append(in.requests, request{Time: at(float64(i)), Host: host, URL: host + "/p", Kind: "page", Status: 200})
		}
	}
	v := buildView(in, "")
	if len(v.Hosts) != 30 {
		t.Fatalf("%d hosts", len(v.Hosts))
	}
	for _, hv := range v.Hosts {
		if tl := hv.Timeline; len(tl.Marks) != 2000 || tl.Omitted != 100 || tl.Requests != 2100 {
			t.Fatalf("%s: %d marks, %d omitted of %d; want 2000 drawn, 100 counted", hv.Host, len(tl.Marks), tl.Omitted, tl.Requests)
		}
	}
}
