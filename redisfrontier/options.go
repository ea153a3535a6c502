package redisfrontier

import (
	"log/slog"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// Options configures Open.
type Options struct {
	// URL is redis://[user:pass@]host:port/db or rediss://...; with addr=
	// query parameters, a Redis Cluster (db 0).
	URL string
	// Prefix starts every key (default "crawl:"); crawls sharing a server
	// or tests sharing a cluster use their own.
	Prefix string
	// ProcessID names this process in leases and heartbeats; unique per
	// process (default hostname-pid-random).
	ProcessID string
	// Out is this process's output directory, shown by Status.
	Out string
	// Config carries the pace terms, PerHost, MaxWait, RequestTimeout,
	// back-off, retries and scope.
	Config scheduler.Config
	// LeaseDuration is how long a lease lives without renewal (default
	// DefaultLeaseDuration); a lease is renewed every third of it while
	// its holder lives, so the URLs of a process that died go back to
	// their queues within one LeaseDuration.
	LeaseDuration time.Duration
	// Heartbeat is the interval of the process's heartbeat (default
	// DefaultHeartbeat).
	Heartbeat time.Duration
	// Logger receives the connection-loss messages (default slog.Default).
	Logger *slog.Logger
}

// withDefaults fills the zero fields.
func (o Options) withDefaults() Options {
	if o.Prefix == "" {
		o.Prefix = "crawl:"
	}
	if o.ProcessID == "" {
		o.ProcessID = NewProcessID()
	}
	if o.LeaseDuration <= 0 {
		o.LeaseDuration = DefaultLeaseDuration(o.Config.RequestTimeout)
	}
	if o.Heartbeat <= 0 {
		o.Heartbeat = DefaultHeartbeat
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// DefaultHeartbeat is the interval of a process's heartbeat unless
// Options sets another.
const DefaultHeartbeat = 2 * time.Second

// staleBeats is how many heartbeat intervals a process may stay silent
// and still count as alive.
const staleBeats = 3

// leaseSlack is how much longer than the request timeout a lease lives
// by default, and minLease the shortest default lease: room for the
// pace wait before the request, the answer's processing after it, and
// renewals late by a loaded machine.
const (
	leaseSlack = 5 * time.Second
	minLease   = 10 * time.Second
)

// DefaultLeaseDuration is the lease of a crawl whose requests time out
// after requestTimeout: requestTimeout + 5 s, at least 10 s. A URL held
// by a process that died is fetched again by another no sooner than
// this after its holder's last renewal.
func DefaultLeaseDuration(requestTimeout time.Duration) time.Duration {
	return max(requestTimeout+leaseSlack, minLease)
}
