package crawler

import (
	"context"
	"fmt"
	"sync"

	"github.com/crawlproject/crawl/archive"
)

// What a WriteError failed to write.
const (
	WroteArchive  = "archive"
	WroteLog      = "log"
	WroteFrontier = "frontier"
)

// A WriteError is a write to the archive, a log or the frontier that
// failed (a full disk): Run stops the crawl at the first one and returns
// it. What could not be written stays queued: the URL whose records failed
// is not marked done, and no partial record or log line is left, so the
// same crawl run again once there is room fetches what is missing.
type WriteError struct {
	// What names the store: WroteArchive, WroteLog or WroteFrontier.
	What string
	// Err is the write's error; it names the file (an *os.PathError in
	// its chain, for every error of the file system).
	Err error
}

func (e *WriteError) Error() string {
	return fmt.Sprintf("crawler: %s write failed: %v", e.What, e.Err)
}

func (e *WriteError) Unwrap() error { return e.Err }

// archiver is what a crawl needs of its archive: an *archive.Writer, or a
// test's writer that fails.
type archiver interface {
	WriteExchange(archive.Exchange) error
	Close() error
}

// stopper holds the first failed write of a crawl and stops the crawl
// when it comes: the run's context is cancelled, which aborts the
// requests in flight as Ctrl-C does. Safe for concurrent use.
type stopper struct {
	mu     sync.Mutex
	err    *WriteError
	cancel context.CancelCauseFunc // nil outside Run
}

// arm makes the first failed write from now on cancel the run through
// cancel.
func (s *stopper) arm(cancel context.CancelCauseFunc) {
	s.mu.Lock()
	s.cancel = cancel
	s.mu.Unlock()
}

// fail records err, a failed write to what, and stops the crawl if it is
// the first; it returns the *WriteError of err.
func (c *crawl) fail(what string, err error) error {
	we := &WriteError{What: what, Err: err}
	c.stop.mu.Lock()
	defer c.stop.mu.Unlock()
	if c.stop.err == nil {
		c.stop.err = we
		if c.stop.cancel != nil {
			c.stop.cancel(we)
		}
	}
	return we
}

// failure returns the first failed write, or nil.
func (c *crawl) failure() error {
	c.stop.mu.Lock()
	defer c.stop.mu.Unlock()
	if c.stop.err == nil {
		return nil
	}
	return c.stop.err
}

// writeLine writes v as a line of f, stopping the crawl if it fails.
func (c *crawl) writeLine(f *jsonlFile, v any) {
	if err := f.write(v); err != nil {
		c.fail(WroteLog, err)
	}
}
