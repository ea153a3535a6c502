package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/crawler"
)

// A warcCount is how often the WARC files of a crawl of a bigWeb hold each
// of its pages (response and revisit records).
type warcCount struct {
	Pages   int   // pages of the web
	Missing int   // pages with no record
	Twice   int   // pages with two records
	More    int   // pages with three or more
	Robots  int   // robots.txt responses
	Other   int   // records of URLs that are not pages of the web
	Files   int   // WARC files read
	twice   []int // the pages with two records (host h's page i is h*pages+i)
}

// String says what is wrong, or that each page is there once.
func (c warcCount) String() string {
	return fmt.Sprintf("%d pages: %d missing, %d twice, %d three times or more; %d robots.txt, %d other URLs, in %d WARC files",
		c.Pages, c.Missing, c.Twice, c.More, c.Robots, c.Other, c.Files)
}

// check returns an error unless every page is in the WARC files once, or
// twice for at most maxTwice of them (fetched when a crawl was killed and
// fetched again by the resumed run).
func (c warcCount) check(maxTwice int) error {
	if c.Missing > 0 || c.More > 0 || c.Twice > maxTwice || c.Other > 0 {
		return fmt.Errorf("crawlbench: WARC: %v (at most %d twice allowed)", c, maxTwice)
	}
	return nil
}

// oldestTwice is how long before killed the earliest of the first
// requests of the pages with two records came; before holds each page's
// latest request before the resumed run (bigWeb.lastTimes).
func (c warcCount) oldestTwice(before []int64, killed time.Time) time.Duration {
	var oldest time.Duration
	for _, k := range c.twice {
		oldest = max(oldest, time.Duration(killed.UnixNano()-before[k]))
	}
	return oldest
}

// countWARC reads every WARC file of the crawl in out and counts the
// records of w's pages.
func countWARC(out string, w *bigWeb) (warcCount, error) {
	files, err := filepath.Glob(filepath.Join(out, crawler.ArchiveDir, "*.warc.gz"))
	if err != nil {
		return warcCount{}, err
	}
	seen := make([]uint8, w.hosts*w.pages)
	c := warcCount{Pages: len(seen), Files: len(files)}
	for _, f := range files {
		if err := countFile(f, w, seen, &c); err != nil {
			return c, err
		}
	}
	for k, n := range seen {
		switch {
		case n == 0:
			c.Missing++
		case n == 2:
			c.Twice++
			c.twice = append(c.twice, k)
		case n > 2:
			c.More++
		}
	}
	return c, nil
}

func countFile(path string, w *bigWeb, seen []uint8, c *warcCount) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := archive.NewReader(f)
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("crawlbench: read %s: %w", filepath.Base(path), err)
		}
		if t := rec.Type(); t != "response" && t != "revisit" {
			continue
		}
		u := rec.Get("WARC-Target-URI")
		if strings.HasSuffix(u, "/robots.txt") {
			c.Robots++
			continue
		}
		h, i, ok := w.pageOf(u)
		if !ok {
			c.Other++
			continue
		}
		if k := h*w.pages + i; seen[k] < 255 {
			seen[k]++
		}
	}
}
