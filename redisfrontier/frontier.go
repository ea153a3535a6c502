package redisfrontier

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/scheduler"
)

// ErrLeaseLost says a lease was taken back (it expired: its holder was
// presumed dead): its request must not go out, and its outcome is not
// applied.
var ErrLeaseLost = errors.New("redisfrontier: lease taken back")

// Frontier is the crawl's frontier and per-host pace kept in Redis, shared
// by every process that opens the same URL and prefix. It has the methods
// the crawler uses of *scheduler.Scheduler, with the same semantics where
// they make sense shared. Its methods are safe for concurrent use.
type Frontier struct {
	rdb      redis.UniversalClient
	opts     Options
	cfg      scheduler.Config
	screen   *scheduler.Screen
	sc       scripts
	k        keys
	log      *slog.Logger
	redacted string
	defPace  string // the pace table of a host whose robots.txt is not read
	limited  string // limitedKinds, as the claim script reads it
	out      outage
	ctx      context.Context // ends at Close
	stop     context.CancelFunc
	wg       sync.WaitGroup
	started  time.Time
	hostname string // the machine's, for the heartbeat
	pid      int

	// pagesReached is set once the crawl's page counter was read at
	// Scope.MaxPages (see maxPagesFlag).
	pagesReached atomic.Bool

	mu     sync.Mutex
	closed bool
	held   map[*scheduler.Lease]*held
	local  localState
}

// Open dials the frontier at opts.URL, checks that the crawl stored there
// uses the same number of shards, loads the scripts and starts the
// process's heartbeat and lease renewer.
func Open(ctx context.Context, opts Options) (*Frontier, error) {
	opts = opts.withDefaults()
	if err := opts.Config.Validate(); err != nil {
		return nil, fmt.Errorf("redisfrontier: %w", err)
	}
	screen, err := scheduler.NewScreen(opts.Config)
	if err != nil {
		return nil, fmt.Errorf("redisfrontier: scope: %w", err)
	}
	rdb, err := NewClient(opts.URL)
	if err != nil {
		return nil, err
	}
	f := &Frontier{rdb: rdb, opts: opts, cfg: opts.Config, screen: screen, sc: loadScripts(), k: keys{opts.Prefix},
		log: opts.Logger, redacted: config.RedactURL(opts.URL), started: time.Now(), held: map[*scheduler.Lease]*held{}}
	f.local.init()
	f.defPace = encodePace(scheduler.NewPaceTable(&f.cfg, scheduler.Rules{}))
	f.limited = limitedKinds()
	f.hostname, _ = os.Hostname()
	f.pid = os.Getpid()
	if err := f.checkMeta(ctx); err != nil {
		rdb.Close()
		return nil, err
	}
	f.ctx, f.stop = context.WithCancel(context.Background())
	f.wg.Add(2)
	go f.renewLoop()
	go f.heartbeatLoop()
	return f, nil
}

// NewClient returns the client of a frontier URL: a Redis Cluster client
// when the URL lists addresses with addr=, else a single-server client.
// Errors show the URL redacted.
func NewClient(raw string) (redis.UniversalClient, error) {
	if _, err := url.Parse(raw); err != nil {
		return nil, fmt.Errorf("redisfrontier: frontier URL %s does not parse", config.RedactURL(raw))
	}
	if config.IsRedisCluster(raw) {
		o, err := redis.ParseClusterURL(raw)
		if err != nil {
			return nil, fmt.Errorf("redisfrontier: cluster URL %s: %s", config.RedactURL(raw), redactErr(err, raw))
		}
		return redis.NewClusterClient(o), nil
	}
	o, err := redis.ParseURL(raw)
	if err != nil {
		return nil, fmt.Errorf("redisfrontier: URL %s: %s", config.RedactURL(raw), redactErr(err, raw))
	}
	return redis.NewClient(o), nil
}

// redactErr is err's text without the URL's password.
func redactErr(err error, raw string) string {
	s := err.Error()
	if u, perr := url.Parse(raw); perr == nil && u.User != nil {
		if p, ok := u.User.Password(); ok && p != "" {
			s = strings.ReplaceAll(s, p, "xxxxx")
		}
	}
	return s
}

// openTimeout bounds the first contact with the server.
const openTimeout = 10 * time.Second

// checkMeta records the crawl's shard count, or refuses a crawl stored
// with another.
func (f *Frontier) checkMeta(ctx context.Context) error {
	var got string
	// The first contact is not retried: a server that cannot be reached
	// when the crawl starts is a wrong URL or a server not started, which
	// the user is told at once. Losses later on are waited out (do).
	ctx, cancel := context.WithTimeout(ctx, openTimeout)
	defer cancel()
	err := func(ctx context.Context) error {
		if err := f.rdb.HSetNX(ctx, f.k.meta(), "shards", Shards).Err(); err != nil {
			return err
		}
		f.rdb.HSetNX(ctx, f.k.meta(), "version", 1)
		var err error
		got, err = f.rdb.HGet(ctx, f.k.meta(), "shards").Result()
		return err
	}(ctx)
	if err != nil {
		return fmt.Errorf("redisfrontier: open %s: %w", f.redacted, err)
	}
	if got != strconv.Itoa(Shards) {
		return fmt.Errorf("redisfrontier: the crawl at %s uses %s shards, this build %d", f.redacted, got, Shards)
	}
	return nil
}

// Close stops the heartbeat and the renewer, gives back the leases still
// held (a crawl stopped before their finish), removes the process's
// heartbeat and closes the client. A lease given back is what an expired
// one is, at once: its URL returns to the front of its queue for the
// other processes, and a request it started and saw no answer to holds
// its host for start + timeout + pace. A lease that cannot be given back
// (Redis unreachable) expires.
func (f *Frontier) Close() error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	f.closed = true
	list := make([]*held, 0, len(f.held))
	for _, h := range f.held {
		list = append(list, h)
	}
	f.mu.Unlock()
	f.stop()
	f.wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	for _, h := range list {
		f.giveBack(ctx, h)
	}
	f.rdb.HDel(ctx, f.k.procs(), f.opts.ProcessID)
	return f.rdb.Close()
}

// closeTimeout bounds what Close asks of Redis.
const closeTimeout = 2 * time.Second

// giveBack returns a lease held at Close to its host.
func (f *Frontier) giveBack(ctx context.Context, h *held) {
	err := f.do(ctx, "give back", func(ctx context.Context) error {
		return f.sc.giveBack.Run(ctx, f.rdb, []string{f.k.shard(h.shard)}, h.id, h.token, ceilMs(f.cfg.RequestTimeout),
			f.cfg.PerHost, f.defPace, ceilMs(f.cfg.Margin)).Err()
	})
	if err != nil {
		f.log.Warn("frontier: lease not given back: it returns when it expires", "frontier", f.redacted, "url", h.lease.URL, "err", err)
	}
}

// isClosed reports whether Close was called.
func (f *Frontier) isClosed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed
}
