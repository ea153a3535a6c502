package scheduler

import (
	"time"

	"github.com/crawlproject/crawl/robots"
)

// An Entry is one queued or leased URL in a Store, keyed by Authority and
// Seq. Seq orders a host's queue and is unique per host.
type Entry struct {
	Authority string
	Seq       uint64
	URL       string
	Parent    string
	Depth     int
	Kind      Kind
	Seed      bool
	Attempts  int
	Redirects int // redirect hops that led to URL (see Candidate.Redirects)
}

// A HostRecord is the durable pacing state of one host: enough to keep its
// pace across a restart.
type HostRecord struct {
	Authority   string
	LastStart   time.Time // start of the latest request (persisted before it is sent)
	NextAllowed time.Time // earliest next start when LastStart was recorded
	// Unanswered says the end of a request was not seen (with
	// Config.PerHost above 1, of any of those in flight): the process
	// stopped while it was in flight (kill -9, or Ctrl-C, which
	// abandons it while the server may still be working on it). The next
	// Open counts it as lasting Config.RequestTimeout.
	Unanswered bool
	Interval   time.Duration // interval in force at LastStart
	// RulesPace says Interval came from the host's robots.txt pace
	// (Crawl-delay or Request-rate), not the 1996 default: only then does
	// a later run take it as the host's pace until robots.txt is read.
	RulesPace    bool
	BackoffUntil time.Time // no request before this (back-off or Retry-After)
	// BackoffSource names what set BackoffUntil ("retry-after 15s
	// (Retry-After: 15)", "back-off 2s"), so a later run reports it.
	BackoffSource string
	// VisitTimes are the Visit-time windows of the host's latest rules: a
	// later run keeps them until it reads robots.txt again.
	VisitTimes []robots.Window
	Backoff    time.Duration // current back-off interval; 0 when healthy
	Streak     int           // consecutive error responses (for back-off)
	Failures   int           // consecutive failed leases (for dropping the host)
	Adaptive   time.Duration // FetchTimeFactor x last response time
	Fetched    int           // leases finished
	Accepted   int           // URLs accepted by Add (informational)
	Pages      int           // pages and requisites fetched: non-redirect responses (for MaxPagesPerHost)
	Seed       bool          // the host has a seed URL
	Dropped    bool          // the host was given up
	DropReason string
}

// An OpCode says what one Op does.
type OpCode uint8

// The operations a Store applies.
const (
	OpSeen      OpCode = iota + 1 // add Op.URL to the seen set
	OpEnqueue                     // add Op.Entry to its host's queue
	OpDequeue                     // remove Op.Entry (by Authority, Seq) from the queue
	OpHost                        // store Op.Host
	OpDropQueue                   // remove every queued entry of Op.Entry.Authority
)

// An Op is one mutation of a Store.
type Op struct {
	Code  OpCode
	URL   string
	Entry Entry
	Host  HostRecord
}

// QueueInfo summarises one host's stored queue.
type QueueInfo struct {
	Len     int    // entries queued
	LastSeq uint64 // highest Seq queued; 0 if none
}

// A Store is the durable frontier: per-host queues, the seen set, each
// host's pacing state and a slot per host for the crawler's robots cache.
// In-flight leases need no store of their own: a leased entry stays in its
// queue until the lease is finished, so after a crash it is simply queued
// (and fetched at most once more). Implementations must be safe for concurrent use;
// the scheduler serialises Apply calls, so an implementation may assume one
// writer.
type Store interface {
	// Apply performs ops atomically and in order.
	Apply(ops []Op) error
	// Seen reports whether url was added to the seen set.
	Seen(url string) (bool, error)
	// Queue returns up to limit entries of authority's queue with Seq > after,
	// in Seq order.
	Queue(authority string, after uint64, limit int) ([]Entry, error)
	// Queues summarises every non-empty queue.
	Queues() (map[string]QueueInfo, error)
	// Hosts returns all host records.
	Hosts() ([]HostRecord, error)
	// PutRobots stores the crawler's encoded robots cache entry.
	PutRobots(authority string, data []byte) error
	// GetRobots returns what PutRobots stored, if anything.
	GetRobots(authority string) ([]byte, bool)
	// Close releases the store.
	Close() error
}
