package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
	"testing"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawler"
)

// TestWriteFailureLine protects the one line a crawl stopped by a failed
// write ends with: what could not be written, the file and the error once
// each, and what to do; the error stays one errors.Is finds.
func TestWriteFailureLine(t *testing.T) {
	cases := []struct {
		err  *crawler.WriteError
		want string
	}{
		{&crawler.WriteError{What: crawler.WroteArchive, Err: fmt.Errorf("archive: %w", &os.PathError{Op: "write", Path: "/out/archive/crawl-1.warc.gz", Err: syscall.ENOSPC})},
			"archive write failed: /out/archive/crawl-1.warc.gz: no space left on device; the crawl stopped, and what was not written is still queued: free space and run the same command again"},
		{&crawler.WriteError{What: crawler.WroteFrontier, Err: errors.New("scheduler: frontier store failed: file resize error: no space left on device")},
			"frontier write failed: scheduler: frontier store failed: file resize error: no space left on device; the crawl stopped, and what was not written is still queued: free space and run the same command again"},
	}
	for _, tc := range cases {
		err := reportRun(context.Background(), config.Default(), nil, tc.err, nil)
		if err == nil || err.Error() != tc.want {
			t.Errorf("line %q, want %q", err, tc.want)
		}
		if !errors.Is(err, tc.err) {
			t.Errorf("%v does not wrap the crawl's error", err)
		}
	}
}
