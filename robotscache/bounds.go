package robotscache

// squeeze counts what the byte bound made the cache do beyond the count
// bound: files of hosts with queued URLs dropped, and dropped files
// parsed again from the crawl state.
type squeeze struct {
	busyDropped int
	reloaded    int
	dropped     map[string]bool // authorities whose file was dropped while busy, until reloaded
}

// put caches st as its authority's state, replacing any, and applies the
// cache's bounds. It returns st. l.mu is held.
func (l *Cache) put(st *State) *State {
	a := st.rec.Authority
	if old := l.states[a]; old != nil {
		l.drop(old)
	}
	if l.squeeze.dropped[a] {
		delete(l.squeeze.dropped, a)
		l.squeeze.reloaded++
	}
	st.elem = l.lru.PushFront(a)
	l.states[a] = st
	l.bytes += st.size
	l.evict()
	return st
}

// drop removes st from the cache. l.mu is held.
func (l *Cache) drop(st *State) {
	l.lru.Remove(st.elem)
	delete(l.states, st.rec.Authority)
	l.bytes -= st.size
}

// evict drops least recently used entries beyond the cache's bounds. Past
// robots.cache_size it drops only hosts with no queued or in-flight URLs.
// Past robots.cache_bytes it drops those first, then busy hosts too, all
// but the most recent entry (the one in use): a busy host's file is read
// again from the store when the host is next leased, which costs a parse
// but keeps memory bounded whatever the robots.txt files are. l.mu is held.
func (l *Cache) evict() {
	busy := func(a string) bool { return l.busy != nil && l.busy(a) }
	over := func() bool { return len(l.states) > l.cfg.CacheSize || l.bytes > l.cfg.CacheBytes }
	for e := l.lru.Back(); e != nil && e != l.lru.Front() && over(); {
		prev := e.Prev()
		if a := e.Value.(string); !busy(a) {
			l.drop(l.states[a])
		}
		e = prev
	}
	for e := l.lru.Back(); e != nil && e != l.lru.Front() && l.bytes > l.cfg.CacheBytes; {
		prev := e.Prev()
		l.dropBusy(e.Value.(string))
		e = prev
	}
}

// dropBusy drops the file of a host with queued URLs under the byte
// bound, counts it, and warns the first time. l.mu is held.
func (l *Cache) dropBusy(a string) {
	l.drop(l.states[a])
	l.squeeze.busyDropped++
	if l.squeeze.dropped == nil {
		l.squeeze.dropped = map[string]bool{}
	}
	l.squeeze.dropped[a] = true
	if l.squeeze.busyDropped == 1 && l.Warn != nil {
		l.Warn("robots cache full: parsed robots.txt files of hosts with queued URLs are dropped and parsed again when needed; raise robots.cache_bytes if the crawl slows",
			"cache_bytes", l.cfg.CacheBytes, "host", a)
	}
}

// Squeezed returns what robots.cache_bytes made the cache do so far:
// files of hosts with queued URLs dropped, and dropped files parsed again.
func (l *Cache) Squeezed() (busyDropped, reloaded int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.squeeze.busyDropped, l.squeeze.reloaded
}
