package crawler

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/crawlproject/crawl/crawllog"
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

// eventSink serialises calls to the event callback and logs each event.
type eventSink struct {
	mu    sync.Mutex
	fn    func(Event)
	log   *slog.Logger
	hosts map[string][]crawllog.HostEvent // EventHost history per host, for the report
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

func (s *eventSink) emit(e Event) {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	level := slog.LevelDebug
	switch e.Kind {
	case EventRobots, EventHost:
		level = slog.LevelInfo
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
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.Kind == EventHost {
		if s.hosts == nil {
			s.hosts = map[string][]crawllog.HostEvent{}
		}
		if len(s.hosts[e.Host]) < maxHostEvents {
			he := crawllog.HostEvent{Time: e.Time.UTC(), Kind: e.Reason, Detail: e.Detail}
			if !e.Until.IsZero() {
				u := e.Until.UTC()
				he.Until = &u
			}
			s.hosts[e.Host] = append(s.hosts[e.Host], he)
		}
	}
	if s.fn != nil {
		s.fn(e)
	}
}
