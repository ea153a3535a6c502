package crawler

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

// tally counts what happened per host during one run, or (as a history's)
// during the earlier runs. Safe for concurrent use; bounded by the number
// of hosts crawled.
type tally struct {
	mu         sync.Mutex
	hosts      map[string]*hostTally
	duplicates int
}

type hostTally struct {
	byStatus map[string]int
	fetched  int
	errors   int
	skipped  map[string]int
	bytes    int64
	robots   int // robots.txt requests (and their redirect hops), not pages
}

func newTally() *tally { return &tally{hosts: map[string]*hostTally{}} }

func (t *tally) host(a string) *hostTally {
	h := t.hosts[a]
	if h == nil {
		h = &hostTally{byStatus: map[string]int{}, skipped: map[string]int{}}
		t.hosts[a] = h
	}
	return h
}

// logged counts one crawl.jsonl line, as the run writes it or as a later
// run reads it back: a robots.txt request, or a fetch. A fetch is a page
// fetched when an answer came (any status), and failed when no answer came
// or the answer was 429 or a 5xx; a request that got no answer is counted
// as failed only, under the status "error".
func (t *tally) logged(e crawllog.CrawlEntry) (fetched, failed bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	h := t.host(e.Host)
	if e.Kind == scheduler.KindRobots.String() {
		h.robots++
		return false, false
	}
	fetched = e.Status > 0
	failed = e.Error != "" || e.Status == 429 || e.Status >= 500
	key := "error"
	if fetched {
		key = strconv.Itoa(e.Status)
		h.fetched++
		h.bytes += e.Bytes
	}
	h.byStatus[key]++
	if failed {
		h.errors++
	}
	return fetched, failed
}

func (t *tally) skip(a, reason string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.host(a).skipped[reason]++
}

func (t *tally) duplicate() {
	t.mu.Lock()
	t.duplicates++
	t.mu.Unlock()
}

// add adds o's counts to h.
func (h *hostTally) add(o *hostTally) {
	for k, n := range o.byStatus {
		h.byStatus[k] += n
	}
	for k, n := range o.skipped {
		h.skipped[k] += n
	}
	h.fetched += o.fetched
	h.errors += o.errors
	h.bytes += o.bytes
	h.robots += o.robots
}

// runCounts returns the run's share of the counts: pages, robots.txt
// requests, skips and errors over every host.
func (t *tally) runCounts(r *crawllog.RunSummary) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, h := range t.hosts {
		r.Fetched += h.fetched
		r.RobotsFetches += h.robots
		r.Errors += h.errors
		for _, n := range h.skipped {
			r.Skipped += n
		}
	}
}

// history is what the earlier runs of an output directory did, read back
// from its logs when a run starts: runs.jsonl for when each run started
// and ended, crawl.jsonl and skips.jsonl for what it fetched and skipped.
// The logs are the record (each line is written whole as it happens), so a
// run killed with SIGKILL counts as far as it logged. Entries older than
// the first start line (a directory crawled before runs.jsonl existed) are
// one more run that started with its first entry.
type history struct {
	runs       []crawllog.RunSummary // in start order
	tally      *tally                // every earlier run's counts by host
	duplicates int
	// refused are the URLs earlier runs logged for a reason logged once
	// (loggedOnce), so that this run does not log them again.
	refused *loggedOnceSet
}

// readHistory reads dir's logs. Missing files are an empty history; a
// line that does not parse (a torn last line) is passed over.
func readHistory(dir string) (*history, error) {
	h := &history{tally: newTally(), refused: newLoggedOnceSet(maxLoggedOnce)}
	err := scanJSONL(filepath.Join(dir, crawllog.RunsLogFile), func(e crawllog.RunEntry) {
		switch e.Event {
		case crawllog.RunStart:
			h.runs = append(h.runs, crawllog.RunSummary{Started: e.Time.UTC(), Mode: e.Mode})
		case crawllog.RunEnd:
			if n := len(h.runs); n > 0 && h.runs[n-1].Finished == nil {
				t := e.Time.UTC()
				h.runs[n-1].Finished, h.runs[n-1].Interrupted = &t, e.Interrupted
			}
			h.duplicates += e.DuplicateLinks
		}
	})
	if err != nil {
		return nil, err
	}
	var before crawllog.RunSummary // entries older than the first start line
	runOf := func(t time.Time) *crawllog.RunSummary {
		i := sort.Search(len(h.runs), func(i int) bool { return h.runs[i].Started.After(t) })
		if i == 0 {
			if before.Started.IsZero() || t.Before(before.Started) {
				before.Started = t.UTC()
			}
			return &before
		}
		return &h.runs[i-1]
	}
	err = scanJSONL(filepath.Join(dir, crawllog.CrawlLogFile), func(e crawllog.CrawlEntry) {
		r := runOf(e.Time)
		fetched, failed := h.tally.logged(e)
		if e.Kind == scheduler.KindRobots.String() {
			r.RobotsFetches++
			return
		}
		if fetched {
			r.Fetched++
		}
		if failed {
			r.Errors++
		}
	})
	if err != nil {
		return nil, err
	}
	err = scanJSONL(filepath.Join(dir, crawllog.SkipLogFile), func(e crawllog.SkipEntry) {
		runOf(e.Time).Skipped++
		if e.Queued {
			// The URL stayed queued: this run fetches it, or defers and
			// logs it again. Counted in its run's share, not in the
			// crawl's totals, which would count it once per run.
			return
		}
		if loggedOnce(scheduler.Reason(e.Reason)) {
			h.refused.add(e.URL)
		}
		h.tally.skip(e.Host, e.Reason)
	})
	if err != nil {
		return nil, err
	}
	if !before.Started.IsZero() {
		before.Mode = crawllog.ModeCrawl
		h.runs = append([]crawllog.RunSummary{before}, h.runs...)
	}
	return h, nil
}

// started is when the crawl of the directory began: the first run's
// start, or now for the first run.
func (h *history) started(now time.Time) time.Time {
	if len(h.runs) > 0 && h.runs[0].Started.Before(now) {
		return h.runs[0].Started
	}
	return now
}

// scanJSONL calls fn with each line of path that decodes as a T; a line
// that does not (a torn last line) is passed over.
func scanJSONL[T any](path string, fn func(T)) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("crawler: read %s: %w", filepath.Base(path), err)
	}
	defer f.Close()
	if _, _, err := crawllog.ReadJSONL(f, fn); err != nil {
		return fmt.Errorf("crawler: read %s: %w", filepath.Base(path), err)
	}
	return nil
}

// beginRun appends a run's start line to dir's runs.jsonl and returns the
// open log for its end line (endRun) and the start time, which is earlier
// than anything the run logs.
func beginRun(dir, mode string) (*jsonlFile, time.Time, error) {
	f, err := openJSONL(dir, crawllog.RunsLogFile)
	if err != nil {
		return nil, time.Time{}, err
	}
	now := time.Now()
	if err := f.write(crawllog.RunEntry{Time: now.UTC(), Event: crawllog.RunStart, Mode: mode}); err != nil {
		f.close()
		return nil, time.Time{}, err
	}
	return f, now, nil
}

// endRun appends the run's end line and closes the log.
func endRun(f *jsonlFile, mode string, interrupted bool, duplicates int) error {
	err := f.write(crawllog.RunEntry{Time: time.Now().UTC(), Event: crawllog.RunEnd, Mode: mode, Interrupted: interrupted, DuplicateLinks: duplicates})
	return errors.Join(err, f.close())
}
