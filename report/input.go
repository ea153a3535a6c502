package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// The file names a crawl writes into its output directory (see
// /work/notes/outputs.md for their format).
const (
	SummaryFile = "summary.json"
	CrawlFile   = "crawl.jsonl"
	SkipsFile   = "skips.jsonl"
	RobotsFile  = "robots.jsonl"
	ReportFile  = "report.html"
)

// summary is summary.json.
type summary struct {
	Started     time.Time      `json:"started"`
	Finished    time.Time      `json:"finished"`
	Agent       string         `json:"agent"`
	UserAgent   string         `json:"user_agent"`
	Out         string         `json:"out"`
	Interrupted bool           `json:"interrupted"`
	ExitCode    int            `json:"exit_code"`
	Politeness  map[string]any `json:"politeness"`
	Totals      totals         `json:"totals"`
	Hosts       []hostSummary  `json:"hosts"`
	SkipReasons map[string]int `json:"skip_reasons"` // counts, including skips not logged one by one
}

type totals struct {
	Fetched       int `json:"fetched"`
	Skipped       int `json:"skipped"`
	Errors        int `json:"errors"`
	Queued        int `json:"queued"`
	DeferredHosts int `json:"deferred_hosts"`
	Duplicates    int `json:"duplicate_links"`
}

type hostSummary struct {
	Host          string         `json:"host"`
	Label         string         `json:"label"`
	Note          string         `json:"note"`
	State         string         `json:"state"`
	PaceSeconds   float64        `json:"pace_seconds"`
	PaceRule      string         `json:"pace_rule"`
	PagesByStatus map[string]int `json:"pages_by_status"`
	Fetched       int            `json:"fetched"`
	Errors        int            `json:"errors"`
	Skipped       int            `json:"skipped"`
	Queued        int            `json:"queued"`
	DeferredUntil *time.Time     `json:"deferred_until"`
	DeferReason   string         `json:"defer_reason"`
	DropReason    string         `json:"drop_reason"`
	Warning       string         `json:"warning"`
	Robots        *robotsSummary `json:"robots"`
	Events        []event        `json:"events"`
}

type robotsSummary struct {
	URL               string        `json:"url"`
	Status            int           `json:"status"`
	Outcome           string        `json:"outcome"`
	Body              string        `json:"body"`
	Group             string        `json:"group"`
	CrawlDelaySeconds *float64      `json:"crawl_delay_seconds"`
	RequestRates      []requestRate `json:"request_rates"`
	VisitTimes        []visitTime   `json:"visit_times"`
	Comments          []string      `json:"comments"`
	Sitemaps          []string      `json:"sitemaps"`
	Warnings          []string      `json:"warnings"`
}

type requestRate struct {
	Requests int     `json:"requests"`
	Seconds  float64 `json:"seconds"`
	From     *string `json:"from"`
	To       *string `json:"to"`
}

type visitTime struct {
	From string `json:"from"`
	To   string `json:"to"`
}

type event struct {
	Time   time.Time  `json:"time"`
	Kind   string     `json:"kind"`
	Until  *time.Time `json:"until"`
	Detail string     `json:"detail"`
}

// request is one line of crawl.jsonl.
type request struct {
	Time        time.Time `json:"time"`
	URL         string    `json:"url"`
	Host        string    `json:"host"`
	Kind        string    `json:"kind"`
	Status      int       `json:"status"`
	Bytes       int64     `json:"bytes"`
	DurationMS  float64   `json:"duration_ms"`
	ContentType string    `json:"content_type"`
	Depth       int       `json:"depth"`
	Parent      string    `json:"parent"`
	PaceSeconds float64   `json:"pace_seconds"`
	PaceRule    string    `json:"pace_rule"`
	RobotsRule  string    `json:"robots_rule"`
	RobotsLine  int       `json:"robots_line"`
	Redirect    string    `json:"redirect"`
	Error       string    `json:"error"`
}

// skip is one line of skips.jsonl.
type skip struct {
	Time   time.Time `json:"time"`
	URL    string    `json:"url"`
	Host   string    `json:"host"`
	Reason string    `json:"reason"`
	Detail string    `json:"detail"`
	Rule   string    `json:"rule"`
	Line   int       `json:"line"`
	Parent string    `json:"parent"`
}

// robotsFetch is one line of robots.jsonl.
type robotsFetch struct {
	Time       time.Time  `json:"time"`
	Host       string     `json:"host"`
	URL        string     `json:"url"`
	Status     int        `json:"status"`
	Outcome    string     `json:"outcome"`
	Bytes      int64      `json:"bytes"`
	DurationMS float64    `json:"duration_ms"`
	Redirects  []string   `json:"redirects"`
	Truncated  bool       `json:"truncated"`
	Error      string     `json:"error"`
	Expires    *time.Time `json:"expires"`
}

// input is everything read from a crawl's output directory.
type input struct {
	summary  summary
	requests []request
	skips    []skip
	robots   []robotsFetch
	notes    []string // missing optional files, ignored lines
}

// maxLine bounds one JSONL line; longer lines are skipped as malformed.
const maxLine = 1 << 20

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
	bad, lineNo, firstBad := 0, 0, 0
	r := bufio.NewReaderSize(f, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if err == io.EOF && len(line) == 0 && !tooLong {
			break
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("report: read %s: %w", name, err)
		}
		lineNo++
		line = bytes.TrimSpace(line)
		if len(line) > 0 || tooLong {
			var v T
			if tooLong || json.Unmarshal(line, &v) != nil {
				bad++
				if firstBad == 0 {
					firstBad = lineNo
				}
			} else {
				out = append(out, v)
			}
		}
		if err == io.EOF {
			break
		}
	}
	if bad > 0 {
		*notes = append(*notes, fmt.Sprintf("%s: ignored %d malformed line(s), the first on line %d.", name, bad, firstBad))
	}
	return out, nil
}

// readLine returns the next line without its newline. A line longer than
// maxLine is consumed and reported with tooLong and no content.
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxLine {
				tooLong, line = true, nil
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), tooLong, err
	}
}
