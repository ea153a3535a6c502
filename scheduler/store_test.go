package scheduler

import (
	"maps"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// storeImpls are the Store implementations every store test runs against.
func storeImpls(t *testing.T) map[string]func() Store {
	return map[string]func() Store{
		"mem": func() Store { return NewMemStore() },
		"bolt": func() Store {
			s, err := OpenBolt(filepath.Join(t.TempDir(), "frontier.db"))
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
	}
}

func entry(a string, seq uint64, u string) Entry {
	parent := "http://p/" // another origin: stored whole
	if seq%2 == 0 {
		parent = originOf(a) + "/parent" // same origin: stored relative
	}
	return Entry{Authority: a, Seq: seq, URL: u, Parent: parent, Depth: int(seq), Kind: KindRequisite, Seed: seq == 1, Attempts: int(seq % 3), Redirects: int(seq % 4)}
}

func TestStoreSuite(t *testing.T) {
	for name, open := range storeImpls(t) {
		t.Run(name, func(t *testing.T) {
			s := open()
			defer s.Close()
			const a, b = "http://a:80", "https://b:443"
			ops := []Op{{Code: OpSeen, URL: "http://a/1"}}
			for i := uint64(1); i <= 5; i++ {
				ops = append(ops, Op{Code: OpEnqueue, Entry: entry(a, i, "http://a/"+string(rune('0'+i)))})
			}
			ops = append(ops,
				Op{Code: OpEnqueue, Entry: entry(b, 7, "https://b/7")},
				Op{Code: OpDequeue, Entry: Entry{Authority: a, Seq: 1}},
				Op{Code: OpEnqueue, Entry: entry(b, 9, "https://b/9")},
				Op{Code: OpDequeue, Entry: Entry{Authority: b, Seq: 9}}, // enqueued and dequeued in one batch
				Op{Code: OpHost, Host: HostRecord{Authority: a, LastStart: epoch, Interval: 10 * time.Second, Fetched: 3, Seed: true,
					RulesPace: true, BackoffUntil: epoch.Add(maxRetryAfter), BackoffSource: "retry-after 15s (Retry-After: 15)",
					VisitTimes: []robots.Window{{From: 720, To: 779, Line: 4}}}},
			)
			if err := s.Apply(ops); err != nil {
				t.Fatal(err)
			}
			if ok, _ := s.Seen("http://a/1"); !ok {
				t.Error("seen set lost http://a/1")
			}
			if ok, _ := s.Seen("http://a/2"); ok {
				t.Error("seen set has http://a/2")
			}
			q, err := s.Queue(a, 0, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(q) != 4 || q[0].Seq != 2 || q[3].Seq != 5 {
				t.Fatalf("queue %+v", q)
			}
			if want := entry(a, 2, "http://a/2"); q[0] != want { // relative encoding round trip
				t.Errorf("entry round trip %+v, want %+v", q[0], want)
			}
			if q, _ := s.Queue(a, 3, 1); len(q) != 1 || q[0].Seq != 4 {
				t.Errorf("queue after 3 limit 1: %+v", q)
			}
			if q, _ := s.Queue("http://none:80", 0, 5); len(q) != 0 {
				t.Errorf("unknown host queue %+v", q)
			}
			qs, _ := s.Queues()
			want := map[string]QueueInfo{a: {Len: 4, LastSeq: 5}, b: {Len: 1, LastSeq: 7}}
			if !maps.Equal(qs, want) {
				t.Errorf("queues %v, want %v", qs, want)
			}
			hs, _ := s.Hosts()
			if len(hs) != 1 || !hs[0].LastStart.Equal(epoch) || hs[0].Interval != 10*time.Second || !hs[0].Seed ||
				!hs[0].RulesPace || !hs[0].BackoffUntil.Equal(epoch.Add(maxRetryAfter)) || hs[0].BackoffSource != "retry-after 15s (Retry-After: 15)" ||
				!slices.Equal(hs[0].VisitTimes, []robots.Window{{From: 720, To: 779, Line: 4}}) {
				t.Errorf("hosts %+v", hs)
			}
			if err := s.Apply([]Op{{Code: OpDropQueue, Entry: Entry{Authority: a}}}); err != nil {
				t.Fatal(err)
			}
			if q, _ := s.Queue(a, 0, 10); len(q) != 0 {
				t.Errorf("queue after drop %+v", q)
			}
			if q, _ := s.Queue(b, 0, 10); len(q) != 1 {
				t.Errorf("drop of a touched b: %+v", q)
			}
			if _, ok := s.GetRobots(a); ok {
				t.Error("robots before put")
			}
			if err := s.PutRobots(a, []byte("entry")); err != nil {
				t.Fatal(err)
			}
			if d, ok := s.GetRobots(a); !ok || string(d) != "entry" {
				t.Errorf("robots %q %v", d, ok)
			}
		})
	}
}

func TestBoltStorePersistsAcrossReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.db")
	s, err := OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Apply([]Op{{Code: OpSeen, URL: "u"}, {Code: OpEnqueue, Entry: entry("h", 1, "u")}}); err != nil {
		t.Fatal(err)
	}
	s.PutRobots("h", []byte{1, 2})
	if _, err := OpenBoltWith(path, BoltOptions{Timeout: 50 * time.Millisecond}); err == nil {
		t.Fatal("a second open of a locked frontier succeeded")
	}
	s.Close()
	s2, err := OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if ok, _ := s2.Seen("u"); !ok {
		t.Error("seen lost")
	}
	if q, _ := s2.Queue("h", 0, 9); len(q) != 1 || q[0].URL != "u" {
		t.Errorf("queue lost: %+v", q)
	}
	if d, ok := s2.GetRobots("h"); !ok || !slices.Equal(d, []byte{1, 2}) {
		t.Error("robots lost")
	}
	// New hosts after reopen get fresh ids.
	if err := s2.Apply([]Op{{Code: OpEnqueue, Entry: entry("h2", 1, "v")}}); err != nil {
		t.Fatal(err)
	}
	if q, _ := s2.Queue("h", 0, 9); len(q) != 1 {
		t.Errorf("host ids collided: %+v", q)
	}
}

// TestEntryEncodingCompatible shows that an entry written before
// Entry.Redirects existed (no redirects flag) still decodes, with 0
// redirects, and that Redirects survives a round trip.
func TestEntryEncodingCompatible(t *testing.T) {
	const a = "http://a.test:80"
	// flags: KindPage | flagRelative; depth 3, attempts 1, URL "/x", parent.
	old := []byte{flagRelative, 3, 1, 2, '/', 'x', 'h', 't', 't', 'p', ':', '/', '/', 'p', '/'}
	k := entryKey(1, 7)
	e, err := decodeEntry(a, k, old)
	if err != nil {
		t.Fatal(err)
	}
	want := Entry{Authority: a, Seq: 7, URL: "http://a.test/x", Parent: "http://p/", Depth: 3, Attempts: 1}
	if e != want {
		t.Errorf("old entry = %+v, want %+v", e, want)
	}
	if got := encodeEntry(want); string(got) != string(old) {
		t.Errorf("an entry without redirects encodes as %v, want the old form %v", got, old)
	}
	want.Redirects = 10
	if e, err := decodeEntry(a, k, encodeEntry(want)); err != nil || e != want {
		t.Errorf("round trip = %+v %v, want %+v", e, err, want)
	}
}
