package main

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestMain runs the measured part a benchmark child process is started
// for (the test binary stands in for crawlbench), or the tests.
func TestMain(m *testing.M) {
	if ran, status := childFromEnv(); ran {
		os.Exit(status)
	}
	os.Exit(m.Run())
}

// shortModeRSS is the peak RSS allowed to the crawl process (crawl and
// report.html) of the short mode, 20,000 pages of 500 hosts: it measured
// 74 MiB (a million pages of 10,000 hosts: 406–413 MiB, under the 512 MiB
// the full benchmark must keep to).
const shortModeRSS = 128 << 20

// TestShortScale runs the scale benchmark in its short mode: the crawl of
// 20,000 pages of 500 hosts, archive on, keeps its process under
// shortModeRSS; its WARC files hold every page once; and a crawl killed
// with SIGKILL at half way and resumed loses no page and fetches again
// only the pages it had in flight (runScale checks both). The race
// detector multiplies memory and time, so a test binary built with it
// builds one without and runs this test there: the bound is checked in
// every run of the suite.
func TestShortScale(t *testing.T) {
	if raceEnabled {
		runWithoutRace(t, "TestShortScale")
		return
	}
	hosts, total := 500, 20_000
	var log bytes.Buffer
	res, err := runScale(scaleOptions{Hosts: hosts, Total: total, Workers: 16, Rounds: 1, Resume: true, Log: &log, Stderr: os.Stderr})
	t.Log("\n" + log.String())
	if err != nil {
		t.Fatal(err)
	}
	if res.WARC.Missing+res.WARC.Twice+res.WARC.More+res.WARC.Other != 0 {
		t.Errorf("uninterrupted crawl: WARC %v, want every page once", res.WARC)
	}
	if res.ResumeWARC.Missing+res.ResumeWARC.More+res.ResumeWARC.Other != 0 {
		t.Errorf("killed and resumed crawl: WARC %v, want every page at least once and none three times", res.ResumeWARC)
	}
	if res.Resumed.Queued != 0 || res.Resumed.Interrupted {
		t.Errorf("resumed crawl ended with %d URLs queued (interrupted %v), want the frontier drained", res.Resumed.Queued, res.Resumed.Interrupted)
	}
	if rss := res.Crawl[0].Child.PeakRSS; rss > shortModeRSS {
		t.Errorf("crawl process peak RSS %s, want at most %s", mib(rss), mib(shortModeRSS))
	}
}

// runWithoutRace builds this package's test binary without the race
// detector and runs the test named there, failing t if it fails.
func runWithoutRace(t *testing.T, test string) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "crawlbench.test")
	build := exec.Command("go", "test", "-c", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the test binary without -race: %v\n%s", err, out)
	}
	run := exec.Command(bin, "-test.run", "^"+test+"$", "-test.v", "-test.count", "1")
	out, err := run.CombinedOutput()
	t.Logf("%s without the race detector:\n%s", test, out)
	if err != nil {
		t.Fatalf("%s without the race detector: %v", test, err)
	}
}

// TestFiguresByTenth: 20 pages, one every 100 ms from the process start
// for the first half and one every 200 ms after: each tenth of 2 pages
// took 200 ms (10 pages/s) in the first half and 400 ms (5 pages/s)
// after; the first and last tenth are the first and last of them.
func TestFiguresByTenth(t *testing.T) {
	start := time.Unix(100, 0)
	var times []int64
	at := start
	for i := range 20 {
		step := 100 * time.Millisecond
		if i >= 10 {
			step = 200 * time.Millisecond
		}
		at = at.Add(step)
		times = append(times, at.UnixNano())
	}
	f := figures("x", times, start)
	want := []float64{10, 10, 10, 10, 10, 5, 5, 5, 5, 5}
	if len(f.Tenths) != len(want) {
		t.Fatalf("tenths %v, want %v", f.Tenths, want)
	}
	for i := range want {
		if math.Abs(f.Tenths[i]-want[i]) > 1e-9 {
			t.Errorf("tenths %v, want %v", f.Tenths, want)
			break
		}
	}
	if f.FirstPPS != 10 || math.Abs(f.LastPPS-5) > 1e-9 {
		t.Errorf("first %v last %v, want 10 and 5", f.FirstPPS, f.LastPPS)
	}
}
