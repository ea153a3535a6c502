package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
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
// 74 MiB (a million pages of 10,000 hosts: 363 MiB, under the 512 MiB
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
