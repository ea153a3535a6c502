package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
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
	return runCommand(newReportCommand(), args...)
}

// runCommand runs cmd with args and returns what it printed.
func runCommand(cmd *cobra.Command, args ...string) (string, error) {
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

// TestReportCommandNeedsADir: no DIR is an error, and so are DIRs that
// are no crawl's, the first such one named.
func TestReportCommandNeedsADir(t *testing.T) {
	if _, err := runReport(t); err == nil {
		t.Error("no error without DIR")
	}
	dir := copyReportFixture(t)
	missing := filepath.Join(t.TempDir(), "b")
	if _, err := runReport(t, dir, missing); err == nil || !strings.Contains(err.Error(), missing+" has no summary.json") {
		t.Errorf("two DIRs, the second no crawl's: %v", err)
	}
}

// TestReportCommandSeveralDirs: the output directories of several
// processes make one report, in the first DIR or --to FILE.
func TestReportCommandSeveralDirs(t *testing.T) {
	a, b := copyReportFixture(t), copyReportFixture(t)
	out, err := runReport(t, a, b)
	if err != nil || out != "Wrote "+filepath.Join(a, "report.html")+"\n" {
		t.Fatalf("report %s %s: %q, %v", a, b, out, err)
	}
	if _, err := os.Stat(filepath.Join(b, "report.html")); err == nil {
		t.Error("report.html written in the second DIR too")
	}
	to := filepath.Join(t.TempDir(), "all.html")
	out, err = runReport(t, "--to", to, a, b)
	if err != nil || out != "Wrote "+to+"\n" {
		t.Fatalf("--to: %q, %v", out, err)
	}
	page, err := os.ReadFile(to)
	// Both fixtures are copies of one crawl's output, written to /tmp/demo-crawl.
	if err != nil || !bytes.Contains(page, []byte("/tmp/demo-crawl, /tmp/demo-crawl")) {
		t.Errorf("the report over both DIRs does not name their summaries' output directories (%v)", err)
	}
}
