package report

import (
	"bytes"
	_ "embed"
	"errors"
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
func Write(dir string) error { return WriteDirs([]string{dir}, filepath.Join(dir, ReportFile)) }

// WriteDirs writes to the file to one report over the output directories
// dirs of the processes of one distributed crawl (one dir: as Write):
// their summaries combined (the work of each summed, the frontier's state
// at the end from the summary that finished last) and their logs merged
// by time. Each dir must hold a summary.json; the rest is as for Write.
func WriteDirs(dirs []string, to string) error {
	if len(dirs) == 0 {
		return errors.New("report: no output directory given")
	}
	in, err := readDirs(outDirs(dirs), defaultLimits())
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := render(&buf, in); err != nil {
		return err
	}
	return replaceFile(to, buf.Bytes())
}

// replaceFile writes b to a temporary file beside path, readable by all,
// and renames it to path: a reader sees the old file or the new one.
func replaceFile(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".report-*.html")
	if err != nil {
		return fmt.Errorf("report: create temporary file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return fmt.Errorf("report: write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("report: write %s: %w", tmp.Name(), err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("report: chmod %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("report: write %s: %w", path, err)
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
