package crawler

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"unicode/utf8"

	"github.com/crawlproject/crawl/crawllog"
)

// jsonlFile appends JSON lines to one file, each line in one write so that
// a kill -9 never loses or tears a line. A write that fails (a full disk)
// is cut back off the file, so no part of its line stays, and every later
// write returns the same error: no line follows a lost one. Safe for
// concurrent use.
type jsonlFile struct {
	mu   sync.Mutex
	f    *os.File
	size int64 // the file's length: where a failed write is cut back to
	err  error // the first failed write
}

func openJSONL(dir, name string) (*jsonlFile, error) {
	f, err := openLines(filepath.Join(dir, name))
	if err != nil {
		return nil, fmt.Errorf("crawler: open %s: %w", name, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("crawler: open %s: %w", name, err)
	}
	return &jsonlFile{f: f, size: st.Size()}, nil
}

// openLines opens a file of lines for appending, creating it if need be.
// A last line that a failed write left without its newline (a full disk,
// a power cut; a kill -9 cannot tear a line written in one write) is ended
// first, so that the torn line stays the only one lost rather than taking
// the next run's first line with it.
func openLines(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && st.Size() > 0 {
		last := make([]byte, 1)
		if _, err = f.ReadAt(last, st.Size()-1); err == nil && last[0] != '\n' {
			_, err = f.Write([]byte{'\n'})
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func (j *jsonlFile) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("crawler: encode log line: %w", err)
	}
	b = append(b, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return j.err
	}
	if _, err := j.f.Write(b); err != nil {
		j.f.Truncate(j.size) // no part of the line stays
		j.err = fmt.Errorf("crawler: %w", err)
		return j.err
	}
	j.size += int64(len(b))
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
	if l.crawl, err = openJSONL(dir, crawllog.CrawlLogFile); err != nil {
		return nil, err
	}
	if l.skips, err = openJSONL(dir, crawllog.SkipLogFile); err != nil {
		l.crawl.close()
		return nil, err
	}
	if l.robots, err = openJSONL(dir, crawllog.RobotsLogFile); err != nil {
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

// cutForLog returns the longest start of u of at most n octets that ends
// neither inside a UTF-8 sequence nor inside a %XX escape: how URLs and
// other values a server chose are cut in the logs.
func cutForLog(u string, n int) string {
	if len(u) <= n {
		return u
	}
	for n > 0 && !utf8.RuneStart(u[n]) {
		n--
	}
	switch {
	case n >= 1 && u[n-1] == '%':
		n--
	case n >= 2 && u[n-2] == '%':
		n -= 2
	}
	return u[:n]
}
