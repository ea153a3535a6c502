package robotscache

import (
	"fmt"
	"time"
)

// The outcomes of a robots.txt fetch, as logged in robots.jsonl and kept
// in a Record.
const (
	OutcomeParsed      = "parsed"
	OutcomeUnavailable = "unavailable"
	OutcomeUnreachable = "unreachable"
	// OutcomeRedirect is the outcome of a redirect hop: its line in
	// robots.jsonl has no expiry, the fetch goes on at the target.
	OutcomeRedirect = "redirect"
)

// Record is what is persisted per authority in the frontier store: how
// its robots.txt was last fetched and what it said. Its JSON form is the
// crawl state's, read back by later runs.
type Record struct {
	Authority string    `json:"authority"`
	URL       string    `json:"url"`
	Status    int       `json:"status"`
	Outcome   string    `json:"outcome"`
	Policy    string    `json:"policy"` // parse, allow-all or disallow-all
	Body      []byte    `json:"body,omitempty"`
	Truncated bool      `json:"truncated,omitempty"`
	Redirects []string  `json:"redirects,omitempty"`
	Fetched   time.Time `json:"fetched"`
	Expires   time.Time `json:"expires"`
	Failures  int       `json:"failures,omitempty"`
	Error     string    `json:"error,omitempty"`
	// Stale is set when a previous good copy is used because the host is
	// unreachable now.
	Stale bool `json:"stale,omitempty"`
}

// Failure says why the fetch did not give a file: its error, or its HTTP
// status.
func (r Record) Failure() string {
	if r.Error != "" {
		return r.Error
	}
	return fmt.Sprintf("HTTP %d", r.Status)
}

// Store is the persistent part of the frontier the cache keeps its
// records in, as JSON. Its methods are called concurrently.
type Store interface {
	PutRobots(authority string, data []byte) error
	GetRobots(authority string) ([]byte, bool)
}
