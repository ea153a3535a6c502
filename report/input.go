package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

// The file names a crawl writes into its output directory (their formats
// are package crawllog's), and the page this package writes.
const (
	SummaryFile = crawllog.SummaryFile
	CrawlFile   = crawllog.CrawlLogFile
	SkipsFile   = crawllog.SkipLogFile
	RobotsFile  = crawllog.RobotsLogFile
	ReportFile  = "report.html"
)

// Local names for the crawl's file formats.
type (
	summary       = crawllog.Summary
	totals        = crawllog.Totals
	hostSummary   = crawllog.HostSummary
	robotsSummary = crawllog.RobotsSummary
	requestRate   = crawllog.RateSummary
	visitTime     = crawllog.WindowJSON
	event         = crawllog.HostEvent
	request       = crawllog.CrawlEntry
	skip          = crawllog.SkipEntry
	robotsFetch   = crawllog.RobotsEntry
	runSummary    = crawllog.RunSummary
)

// input is everything read from a crawl's output directory.
type input struct {
	summary  summary
	requests []request
	skips    []skip
	robots   []robotsFetch
	notes    []string // missing optional files, ignored lines
}

// maxLine bounds one JSONL line; longer lines are skipped as malformed.
const maxLine = crawllog.MaxLine

// readInput reads dir. A missing or unreadable summary.json is an error
// (wrapping fs.ErrNotExist when it is absent); the JSONL files are optional
// and their malformed lines are counted in notes and skipped.
func readInput(dir string) (*input, error) {
	path := filepath.Join(dir, SummaryFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("report: read summary: %w", err)
	}
	in := &input{}
	if err := json.Unmarshal(b, &in.summary); err != nil {
		return nil, fmt.Errorf("report: parse %s: %w", path, err)
	}
	if in.requests, err = readJSONL[request](dir, CrawlFile, &in.notes); err != nil {
		return nil, err
	}
	if in.skips, err = readJSONL[skip](dir, SkipsFile, &in.notes); err != nil {
		return nil, err
	}
	in.skips = currentSkips(in.skips, &in.summary)
	if in.robots, err = readJSONL[robotsFetch](dir, RobotsFile, &in.notes); err != nil {
		return nil, err
	}
	return in, nil
}

// readJSONL decodes each line of dir/name into a T. A missing file yields
// no records and a note; malformed or over-long lines are skipped and
// counted in a note. Other read errors are returned.
func readJSONL[T any](dir, name string, notes *[]string) ([]T, error) {
	f, err := os.Open(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		*notes = append(*notes, name+" is missing; its part of the report is empty.")
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("report: open %s: %w", name, err)
	}
	defer f.Close()
	var out []T
	bad, firstBad, err := crawllog.ReadJSONL(f, func(v T) { out = append(out, v) })
	if err != nil {
		return nil, fmt.Errorf("report: read %s: %w", name, err)
	}
	if bad > 0 {
		*notes = append(*notes, fmt.Sprintf("%s: ignored %d malformed line(s), the first on line %d.", name, bad, firstBad))
	}
	return out, nil
}

// currentSkips drops the lines of URLs that stayed queued (queued: true,
// their host deferred) logged before the summary's latest crawl run: that
// run fetched such a URL or logged it again, so the report counts each
// waiting URL once, as the summary's totals do.
func currentSkips(skips []skip, s *summary) []skip {
	var last time.Time
	for _, r := range s.Runs {
		if r.Mode == crawllog.ModeCrawl && r.Started.After(last) {
			last = r.Started
		}
	}
	if last.IsZero() {
		return skips
	}
	out := skips[:0]
	for _, k := range skips {
		if k.Queued && k.Time.Before(last) {
			continue
		}
		out = append(out, k)
	}
	return out
}
