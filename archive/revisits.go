package archive

// maxDedupeEntries bounds the payload-digest table used for revisit
// records (some 16 MiB): it remembers the payloads archived or met again
// most recently, and a payload it has forgotten is archived in full again.
const maxDedupeEntries = 1 << 16

// revisitRef identifies the first response that stored a payload.
type revisitRef struct {
	uri, date, id string
}

// revisitTable maps payload digests to the response that stored each, for
// at most max digests in two generations: new digests go to the current
// one; when it holds max/2 it becomes the old one and the old one is
// dropped; a digest found in the old one moves to the current one. So the
// payloads met most recently stay, as a site's shared images and
// stylesheets do, in bounded memory. Callers serialise its use (w.mu).
type revisitTable struct {
	cur, old map[string]revisitRef
	max      int
}

func newRevisitTable(max int) revisitTable {
	return revisitTable{cur: map[string]revisitRef{}, old: map[string]revisitRef{}, max: max}
}

// lookup returns the response that stored digest's payload, if remembered.
func (t *revisitTable) lookup(digest string) (revisitRef, bool) {
	if r, ok := t.cur[digest]; ok {
		return r, true
	}
	r, ok := t.old[digest]
	if ok {
		delete(t.old, digest)
		t.put(digest, r)
	}
	return r, ok
}

// remember records that ref stored digest's payload, unless a response
// that stored it is remembered already.
func (t *revisitTable) remember(digest string, ref revisitRef) {
	if _, ok := t.lookup(digest); !ok {
		t.put(digest, ref)
	}
}

func (t *revisitTable) put(digest string, ref revisitRef) {
	if len(t.cur) >= max(t.max/2, 1) {
		t.old, t.cur = t.cur, make(map[string]revisitRef, len(t.cur))
	}
	t.cur[digest] = ref
}
