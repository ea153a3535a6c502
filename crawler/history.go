package crawler

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

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
	// failing are the URLs whose last attempt failed, from the earlier
	// runs' logs and then this run's fetches.
	failing *failingSet
	// refused are the URLs earlier runs logged for a reason logged once
	// (loggedOnce), so that this run does not log them again.
	refused *loggedOnceSet
	// queued are the URLs earlier runs logged as left queued (queued:
	// true), each with its reason (queuedKey): logged once, not by every
	// run that defers their host again.
	queued *loggedOnceSet
}

// readHistory reads dir's logs. Missing files are an empty history; a
// line that does not parse (a torn last line) is passed over.
func readHistory(dir string) (*history, error) {
	h := &history{tally: newTally(), refused: newLoggedOnceSet(maxLoggedOnce), queued: newLoggedOnceSet(maxLoggedOnce), failing: newFailingSet()}
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
			if n := len(h.runs); n > 0 {
				h.runs[n-1].Skipped += e.QueuedAgain
			}
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
		run := r.Started
		if r == &before {
			run = time.Time{} // its start is known at the end
		}
		h.failing.note(e, run, failed)
		switch {
		case e.Kind == scheduler.KindRobots.String():
			r.RobotsFetches++
		case !fetched:
		case e.Kind == scheduler.KindRequisite.String():
			r.Requisites++
		case e.Kind == scheduler.KindSitemap.String():
			r.Sitemaps++
		default:
			r.Fetched++
		}
	})
	if err != nil {
		return nil, err
	}
	err = scanJSONL(filepath.Join(dir, crawllog.SkipLogFile), func(e crawllog.SkipEntry) {
		runOf(e.Time).Skipped++
		if e.Queued {
			// The URL stayed queued: this run fetches it, or defers it
			// again (not logged again for the same reason). Counted in
			// its run's share, not in the crawl's totals, which would
			// count it once per run.
			h.queued.add(queuedKey(e.Reason, e.URL))
			return
		}
		if loggedOnce(scheduler.Reason(e.Reason)) {
			h.refused.add(e.URL)
		}
		h.tally.refetch.forget(e.URL)
		h.tally.skip(e.Host, e.Reason)
	})
	if err != nil {
		return nil, err
	}
	if !before.Started.IsZero() {
		h.failing.rekey(time.Time{}, before.Started)
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
