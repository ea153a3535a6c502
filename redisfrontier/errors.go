package redisfrontier

import (
	"context"
	"errors"
	"fmt"

	"github.com/crawlproject/crawl/scheduler"
)

// call runs op through do and wraps its failure as the operation what.
func (f *Frontier) call(ctx context.Context, what string, op func(context.Context) error) error {
	return f.wrap(what, f.do(ctx, what, op))
}

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
