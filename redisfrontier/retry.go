package redisfrontier

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// outage tracks a loss of the connection to Redis, so that it is logged
// once when it starts and once when it ends.
type outage struct {
	mu   sync.Mutex
	down bool
}

// transient reports whether err is a loss of the connection or a server
// not ready yet (loading, failing over, a cluster reconfiguring): the call
// is retried. A script's own error or a closed client is not.
func transient(err error) bool {
	if err == nil || errors.Is(err, redis.ErrClosed) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return true
	}
	s := err.Error()
	for _, p := range []string{"LOADING", "CLUSTERDOWN", "TRYAGAIN", "MASTERDOWN", "READONLY", "connection refused", "connection reset", "broken pipe", "pool timeout", "i/o timeout"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// do runs op until it succeeds, fails for good, or ctx ends: a transient
// failure is retried after 100 ms, doubling up to 5 s, and the outage is
// logged ("frontier unreachable, retrying", then "frontier back").
func (f *Frontier) do(ctx context.Context, what string, op func(context.Context) error) error {
	wait := 100 * time.Millisecond
	for {
		err := op(ctx)
		if !transient(err) {
			if err == nil || errors.Is(err, redis.Nil) {
				f.back()
			}
			return err
		}
		f.unreachable(what, err)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, 5*time.Second)
	}
}

func (f *Frontier) unreachable(what string, err error) {
	f.out.mu.Lock()
	defer f.out.mu.Unlock()
	if !f.out.down {
		f.out.down = true
		f.log.Warn("frontier unreachable, retrying", "frontier", f.redacted, "op", what, "err", err)
	}
}

func (f *Frontier) back() {
	f.out.mu.Lock()
	defer f.out.mu.Unlock()
	if f.out.down {
		f.out.down = false
		f.log.Info("frontier back", "frontier", f.redacted)
	}
}
