package crawler

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// The files a crawl writes in its output directory.
const (
	CrawlLogFile  = "crawl.jsonl"
	SkipLogFile   = "skips.jsonl"
	RobotsLogFile = "robots.jsonl"
	SummaryFile   = "summary.json"
)

// CrawlEntry is one line of crawl.jsonl: one HTTP request made.
type CrawlEntry struct {
	Time        time.Time `json:"time"`
	URL         string    `json:"url"`
	Host        string    `json:"host"`
	Kind        string    `json:"kind"`
	Status      int       `json:"status"`
	Bytes       int64     `json:"bytes"`
	DurationMS  float64   `json:"duration_ms"`
	ContentType string    `json:"content_type,omitempty"`
	Depth       int       `json:"depth"`
	Parent      string    `json:"parent,omitempty"`
	PaceSeconds float64   `json:"pace_seconds"`
	PaceRule    string    `json:"pace_rule"`
	RobotsRule  string    `json:"robots_rule"`
	RobotsLine  int       `json:"robots_line"`
	Redirect    string    `json:"redirect,omitempty"`
	Truncated   bool      `json:"truncated,omitempty"`
	Error       string    `json:"error,omitempty"`
}

// SkipEntry is one line of skips.jsonl: one URL not fetched, and why.
type SkipEntry struct {
	Time   time.Time `json:"time"`
	URL    string    `json:"url"`
	Host   string    `json:"host,omitempty"`
	Reason string    `json:"reason"`
	Detail string    `json:"detail,omitempty"`
	Rule   string    `json:"rule,omitempty"`
	Line   int       `json:"line,omitempty"`
	Parent string    `json:"parent,omitempty"`
}

// RobotsEntry is one line of robots.jsonl: one robots.txt fetch.
type RobotsEntry struct {
	Time       time.Time `json:"time"`
	Host       string    `json:"host"`
	URL        string    `json:"url"`
	Status     int       `json:"status"`
	Outcome    string    `json:"outcome"`
	Bytes      int64     `json:"bytes"`
	DurationMS float64   `json:"duration_ms"`
	Redirects  []string  `json:"redirects"`
	Truncated  bool      `json:"truncated"`
	Error      string    `json:"error,omitempty"`
	Expires    time.Time `json:"expires"`
}

// jsonlFile appends JSON lines to one file, each line in one write so that
// a kill -9 never loses or tears a line. Safe for concurrent use.
type jsonlFile struct {
	mu sync.Mutex
	f  *os.File
}

func openJSONL(dir, name string) (*jsonlFile, error) {
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("crawler: open %s: %w", name, err)
	}
	return &jsonlFile{f: f}, nil
}

func (j *jsonlFile) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("crawler: encode log line: %w", err)
	}
	b = append(b, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if _, err := j.f.Write(b); err != nil {
		return fmt.Errorf("crawler: write log: %w", err)
	}
	return nil
}

func (j *jsonlFile) close() error { return j.f.Close() }

// logs holds the crawl's three JSONL logs.
type logs struct {
	crawl, skips, robots *jsonlFile
}

func openLogs(dir string) (*logs, error) {
	l := &logs{}
	var err error
	if l.crawl, err = openJSONL(dir, CrawlLogFile); err != nil {
		return nil, err
	}
	if l.skips, err = openJSONL(dir, SkipLogFile); err != nil {
		l.crawl.close()
		return nil, err
	}
	if l.robots, err = openJSONL(dir, RobotsLogFile); err != nil {
		l.crawl.close()
		l.skips.close()
		return nil, err
	}
	return l, nil
}

func (l *logs) close() error {
	e1 := l.crawl.close()
	e2 := l.skips.close()
	e3 := l.robots.close()
	for _, e := range []error{e1, e2, e3} {
		if e != nil {
			return e
		}
	}
	return nil
}
