package report

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/crawllog"
)

// processDir writes the output directory of one process of a distributed
// crawl: its summary, and a request to a.test at each of times.
func processDir(t *testing.T, s crawllog.Summary, times ...int) string {
	t.Helper()
	dir := t.TempDir()
	s.Out = dir
	writeLines(t, dir, SummaryFile, []crawllog.Summary{s})
	var reqs []crawllog.CrawlEntry
	for _, sec := range times {
		reqs = append(reqs, crawllog.CrawlEntry{Time: at(float64(sec)), URL: "http://a.test/" + filepath.Base(dir) + "/" + strconv.Itoa(sec),
			Host: "a.test", Kind: "page", Status: 200, PaceSeconds: 1, PaceRule: "crawl-delay"})
	}
	writeLines(t, dir, CrawlFile, reqs)
	writeLines(t, dir, SkipsFile, []crawllog.SkipEntry{{Time: at(float64(times[0])), URL: "http://a.test/private/" + filepath.Base(dir), Host: "a.test", Reason: "robots-disallowed"}})
	writeLines(t, dir, RobotsFile, []crawllog.RobotsEntry{{Time: at(float64(times[0] - 1)), Host: "a.test", URL: "http://a.test/robots.txt", Status: 200, Outcome: "success"}})
	return dir
}

// TestMergeSummaries: the work of each process is summed, runs listed
// by start, and the frontier's state at the end is the summary that
// finished last's.
func TestMergeSummaries(t *testing.T) {
	a := crawllog.Summary{Started: at(0), Finished: at(100), Out: "a", ExitCode: 0,
		Totals:      crawllog.Totals{Fetched: 3, RobotsFetches: 1, Skipped: 2, Errors: 1, DuplicateLinks: 5, Queued: 9, DeferredHosts: 1},
		SkipReasons: map[string]int{"robots-disallowed": 2},
		Runs:        []crawllog.RunSummary{{Started: at(0), Mode: crawllog.ModeCrawl, Fetched: 3}},
		Hosts: []crawllog.HostSummary{{Host: "a.test", State: "waiting", Fetched: 3, PagesByStatus: map[string]int{"200": 3}, Queued: 9,
			Events: []crawllog.HostEvent{{Time: at(50), Kind: "backoff"}}}},
	}
	b := crawllog.Summary{Started: at(5), Finished: at(120), Out: "b", ExitCode: 3, Interrupted: true,
		Totals:      crawllog.Totals{Fetched: 4, Skipped: 1, Queued: 0, DroppedHosts: 1},
		SkipReasons: map[string]int{"robots-disallowed": 1},
		Runs:        []crawllog.RunSummary{{Started: at(5), Mode: crawllog.ModeCrawl, Fetched: 4}},
		Hosts: []crawllog.HostSummary{
			{Host: "b.test", State: "dropped", Fetched: 1, PagesByStatus: map[string]int{"200": 1}},
			{Host: "a.test", State: "done", Fetched: 3, PagesByStatus: map[string]int{"200": 2, "404": 1},
				Events: []crawllog.HostEvent{{Time: at(20), Kind: "parked"}}},
		},
	}
	m := mergeSummaries([]crawllog.Summary{b, a})
	want := crawllog.Totals{Fetched: 7, RobotsFetches: 1, Skipped: 3, Errors: 1, DuplicateLinks: 5, Queued: 0, DroppedHosts: 1}
	if m.Totals != want {
		t.Errorf("totals %+v, want %+v", m.Totals, want)
	}
	if !m.Started.Equal(at(0)) || !m.Finished.Equal(at(120)) || m.ExitCode != 3 || !m.Interrupted || m.Out != "a, b" {
		t.Errorf("started %v finished %v exit %d interrupted %v out %q", m.Started, m.Finished, m.ExitCode, m.Interrupted, m.Out)
	}
	if m.SkipReasons["robots-disallowed"] != 3 || len(m.Runs) != 2 || !m.Runs[0].Started.Equal(at(0)) {
		t.Errorf("skip reasons %v, runs %+v", m.SkipReasons, m.Runs)
	}
	if len(m.Hosts) != 2 || m.Hosts[0].Host != "a.test" || m.Hosts[1].Host != "b.test" {
		t.Fatalf("hosts %+v", m.Hosts)
	}
	h := m.Hosts[0]
	if h.Fetched != 6 || h.PagesByStatus["200"] != 5 || h.PagesByStatus["404"] != 1 || h.State != "done" || h.Queued != 0 ||
		len(h.Events) != 2 || h.Events[0].Kind != "parked" {
		t.Errorf("a.test merged: %+v", h)
	}
	if a.Hosts[0].PagesByStatus["200"] != 3 {
		t.Error("mergeSummaries changed a summary it was given")
	}
}

// TestReadDirsMergesLogsByTime: the requests, skips and robots.txt
// fetches of several directories are read merged by time, and a file
// missing in one of them is noted with its path.
func TestReadDirsMergesLogsByTime(t *testing.T) {
	a := processDir(t, crawllog.Summary{Started: at(0), Finished: at(60)}, 1, 4, 7)
	b := processDir(t, crawllog.Summary{Started: at(1), Finished: at(61)}, 2, 3, 8, 9)
	os.Remove(filepath.Join(b, RobotsFile))
	in, err := readDirs(outDirs{a, b}, defaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	var secs []int
	for _, r := range in.requests {
		secs = append(secs, int(r.Time.Sub(t0).Seconds()))
	}
	if !slices.Equal(secs, []int{1, 2, 3, 4, 7, 8, 9}) {
		t.Errorf("requests at %v, want both directories' merged by time", secs)
	}
	if len(in.skips) != 2 || !in.skips[0].Time.Before(in.skips[1].Time) || len(in.robots) != 1 {
		t.Errorf("skips %+v, robots %+v", in.skips, in.robots)
	}
	if !slices.ContainsFunc(in.notes, func(n string) bool {
		return strings.HasPrefix(n, filepath.Join(b, RobotsFile)+" is missing")
	}) {
		t.Errorf("notes %q, want the missing robots.jsonl named by its path", in.notes)
	}
}

// TestWriteDirs: several directories make one report, written to the
// file given; one directory makes the very page Write makes.
func TestWriteDirs(t *testing.T) {
	a := processDir(t, crawllog.Summary{Started: at(0), Finished: at(60)}, 1, 4)
	b := processDir(t, crawllog.Summary{Started: at(1), Finished: at(61)}, 2, 3)
	to := filepath.Join(t.TempDir(), "all.html")
	if err := WriteDirs([]string{a, b}, to); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(to)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), a+", "+b) {
		t.Error("the report does not name both output directories")
	}
	if err := WriteDirs([]string{a, filepath.Join(t.TempDir(), "none")}, to); err == nil {
		t.Error("a directory without summary.json was taken")
	}
	dir := copyFixture(t, "demo")
	if err := Write(dir); err != nil {
		t.Fatal(err)
	}
	one := filepath.Join(t.TempDir(), "one.html")
	if err := WriteDirs([]string{dir}, one); err != nil {
		t.Fatal(err)
	}
	w, _ := os.ReadFile(filepath.Join(dir, ReportFile))
	d, _ := os.ReadFile(one)
	if !bytes.Equal(w, d) {
		t.Error("WriteDirs of one directory differs from Write")
	}
}
