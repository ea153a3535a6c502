package robotscache

import (
	"container/list"

	"github.com/crawlproject/crawl/robots"
)

// State is a robots.txt in use for one authority: its record, the parsed
// file and the group that applies to the crawler's agent. A State is not
// changed once built; safe for concurrent use.
type State struct {
	rec    Record
	robots *robots.Robots
	group  *robots.Group
	elem   *list.Element
	size   int64 // the bytes it holds: the record's body and the parsed file with its agent's matcher
}

// Record returns the record the state was built from (for a 4xx, with the
// policy the current robots.forbidden_disallows gives it).
func (s *State) Record() Record { return s.rec }

// Robots returns the parsed file (or the policy standing in for it).
func (s *State) Robots() *robots.Robots { return s.robots }

// Group returns the group that applies to the crawler's agent.
func (s *State) Group() *robots.Group { return s.group }

// Good reports whether the state can decide about URLs (it is not an
// unreachable file with no previous copy).
func (s *State) Good() bool { return s.rec.Outcome != OutcomeUnreachable || s.rec.Stale }

// Prepare builds the state cfg gives rec: parses its body (for a "parse"
// policy) and compiles the matcher of cfg.Agent's group, so that neither
// happens under the cache's lock, nor under the scheduler's when its
// verdict first refuses a URL (a 500 KB file of wildcard rules takes a
// third of a second), and so that the state's size is known when it is
// cached. The state is not cached.
func Prepare(cfg Config, rec Record) *State {
	st := parsed(cfg, rec)
	st.group.Prepare()
	// Footprint counts the parsed part of the body, which Parse shares
	// with rec.Body; what it did not parse is counted here.
	st.size = int64(st.robots.Footprint()+cap(rec.Body)-len(st.robots.Body())) + int64(len(rec.URL)+len(rec.Authority))
	return st
}

// parsed builds the state for rec, its matcher not yet compiled.
func parsed(cfg Config, rec Record) *State {
	st := &State{rec: rec}
	switch {
	case rec.Policy == "parse":
		// Parsed up to robots.max_bytes: the rules an operator asked to be
		// read are the rules applied (get reads one octet more, to know
		// whether the line at the limit is whole). A body cut shorter (by
		// a smaller robots.max_bytes of an earlier run, a timeout or a
		// disconnect) is parsed up to its last whole line only: its cut
		// last line is not a rule.
		limit := int(cfg.MaxBytes)
		if rec.Truncated && len(rec.Body) <= limit {
			limit = len(rec.Body) - 1
		}
		st.robots = robots.ParseLimit(rec.Body, max(limit, 1))
	case rec.Outcome == OutcomeUnavailable:
		// A 4xx: the policy is the current robots.forbidden_disallows's,
		// not that of the run that fetched it. A 401/403 under it
		// disallows all, and its verdicts say access was restricted.
		opts := robots.PolicyOptions{RestrictedDisallows: cfg.ForbiddenDisallows}
		st.robots = robots.FromFetch(rec.Status, nil, nil, opts)
		st.rec.Policy = "allow-all"
		if robots.Classify(rec.Status, nil, opts) == robots.Restricted {
			st.rec.Policy = "disallow-all"
		}
	case rec.Policy == "disallow-all":
		st.robots = robots.DisallowAll()
	default:
		st.robots = robots.AllowAll()
	}
	st.group = st.robots.Group(cfg.Agent)
	return st
}
