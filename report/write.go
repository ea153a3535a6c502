package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"os"
	"path/filepath"
)

//go:embed report.html.tmpl
var pageTemplate string

//go:embed style.css
var pageCSS string

// Write reads the crawl output files in dir (summary.json, and crawl.jsonl,
// skips.jsonl and robots.jsonl when present) and writes dir/report.html, a
// single self-contained page: inline CSS and SVG, no scripts, no fetches.
//
// A missing summary.json is an error that wraps fs.ErrNotExist. Missing
// optional files and malformed JSONL lines are tolerated and noted in the
// report. The file is written to a temporary name and renamed into place.
// Write is safe to call concurrently for different directories.
func Write(dir string) error {
	in, err := readInput(dir)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := render(&buf, in); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".report-*.html")
	if err != nil {
		return fmt.Errorf("report: create temporary file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("report: write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("report: write %s: %w", tmp.Name(), err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("report: chmod %s: %w", tmp.Name(), err)
	}
	out := filepath.Join(dir, ReportFile)
	if err := os.Rename(tmp.Name(), out); err != nil {
		return fmt.Errorf("report: write %s: %w", out, err)
	}
	return nil
}

// render executes the page template for in.
func render(buf *bytes.Buffer, in *input) error {
	t, err := template.New("report").Parse(pageTemplate)
	if err != nil {
		return fmt.Errorf("report: parse template: %w", err)
	}
	// pageCSS is our own embedded file, not input: it is trusted as CSS.
	if err := t.Execute(buf, buildView(in, template.CSS(pageCSS))); err != nil {
		return fmt.Errorf("report: render: %w", err)
	}
	return nil
}
