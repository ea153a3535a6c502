package main

import (
	"bytes"
	"os"
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
// only the pages it had in flight (runScale checks both). Under the race
// detector, which multiplies memory and time, the web is 600 pages of
// 20 hosts and the memory bound is not checked.
func TestShortScale(t *testing.T) {
	hosts, total := 500, 20_000
	if raceEnabled {
		hosts, total = 20, 600
	}
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
	if rss := res.Crawl[0].Child.PeakRSS; !raceEnabled && rss > shortModeRSS {
		t.Errorf("crawl process peak RSS %s, want at most %s", mib(rss), mib(shortModeRSS))
	}
}
