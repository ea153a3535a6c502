package scheduler

import (
	"errors"
	"slices"
	"sync"
)

// MemStore is an in-memory Store for tests and short crawls: nothing
// survives the process. The zero value is not usable; call NewMemStore.
// It is safe for concurrent use.
type MemStore struct {
	mu     sync.Mutex
	seen   map[string]struct{}
	queues map[string]map[uint64]Entry
	hosts  map[string]HostRecord
	robots map[string][]byte
	closed bool
}

// NewMemStore returns an empty in-memory store.
func NewMemStore() *MemStore {
	return &MemStore{
		seen:   map[string]struct{}{},
		queues: map[string]map[uint64]Entry{},
		hosts:  map[string]HostRecord{},
		robots: map[string][]byte{},
	}
}

var errStoreClosed = errors.New("scheduler: store closed")

// Apply performs ops in order.
func (m *MemStore) Apply(ops []Op) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return errStoreClosed
	}
	put := func(t map[string]map[uint64]Entry, e Entry) {
		q := t[e.Authority]
		if q == nil {
			q = map[uint64]Entry{}
			t[e.Authority] = q
		}
		q[e.Seq] = e
	}
	del := func(t map[string]map[uint64]Entry, e Entry) {
		if q := t[e.Authority]; q != nil {
			delete(q, e.Seq)
			if len(q) == 0 {
				delete(t, e.Authority)
			}
		}
	}
	for _, op := range ops {
		switch op.Code {
		case OpSeen:
			m.seen[op.URL] = struct{}{}
		case OpEnqueue:
			put(m.queues, op.Entry)
		case OpDequeue:
			del(m.queues, op.Entry)
		case OpHost:
			m.hosts[op.Host.Authority] = op.Host
		case OpDropQueue:
			delete(m.queues, op.Entry.Authority)
		}
	}
	return nil
}

// Seen reports whether url is in the seen set.
func (m *MemStore) Seen(url string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.seen[url]
	return ok, nil
}

// Queue returns up to limit entries of authority with Seq > after.
func (m *MemStore) Queue(authority string, after uint64, limit int) ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Entry
	for seq, e := range m.queues[authority] {
		if seq > after {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b Entry) int {
		switch {
		case a.Seq < b.Seq:
			return -1
		case a.Seq > b.Seq:
			return 1
		}
		return 0
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Queues summarises every non-empty queue.
func (m *MemStore) Queues() (map[string]QueueInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]QueueInfo{}
	for a, q := range m.queues {
		qi := out[a]
		qi.Len = len(q)
		for seq := range q {
			qi.LastSeq = max(qi.LastSeq, seq)
		}
		out[a] = qi
	}
	return out, nil
}

// Hosts returns all host records.
func (m *MemStore) Hosts() ([]HostRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]HostRecord, 0, len(m.hosts))
	for _, h := range m.hosts {
		out = append(out, h)
	}
	return out, nil
}

// PutRobots stores data for authority.
func (m *MemStore) PutRobots(authority string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return errStoreClosed
	}
	m.robots[authority] = slices.Clone(data)
	return nil
}

// GetRobots returns what PutRobots stored for authority.
func (m *MemStore) GetRobots(authority string) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.robots[authority]
	return slices.Clone(d), ok
}

// Close marks the store closed; later writes fail and reads still work.
func (m *MemStore) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.closed = true
	return nil
}
