package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestRunTimesSumRuns: a dry run today and a crawl tomorrow ran for the
// sum of their own durations, not the day between them.
func TestRunTimesSumRuns(t *testing.T) {
	ptr := func(v time.Time) *time.Time { return &v }
	tests := []struct {
		name            string
		runs            []runSummary
		reqs            []request
		wantTook, wantS string
		wantRows        int
	}{
		{"dry run, 9s pause, crawl",
			[]runSummary{{Started: at(0), Finished: ptr(at(0.03)), Mode: "dry-run"}, {Started: at(9), Finished: ptr(at(30)), Mode: "crawl", Fetched: 12}},
			nil, "21.03s", "2 runs over 2026-11-21 10:00:00–10:00:30 UTC", 2},
		{"dry run today, crawl tomorrow",
			[]runSummary{{Started: at(0), Finished: ptr(at(1)), Mode: "dry-run"}, {Started: at(86400), Finished: ptr(at(86460)), Mode: "crawl"}},
			nil, "1m 1s", "2 runs over 2026-11-21 10:00:00 – 2026-11-22 10:01:00 UTC", 2},
		{"one run",
			[]runSummary{{Started: at(0), Finished: ptr(at(5)), Mode: "crawl"}},
			nil, "5s", "", 0},
		{"killed run counted to its last request",
			[]runSummary{{Started: at(0), Mode: "crawl"}, {Started: at(100), Finished: ptr(at(110)), Mode: "crawl"}},
			[]request{{Time: at(3)}, {Time: at(8)}, {Time: at(105)}}, "at least 18s", "2 runs over 2026-11-21 10:00:00–10:01:50 UTC", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			last := tt.runs[len(tt.runs)-1]
			in := &input{summary: summary{Started: tt.runs[0].Started, Finished: last.Started.Add(time.Minute), Runs: tt.runs}, requests: tt.reqs}
			if last.Finished != nil {
				in.summary.Finished = *last.Finished
			}
			took, span, rows := runTimes(in)
			if took != tt.wantTook || span != tt.wantS || len(rows) != tt.wantRows {
				t.Errorf("runTimes = %q, %q, %d rows; want %q, %q, %d rows", took, span, len(rows), tt.wantTook, tt.wantS, tt.wantRows)
			}
			o := buildOverview(in, crawlSpan(in), nil)
			if o.Duration != tt.wantTook {
				t.Errorf("overview Duration %q, want %q", o.Duration, tt.wantTook)
			}
		})
	}
}

// TestWriteRanIsRunTime renders a resumed crawl: the header and the Run
// table say how long the runs took, and when, not first start to last end.
func TestWriteRanIsRunTime(t *testing.T) {
	dir := copyFixture(t, "demo")
	in, err := readInput(dir)
	if err != nil {
		t.Fatal(err)
	}
	fin0, fin1 := in.summary.Started.Add(2*time.Second), in.summary.Started.Add(26*time.Hour+5*time.Second)
	in.summary.Runs = []runSummary{
		{Started: in.summary.Started, Finished: &fin0, Mode: "dry-run"},
		{Started: in.summary.Started.Add(26 * time.Hour), Finished: &fin1, Mode: "crawl", Fetched: 7},
	}
	in.summary.Finished = fin1
	v := buildView(in, "")
	var b bytes.Buffer
	if err := render(&b, in); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if v.Overview.Duration != "7s" || !strings.Contains(page, " · ran 7s (2 runs over ") {
		t.Errorf("ran %q, want 7s in the header", v.Overview.Duration)
	}
	if strings.Contains(page, "26h") {
		t.Error("the page still counts the day between the runs as crawl time")
	}
	if !strings.Contains(page, "crawl "+fmtTime(in.summary.Runs[1].Started)+", 5s, 7 page(s)") {
		t.Error("the Run table does not list the runs")
	}
}
