package redisfrontier

import (
	"errors"
	"fmt"

	"github.com/crawlproject/crawl/scheduler"
)

// wrap names a failed operation, wrapping scheduler.ErrStore so that the
// crawler stops as it does when its embedded store fails; a closed
// frontier gives scheduler.ErrClosed.
func (f *Frontier) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if f.ctx.Err() != nil {
		return scheduler.ErrClosed
	}
	if errors.Is(err, scheduler.ErrClosed) {
		return err
	}
	return fmt.Errorf("%w: redisfrontier: %s on %s: %w", scheduler.ErrStore, op, f.redacted, err)
}
