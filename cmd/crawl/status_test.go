package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

var statusNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// sampleStatus is a frontier status as the shared frontier would give it.
func sampleStatus() frontierStatus {
	return frontierStatus{Queued: 1200, Leased: 16, Done: 5678,
		Hosts: hostCounts{Total: 120, Parked: 3, BackingOff: 2, Deferred: 1},
		Processes: []processStatus{
			{ID: "w1-4242-a1b2c3", Host: "w1", PID: 4242, Out: "/data/out1", Pages: 3000,
				Started: statusNow.Add(-time.Hour), LastSeen: statusNow.Add(-2 * time.Second)},
			{ID: "w2-77-ffffff", Host: "w2", PID: 77, Out: "/data/out2", Pages: 2678,
				Started: statusNow.Add(-time.Hour), LastSeen: statusNow.Add(-125 * time.Second)},
		}}
}

// TestPrintStatus: the text form names the frontier as given (redacted
// by the caller), the URL and host counts, and a line per process with
// its pages, last heartbeat and output directory.
func TestPrintStatus(t *testing.T) {
	var b bytes.Buffer
	if err := printStatus(&b, "redis://crawl:xxxxx@127.0.0.1:6379/0", sampleStatus(), statusNow); err != nil {
		t.Fatal(err)
	}
	want := `Frontier redis://crawl:xxxxx@127.0.0.1:6379/0
  URLs:  1200 queued, 16 leased, 5678 done
  hosts: 120 (3 parked, 2 backing off, 1 deferred, 0 given up)
  processes: 2
    PROCESS         PAGES  LAST HEARTBEAT  OUT
    w1-4242-a1b2c3  3000   2s ago          /data/out1
    w2-77-ffffff    2678   2m5s ago        /data/out2
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	printStatus(&b, "redis://h:6379/0", frontierStatus{}, statusNow)
	if !strings.Contains(b.String(), "processes: none has reported") {
		t.Errorf("no process: %s", b.String())
	}
}

// TestPrintStatusJSON: the JSON form has every count under snake_case
// names and times in UTC.
func TestPrintStatusJSON(t *testing.T) {
	st := sampleStatus()
	st.Processes[0].LastSeen = st.Processes[0].LastSeen.In(time.FixedZone("X", 3600))
	var b bytes.Buffer
	if err := printStatusJSON(&b, st); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	hosts := got["hosts"].(map[string]any)
	procs := got["processes"].([]any)
	p := procs[0].(map[string]any)
	if got["queued"] != 1200.0 || got["leased"] != 16.0 || got["done"] != 5678.0 || hosts["backing_off"] != 2.0 ||
		len(procs) != 2 || p["pages"] != 3000.0 || p["last_seen"] != "2026-11-30T11:59:58Z" || p["id"] != "w1-4242-a1b2c3" {
		t.Errorf("JSON:\n%s", b.String())
	}
	if st.Processes[0].LastSeen.Location().String() != "X" {
		t.Error("printStatusJSON changed the status it was given")
	}
}

// TestStatusCommand: the URL comes from --frontier or CRAWL_FRONTIER_URL
// and is checked as config; without one, or without a frontier to ask,
// the command says so; the frontier's answer is printed with the URL
// redacted.
func TestStatusCommand(t *testing.T) {
	run := func(status statusFunc, args ...string) (string, error) {
		return runCommand(newStatusCommand(status), args...)
	}
	if _, err := run(nil); err == nil || !strings.Contains(err.Error(), "give --frontier URL") {
		t.Errorf("no URL: %v", err)
	}
	if _, err := run(nil, "--frontier", "http://h:6379/0"); err == nil || !strings.Contains(err.Error(), "frontier.url") {
		t.Errorf("bad URL: %v", err)
	}
	if _, err := run(nil, "--frontier", "redis://h:6379/0"); err == nil || !strings.Contains(err.Error(), "needs the Redis frontier") {
		t.Errorf("no frontier to ask: %v", err)
	}
	var asked string
	status := func(_ context.Context, url string) (frontierStatus, error) {
		asked = url
		return sampleStatus(), nil
	}
	t.Setenv("CRAWL_FRONTIER_URL", "redis://crawl:s3cret@127.0.0.1:6379/0")
	out, err := run(status)
	if err != nil || asked != "redis://crawl:s3cret@127.0.0.1:6379/0" ||
		!strings.HasPrefix(out, "Frontier redis://crawl:xxxxx@127.0.0.1:6379/0\n") || strings.Contains(out, "s3cret") {
		t.Errorf("from the environment: %q asked, %v:\n%s", asked, err, out)
	}
	out, err = run(status, "--json")
	if err != nil || !strings.Contains(out, `"queued": 1200`) {
		t.Errorf("--json: %v:\n%s", err, out)
	}
}
