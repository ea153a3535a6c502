package wacz

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/crawllog"
)

// archiveDir is the directory of a crawl's output that holds the WARC files
// and their index (the crawler's ArchiveDir).
const archiveDir = "archive"

// source is what a crawl output directory holds for the WACZ.
type source struct {
	dir      string
	warcs    []string        // paths of the WARC files, sorted by name
	names    map[string]bool // their base names
	index    string          // path of the crawl's CDXJ index
	crawlLog string          // path of crawl.jsonl; "" when there is none
	// open opens a WARC file for copying into the ZIP; nil is os.Open.
	open func(path string) (io.ReadCloser, error)
}

// openWARC opens the WARC file at path for copying into the ZIP.
func (s *source) openWARC(path string) (io.ReadCloser, error) {
	if s.open != nil {
		return s.open(path)
	}
	return os.Open(path)
}

// openSource finds the WARC files, the index and the crawl log of the crawl
// output directory dir.
func openSource(dir string) (*source, error) {
	st, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("wacz: %w", err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("wacz: %s is not a directory", dir)
	}
	s := &source{dir: dir, names: map[string]bool{}, index: filepath.Join(dir, archiveDir, archive.IndexName)}
	for _, pattern := range []string{"*.warc.gz", "*.warc"} {
		found, err := filepath.Glob(filepath.Join(dir, archiveDir, pattern))
		if err != nil {
			return nil, fmt.Errorf("wacz: %w", err)
		}
		s.warcs = append(s.warcs, found...)
	}
	slices.Sort(s.warcs)
	for _, f := range s.warcs {
		s.names[filepath.Base(f)] = true
	}
	if len(s.warcs) == 0 {
		return nil, fmt.Errorf("%w: %s holds no WARC file (was archive.warc off?)", ErrNoArchive, filepath.Join(dir, archiveDir))
	}
	if _, err := os.Stat(s.index); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrNoArchive, s.index, err)
	}
	log := filepath.Join(dir, crawllog.CrawlLogFile)
	if _, err := os.Stat(log); err == nil {
		s.crawlLog = log
	}
	return s, nil
}
