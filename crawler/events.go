package crawler

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robotscache"
	"github.com/crawlproject/crawl/scheduler"
)

// An EventKind names a decision the crawler narrates.
type EventKind string

// The kinds of Event.
const (
	EventRobots  EventKind = "robots"  // a robots.txt was fetched and applied
	EventFetch   EventKind = "fetch"   // a URL was fetched
	EventSkip    EventKind = "skip"    // a URL was not fetched
	EventHost    EventKind = "host"    // a host changed state (parked, backing off, deferred, dropped)
	EventSitemap EventKind = "sitemap" // URLs were found in a sitemap
)

// An Event is one decision, for narration (crawl demo) and the log.
type Event struct {
	Time     time.Time
	Kind     EventKind
	Host     string
	URL      string
	Status   int
	Reason   string // skip reason, robots outcome or host state
	Rule     string // deciding robots.txt rule, if any
	Line     int    // its line number
	Detail   string // human words
	Pace     time.Duration
	PaceRule string
	Until    time.Time // for parked, backing-off and deferred hosts
	Comments []string  // robots.txt Comment lines, for EventRobots
}

// The kinds of summary.json host events (crawllog.HostEvent.Kind).
const (
	hostEventParked      = "parked"       // outside its Visit-time windows, opening within max_wait
	hostEventBackoff     = "backoff"      // backing off after failures
	hostEventRetryAfter  = "retry-after"  // waiting for a Retry-After the host sent
	hostEventDeferred    = "deferred"     // cannot run within max_wait: left for a later run
	hostEventDropped     = "dropped"      // given up for this run
	hostEventRobotsRetry = "robots-retry" // robots.txt failed; it is fetched again at until
)

// eventSink serialises calls to the event callback and logs each event. It
// keeps each host's state changes for summary.json: a host state reaches it
// both from the leases that change it (observe) and from the progress
// watcher's polls (emit), and is recorded once.
type eventSink struct {
	mu    sync.Mutex
	fn    func(Event)
	log   *slog.Logger
	hosts map[string][]crawllog.HostEvent // EventHost history per host, for the report
	marks map[string]hostMark             // per host, the state last recorded or observed
}

// hostMark is a host state as last seen by the sink: state and until say
// which state it was, idx is its event in eventSink.hosts (-1 if none).
type hostMark struct {
	state string
	until time.Time
	idx   int
}

// maxHostEvents bounds the state changes kept per host.
const maxHostEvents = 200

func (s *eventSink) hostEvents() map[string][]crawllog.HostEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string][]crawllog.HostEvent, len(s.hosts))
	for h, evs := range s.hosts {
		out[h] = append([]crawllog.HostEvent(nil), evs...)
	}
	return out
}

// narrated reports whether a host state is one the operator must hear
// about (and summary.json records).
func narrated(state string) bool {
	switch state {
	case scheduler.StateParked, scheduler.StateBackingOff, scheduler.StateDeferred, scheduler.StateDropped:
		return true
	}
	return false
}

// hostEventKind is the summary.json kind of a host state; backoff is
// what set a back-off (scheduler.HostStatus.BackoffReason), "" if unknown.
func hostEventKind(state, backoff string) string {
	switch state {
	case scheduler.StateBackingOff:
		if strings.HasPrefix(backoff, "retry-after") {
			return hostEventRetryAfter
		}
		return hostEventBackoff
	case scheduler.StateDeferred:
		return hostEventDeferred
	case scheduler.StateDropped:
		return hostEventDropped
	}
	return state
}

// observe takes in a host's state after something changed it (a lease
// finished, its robots.txt was applied or failed): a state the operator
// must hear about is narrated and recorded unless it is the one last
// recorded, with the same until; any other state only clears that record,
// so that the host entering the state again is recorded again. A host
// deferred by a Retry-After gets a retry-after event before its deferral.
func (s *eventSink) observe(hs scheduler.HostStatus, ephemeral bool) {
	if !narrated(hs.State) {
		s.mu.Lock()
		if s.marks != nil {
			s.marks[hs.Authority] = hostMark{state: hs.State, idx: -1}
		}
		s.mu.Unlock()
		return
	}
	e := hostStateEvent(hs, ephemeral)
	kind := hostEventKind(hs.State, hs.BackoffReason)
	if !s.mark(e, kind) {
		return
	}
	if hs.State == scheduler.StateDeferred && strings.HasPrefix(hs.BackoffReason, "retry-after") {
		s.send(Event{Kind: EventHost, Host: hs.Authority, Reason: scheduler.StateBackingOff, Until: hs.NextAllowed,
			Pace: hs.Interval, PaceRule: hs.PaceSource,
			Detail: fmt.Sprintf("%s asked us to wait: %s", hs.Authority, hs.BackoffReason)}, hostEventRetryAfter, false)
	}
	s.send(e, kind, true)
}

// hostStateEvent is the EventHost narrating hs: until is the end of its
// deferral, parking or back-off; a drop has none (it is final for the run).
func hostStateEvent(hs scheduler.HostStatus, ephemeral bool) Event {
	e := Event{Kind: EventHost, Host: hs.Authority, Reason: hs.State, Until: hs.NextAllowed,
		Pace: hs.Interval, PaceRule: hs.PaceSource, Detail: describeHost(hs, ephemeral)}
	switch hs.State {
	case scheduler.StateDeferred:
		e.Until = hs.DeferredUntil
	case scheduler.StateDropped:
		e.Until = time.Time{}
	}
	return e
}

// mark records that e (an EventHost, to be recorded with kind) is the
// host's state now, and reports whether it is news: not the state last
// recorded for the host with the same until. Seen again with a more
// precise kind (a poll recorded "backoff", the lease knows it was a
// Retry-After), the recorded event takes that kind. A host still deferred
// is the same deferral whatever its until: the pace that defers it may
// move its next start (the answer of the request in flight when it was
// first seen deferred sets the adaptive pace and the last start), and
// the recorded event takes the new until and words instead of a second
// event being narrated.
func (s *eventSink) mark(e Event, kind string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.marks == nil {
		s.marks = map[string]hostMark{}
	}
	m, ok := s.marks[e.Host]
	sameDeferral := ok && m.state == e.Reason && e.Reason == scheduler.StateDeferred
	if sameDeferral || ok && m.state == e.Reason && m.until.Equal(e.Until) {
		evs := s.hosts[e.Host]
		recorded := m.idx >= 0 && m.idx < len(evs)
		if recorded && evs[m.idx].Kind == hostEventBackoff && kind == hostEventRetryAfter {
			evs[m.idx].Kind, evs[m.idx].Detail = kind, e.Detail
		}
		if sameDeferral && !m.until.Equal(e.Until) {
			m.until = e.Until
			s.marks[e.Host] = m
			if recorded {
				evs[m.idx].Until, evs[m.idx].Detail = utcOrNil(e.Until), e.Detail
			}
		}
		return false
	}
	s.marks[e.Host] = hostMark{state: e.Reason, until: e.Until, idx: -1}
	return true
}

// emit narrates e, which is not a host's state: those go through observe,
// which records each state once.
func (s *eventSink) emit(e Event) {
	s.send(e, "", false)
}

// send logs e, records it in the host's history (an EventHost as kind; a
// failed robots.txt with a next attempt as robots-retry) and passes it to
// the callback. main says e is the host's state whose mark is to point at
// its record.
func (s *eventSink) send(e Event, kind string, main bool) {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	s.logEvent(e)
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case e.Kind == EventHost:
		s.record(e, kind, main)
	case e.Kind == EventRobots && e.Reason == robotscache.OutcomeUnreachable && !e.Until.IsZero():
		s.record(e, hostEventRobotsRetry, false)
	}
	if s.fn != nil {
		s.fn(e)
	}
}

// logEvent logs e: robots.txt and host events at info level, the others
// (a page's, a skip's) at debug level, which a crawl seldom logs, so their
// attributes are built only when it does.
func (s *eventSink) logEvent(e Event) {
	level := slog.LevelDebug
	switch e.Kind {
	case EventRobots, EventHost:
		level = slog.LevelInfo
	}
	if !s.log.Enabled(context.Background(), level) {
		return
	}
	attrs := []any{"kind", string(e.Kind), "host", e.Host}
	if e.URL != "" {
		attrs = append(attrs, "url", e.URL)
	}
	if e.Status != 0 {
		attrs = append(attrs, "status", e.Status)
	}
	if e.Reason != "" {
		attrs = append(attrs, "reason", e.Reason)
	}
	if e.Rule != "" {
		attrs = append(attrs, "rule", e.Rule, "line", e.Line)
	}
	if e.PaceRule != "" {
		attrs = append(attrs, "pace", e.Pace.String(), "pace_rule", e.PaceRule)
	}
	if !e.Until.IsZero() {
		attrs = append(attrs, "until", e.Until.UTC().Format(time.RFC3339))
	}
	s.log.Log(context.Background(), level, e.Detail, attrs...)
}

// record appends e to its host's history as kind. s.mu is held.
func (s *eventSink) record(e Event, kind string, main bool) {
	if s.hosts == nil {
		s.hosts = map[string][]crawllog.HostEvent{}
	}
	if len(s.hosts[e.Host]) >= maxHostEvents {
		return
	}
	he := crawllog.HostEvent{Time: e.Time.UTC(), Kind: kind, Detail: e.Detail, Until: utcOrNil(e.Until)}
	s.hosts[e.Host] = append(s.hosts[e.Host], he)
	if m, ok := s.marks[e.Host]; ok && main {
		m.idx = len(s.hosts[e.Host]) - 1
		s.marks[e.Host] = m
	}
}

// utcOrNil is t as a host event's until holds it: in UTC, or nil for the
// zero time (no until).
func utcOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}
