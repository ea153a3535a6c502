package crawler

import (
	"errors"
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

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
func endRun(f *jsonlFile, mode string, interrupted bool, duplicates, queuedAgain int) error {
	err := f.write(crawllog.RunEntry{Time: time.Now().UTC(), Event: crawllog.RunEnd, Mode: mode, Interrupted: interrupted,
		DuplicateLinks: duplicates, QueuedAgain: queuedAgain})
	return errors.Join(err, f.close())
}
