package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyReportFixture copies testdata/report/demo's input files to a temp dir.
func copyReportFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"summary.json", "crawl.jsonl", "skips.jsonl", "robots.jsonl"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "report", "demo", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runReport(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cmd := newReportCommand()
	var out bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SetArgs(args)
	err := cmd.Execute()
	return out.String(), err
}

func TestReportCommandWritesReport(t *testing.T) {
	dir := copyReportFixture(t)
	out, err := runReport(t, dir)
	if err != nil {
		t.Fatalf("report %s: %v", dir, err)
	}
	path := filepath.Join(dir, "report.html")
	if out != "Wrote "+path+"\n" {
		t.Errorf("stdout = %q", out)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`<section class="host" id="host-1"`)) {
		t.Error("report.html has no host section")
	}
}

func TestReportCommandWithoutSummary(t *testing.T) {
	dir := t.TempDir()
	out, err := runReport(t, dir)
	if err == nil {
		t.Fatal("no error for a directory without summary.json")
	}
	msg := err.Error()
	if strings.Contains(msg, "\n") || !strings.Contains(msg, dir) || !strings.Contains(msg, "summary.json") {
		t.Errorf("error %q should be one line naming %s and summary.json", msg, dir)
	}
	if out != "" {
		t.Errorf("printed %q; usage or errors are for the caller to print", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.html")); err == nil {
		t.Error("report.html written without a summary")
	}
}

func TestReportCommandNeedsOneDir(t *testing.T) {
	if _, err := runReport(t); err == nil {
		t.Error("no error without DIR")
	}
	if _, err := runReport(t, "a", "b"); err == nil {
		t.Error("no error with two DIRs")
	}
}
