package scheduler

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// Bucket names of the bolt frontier.
var (
	bucketSeen   = []byte("seen")   // sha256(url)[:16] -> empty
	bucketQueue  = []byte("queue")  // hostID(4) seq(8) -> entry
	bucketHost   = []byte("host")   // authority -> JSON HostRecord
	bucketHostID = []byte("hostid") // authority -> hostID(4)
	bucketRobots = []byte("robots") // authority -> crawler's bytes
)

// BoltOptions tunes OpenBoltWith. The zero value is OpenBolt's choice.
type BoltOptions struct {
	// Sync makes every commit fsync the file. Without it (the default) a
	// commit reaches the OS page cache, which survives kill -9 but not power
	// loss.
	Sync bool
	// Timeout bounds the wait for another process's lock on the file; 0
	// means one second.
	Timeout time.Duration
}

// BoltStore is the durable Store: one bbolt file. It is safe for concurrent
// use; Apply calls are serialised.
type BoltStore struct {
	db    *bolt.DB
	bloom atomic.Pointer[bloom] // over the seen bucket; rebuilt when full
	hot   hotSeen               // recently confirmed seen keys, answered without a read

	mu     sync.Mutex // guards ids, names, nextID
	ids    map[string]uint32
	names  map[uint32]string
	nextID uint32
}

// OpenBolt opens (or creates) the frontier file at path without fsync on
// commit (see BoltOptions.Sync and the package documentation).
func OpenBolt(path string) (Store, error) {
	return OpenBoltWith(path, BoltOptions{})
}

// OpenBoltWith opens (or creates) the frontier file at path.
func OpenBoltWith(path string, o BoltOptions) (*BoltStore, error) {
	if o.Timeout <= 0 {
		o.Timeout = time.Second
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{
		Timeout:        o.Timeout,
		NoSync:         !o.Sync,
		NoGrowSync:     !o.Sync,
		NoFreelistSync: true,
		FreelistType:   bolt.FreelistMapType,
	})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("scheduler: open frontier %s: %w (%w)", path, ErrStoreLocked, err)
	}
	if err != nil {
		return nil, fmt.Errorf("scheduler: open frontier %s: %w", path, err)
	}
	s := &BoltStore{db: db, ids: map[string]uint32{}, names: map[uint32]string{}, nextID: 1}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketSeen, bucketQueue, bucketHost, bucketHostID, bucketRobots} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		f, err := loadBloom(tx.Bucket(bucketSeen))
		if err != nil {
			return err
		}
		s.bloom.Store(f)
		return tx.Bucket(bucketHostID).ForEach(func(k, v []byte) error {
			if len(v) != 4 {
				return fmt.Errorf("bad host id for %q", k)
			}
			id := binary.BigEndian.Uint32(v)
			s.ids[string(k)] = id
			s.names[id] = string(k)
			s.nextID = max(s.nextID, id+1)
			return nil
		})
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("scheduler: open frontier %s: %w", path, err)
	}
	return s, nil
}

// loadBloom builds a filter holding every key of the seen bucket, sized for
// twice as many.
func loadBloom(b *bolt.Bucket) (*bloom, error) {
	f := newBloom(max(2*int64(b.Stats().KeyN), bloomMinCap))
	err := b.ForEach(func(k, _ []byte) error {
		if len(k) == 16 {
			f.add(k)
		}
		return nil
	})
	return f, err
}

func seenKey(url string) []byte {
	h := sha256.Sum256([]byte(url))
	return h[:16]
}

// hostID returns authority's id, creating it in tx if create is set.
func (s *BoltStore) hostID(tx *bolt.Tx, authority string, create bool) (uint32, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.ids[authority]; ok {
		return id, true, nil
	}
	if !create {
		return 0, false, nil
	}
	id := s.nextID
	var v [4]byte
	binary.BigEndian.PutUint32(v[:], id)
	if err := tx.Bucket(bucketHostID).Put([]byte(authority), v[:]); err != nil {
		return 0, false, err
	}
	s.nextID++
	s.ids[authority] = id
	s.names[id] = authority
	return id, true, nil
}

func entryKey(id uint32, seq uint64) []byte {
	var k [12]byte
	binary.BigEndian.PutUint32(k[:4], id)
	binary.BigEndian.PutUint64(k[4:], seq)
	return k[:]
}

// Entry flags besides the kind in the low 4 bits.
const (
	flagSeed     = 0x10 // Entry.Seed
	flagRelative = 0x20 // URL is stored without its origin
	flagParentRe = 0x40 // Parent is stored without the URL's origin
	// flagRedirects: a uvarint Redirects follows Attempts. Entries written
	// before the field existed lack the flag and read as 0 redirects.
	flagRedirects = 0x80
)

func encodeEntry(e Entry) []byte {
	b := make([]byte, 0, 8+len(e.URL)+len(e.Parent))
	flags := byte(e.Kind) & 0x0f
	if e.Seed {
		flags |= flagSeed
	}
	origin := originOf(e.Authority)
	u, parent := e.URL, e.Parent
	if rest, ok := strings.CutPrefix(u, origin); ok && strings.HasPrefix(rest, "/") {
		u = rest
		flags |= flagRelative
	}
	if rest, ok := strings.CutPrefix(parent, origin); ok && strings.HasPrefix(rest, "/") {
		parent = rest
		flags |= flagParentRe
	}
	if e.Redirects > 0 {
		flags |= flagRedirects
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, uint64(e.Depth))
	b = binary.AppendUvarint(b, uint64(e.Attempts))
	if e.Redirects > 0 {
		b = binary.AppendUvarint(b, uint64(e.Redirects))
	}
	b = binary.AppendUvarint(b, uint64(len(u)))
	b = append(b, u...)
	return append(b, parent...)
}

var errBadEntry = errors.New("scheduler: corrupt frontier entry")

func decodeEntry(authority string, k, v []byte) (Entry, error) {
	e := Entry{Authority: authority, Seq: binary.BigEndian.Uint64(k[4:])}
	if len(v) < 1 {
		return e, errBadEntry
	}
	e.Kind = Kind(v[0] & 0x0f)
	e.Seed = v[0]&flagSeed != 0
	relative, parentRe := v[0]&flagRelative != 0, v[0]&flagParentRe != 0
	redirects := v[0]&flagRedirects != 0
	v = v[1:]
	var vals [4]uint64 // depth, attempts, [redirects,] URL length
	fields := vals[:3]
	if redirects {
		fields = vals[:4]
	}
	for i := range fields {
		x, n := binary.Uvarint(v)
		if n <= 0 || x > 1<<31 {
			return e, errBadEntry
		}
		fields[i] = x
		v = v[n:]
	}
	ulen := fields[len(fields)-1]
	if ulen > uint64(len(v)) {
		return e, errBadEntry
	}
	e.Depth, e.Attempts = int(fields[0]), int(fields[1])
	if redirects {
		e.Redirects = int(fields[2])
	}
	e.URL = string(v[:ulen])
	if relative {
		e.URL = originOf(authority) + e.URL
	}
	e.Parent = string(v[ulen:])
	if parentRe {
		e.Parent = originOf(authority) + e.Parent
	}
	return e, nil
}

// Apply performs ops in one bolt transaction. Unless the batch drops a
// queue, the ops are applied sorted by bucket and key (stably, so ops on one
// key keep their order): B+tree pages are then visited in order, which
// makes large group commits markedly cheaper.
func (s *BoltStore) Apply(ops []Op) error {
	ks := sortOps(ops)
	var rebuilt *bloom
	f := s.bloom.Load()
	err := s.db.Update(func(tx *bolt.Tx) error {
		seen, queue, host := tx.Bucket(bucketSeen), tx.Bucket(bucketQueue), tx.Bucket(bucketHost)
		queue.FillPercent = 0.9
		for i := range ks {
			op := &ops[ks[i].idx]
			var err error
			switch op.Code {
			case OpSeen:
				k := ks[i].seen[:]
				f.add(k) // before the commit: at worst a false positive
				err = seen.Put(k, nil)
			case OpEnqueue:
				var id uint32
				id, _, err = s.hostID(tx, op.Entry.Authority, true)
				if err == nil {
					err = queue.Put(entryKey(id, op.Entry.Seq), encodeEntry(op.Entry))
				}
			case OpDequeue:
				id, ok, _ := s.hostID(tx, op.Entry.Authority, false)
				if ok {
					err = queue.Delete(entryKey(id, op.Entry.Seq))
				}
			case OpHost:
				var v []byte
				v, err = json.Marshal(op.Host)
				if err == nil {
					err = host.Put([]byte(op.Host.Authority), v)
				}
			case OpDropQueue:
				id, ok, _ := s.hostID(tx, op.Entry.Authority, false)
				if ok {
					prefix := entryKey(id, 0)[:4]
					c := queue.Cursor()
					for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Seek(prefix) {
						if err = c.Delete(); err != nil {
							break
						}
					}
				}
			}
			if err != nil {
				return err
			}
		}
		if f.full() {
			var err error
			rebuilt, err = loadBloom(seen)
			return err
		}
		return nil
	})
	if rebuilt != nil && err == nil {
		s.bloom.Store(rebuilt)
	}
	if err != nil {
		// Host ids created in a failed transaction must be forgotten.
		s.reloadIDs()
		return fmt.Errorf("scheduler: write frontier: %w", err)
	}
	return nil
}

// sortedOp is one op's place in the order of Apply.
type sortedOp struct {
	group uint8
	seen  [16]byte // seen-set key (group 0)
	key   string   // authority (groups 1 and 2)
	seq   uint64
	idx   int // position in the batch: ties keep the batch order
}

// sortOps returns the order in which to apply ops: by bucket and key, ties
// in batch order; or the batch order itself if it contains an OpDropQueue
// (whose place in the order matters).
func sortOps(ops []Op) []sortedOp {
	ks := make([]sortedOp, len(ops))
	drop := false
	for i := range ops {
		op := &ops[i]
		k := &ks[i]
		k.idx = i
		switch op.Code {
		case OpDropQueue:
			drop = true
		case OpSeen:
			h := sha256.Sum256([]byte(op.URL))
			k.seen = [16]byte(h[:16])
		case OpEnqueue, OpDequeue:
			k.group, k.key, k.seq = 1, op.Entry.Authority, op.Entry.Seq
		default:
			k.group, k.key = 2, op.Host.Authority
		}
	}
	if drop {
		return ks
	}
	slices.SortFunc(ks, func(a, b sortedOp) int {
		if a.group != b.group {
			return int(a.group) - int(b.group)
		}
		if a.group == 0 {
			if c := bytes.Compare(a.seen[:], b.seen[:]); c != 0 {
				return c
			}
		} else {
			if c := strings.Compare(a.key, b.key); c != 0 {
				return c
			}
			if c := cmp.Compare(a.seq, b.seq); c != 0 {
				return c
			}
		}
		return a.idx - b.idx
	})
	return ks
}

func (s *BoltStore) reloadIDs() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ids, s.names, s.nextID = map[string]uint32{}, map[uint32]string{}, 1
	_ = s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketHostID).ForEach(func(k, v []byte) error {
			id := binary.BigEndian.Uint32(v)
			s.ids[string(k)] = id
			s.names[id] = string(k)
			s.nextID = max(s.nextID, id+1)
			return nil
		})
	})
}

// Seen reports whether url is in the seen set.
func (s *BoltStore) Seen(url string) (bool, error) {
	k := seenKey(url)
	if !s.bloom.Load().has(k) {
		return false, nil
	}
	if s.hot.has(k) {
		return true, nil
	}
	var ok bool
	err := s.db.View(func(tx *bolt.Tx) error {
		ok = tx.Bucket(bucketSeen).Get(k) != nil
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("scheduler: read seen set: %w", err)
	}
	if ok {
		s.hot.add(k)
	}
	return ok, nil
}

// Queue returns up to limit entries of authority with Seq > after.
func (s *BoltStore) Queue(authority string, after uint64, limit int) ([]Entry, error) {
	id, ok, _ := s.hostID(nil, authority, false)
	if !ok {
		return nil, nil
	}
	var out []Entry
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketQueue).Cursor()
		prefix := entryKey(id, 0)[:4]
		for k, v := c.Seek(entryKey(id, after+1)); k != nil && bytes.HasPrefix(k, prefix) && len(out) < limit; k, v = c.Next() {
			e, err := decodeEntry(authority, k, v)
			if err != nil {
				return err
			}
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("scheduler: read queue of %s: %w", authority, err)
	}
	return out, nil
}

func (s *BoltStore) name(k []byte) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.names[binary.BigEndian.Uint32(k[:4])]
}

// Queues summarises every non-empty queue.
func (s *BoltStore) Queues() (map[string]QueueInfo, error) {
	out := map[string]QueueInfo{}
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketQueue).ForEach(func(k, _ []byte) error {
			a := s.name(k)
			qi := out[a]
			qi.Len++
			qi.LastSeq = max(qi.LastSeq, binary.BigEndian.Uint64(k[4:]))
			out[a] = qi
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("scheduler: read queues: %w", err)
	}
	return out, nil
}

// Hosts returns all host records.
func (s *BoltStore) Hosts() ([]HostRecord, error) {
	var out []HostRecord
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketHost).ForEach(func(k, v []byte) error {
			var h HostRecord
			if err := json.Unmarshal(v, &h); err != nil {
				return fmt.Errorf("host %s: %w", k, err)
			}
			out = append(out, h)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("scheduler: read hosts: %w", err)
	}
	return out, nil
}

// PutRobots stores data for authority.
func (s *BoltStore) PutRobots(authority string, data []byte) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketRobots).Put([]byte(authority), data)
	})
	if err != nil {
		return fmt.Errorf("scheduler: store robots of %s: %w", authority, err)
	}
	return nil
}

// GetRobots returns what PutRobots stored for authority; a read error
// counts as absent.
func (s *BoltStore) GetRobots(authority string) ([]byte, bool) {
	var out []byte
	var ok bool
	_ = s.db.View(func(tx *bolt.Tx) error {
		if v := tx.Bucket(bucketRobots).Get([]byte(authority)); v != nil {
			out, ok = bytes.Clone(v), true
		}
		return nil
	})
	return out, ok
}

// Size returns the frontier file's size in bytes.
func (s *BoltStore) Size() (int64, error) {
	var n int64
	err := s.db.View(func(tx *bolt.Tx) error { n = tx.Size(); return nil })
	return n, err
}

// Close closes the file.
func (s *BoltStore) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("scheduler: close frontier: %w", err)
	}
	return nil
}
