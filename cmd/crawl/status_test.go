package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/redistest"
	"github.com/crawlproject/crawl/redisfrontier"
	"github.com/crawlproject/crawl/scheduler"
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
				Started: statusNow.Add(-time.Hour), LastSeen: statusNow.Add(-125 * time.Second), Stale: true},
		}}
}

// TestPrintStatus: the text form names the frontier as given (redacted
// by the caller), the URL and host counts, and a line per process with
// its pages, last heartbeat (marked when stale) and output directory.
func TestPrintStatus(t *testing.T) {
	var b bytes.Buffer
	if err := printStatus(&b, "redis://crawl:xxxxx@127.0.0.1:6379/0", sampleStatus(), statusNow); err != nil {
		t.Fatal(err)
	}
	want := `Frontier redis://crawl:xxxxx@127.0.0.1:6379/0
  URLs:  1200 queued, 16 leased, 5678 done
  hosts: 120 (3 parked, 2 backing off, 1 deferred, 0 given up)
  processes: 2
    PROCESS         PAGES  LAST HEARTBEAT    OUT
    w1-4242-a1b2c3  3000   2s ago            /data/out1
    w2-77-ffffff    2678   2m5s ago (stale)  /data/out2
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
// names, times in UTC, and each process's "stale".
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
		len(procs) != 2 || p["pages"] != 3000.0 || p["last_seen"] != "2026-11-30T11:59:58Z" || p["id"] != "w1-4242-a1b2c3" ||
		p["stale"] != false || procs[1].(map[string]any)["stale"] != true {
		t.Errorf("JSON:\n%s", b.String())
	}
	if st.Processes[0].LastSeen.Location().String() != "X" {
		t.Error("printStatusJSON changed the status it was given")
	}
}

// TestStatusCommand: the URL comes from --frontier or CRAWL_FRONTIER_URL
// and is checked as config; without one the command says so; the
// frontier's answer is printed with the URL
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

// TestStatusMarksStaleProcesses: "crawl status" on a real shared frontier
// marks a process whose last heartbeat is older than three of its
// intervals as stale, in text ("(stale)") and JSON ("stale": true), and
// not a live one; the text names the frontier on its first line.
func TestStatusMarksStaleProcesses(t *testing.T) {
	t.Parallel()
	frontier := distSingleDB(t, 14)
	ctx := context.Background()
	f, err := redisfrontier.Open(ctx, redisfrontier.Options{URL: frontier, ProcessID: "live-1-aa", Config: scheduler.DefaultConfig(),
		Heartbeat: 100 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rdb, err := redistest.Client(frontier)
	if err != nil {
		t.Fatal(err)
	}
	defer rdb.Close()
	silent := time.Now().Add(-10 * time.Second).UnixMilli()
	if err := rdb.HSet(ctx, "crawl:{g}:procs", "gone-2-bb", fmt.Sprintf(`{"pid":2,"seen":%d,"every":2000}`, silent)).Err(); err != nil {
		t.Fatal(err)
	}
	text := statusWith(t, frontier, 2)
	if !strings.HasPrefix(text, "Frontier "+frontier+"\n") {
		t.Errorf("the first line does not name the frontier:\n%s", text)
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "-bb") != strings.Contains(line, "(stale)") {
			t.Errorf("only the silent process's line must be marked stale: %q", line)
		}
	}
	var st frontierStatus
	out, err := runCommand(newStatusCommand(redisStatus), "--frontier", frontier, "--json")
	if err != nil || json.Unmarshal([]byte(out), &st) != nil || len(st.Processes) != 2 {
		t.Fatalf("--json: %v:\n%s", err, out)
	}
	for _, p := range st.Processes {
		if p.Stale != (p.ID == "gone-2-bb") || !strings.Contains(out, `"stale": `) {
			t.Errorf("--json: %s stale %t:\n%s", p.ID, p.Stale, out)
		}
	}
}

// statusWith runs "crawl status" on frontier until it lists procs
// processes (heartbeats are written in the background), and returns its
// output.
func statusWith(t *testing.T, frontier string, procs int) string {
	t.Helper()
	want := fmt.Sprintf("processes: %d\n", procs)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		out, err := runCommand(newStatusCommand(redisStatus), "--frontier", frontier)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out, want) {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("status never listed %d processes:\n%s", procs, out)
		}
	}
}
