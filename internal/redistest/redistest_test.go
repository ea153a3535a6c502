package redistest

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestURLsAsTheGoClientReadsThem: a URL with addr= parameters gets a
// cluster client, any other one a single server's; WithDB sets a server
// URL's database.
func TestURLsAsTheGoClientReadsThem(t *testing.T) {
	c, err := Client("redis://127.0.0.1:7000?addr=127.0.0.1:7001")
	if _, ok := c.(*redis.ClusterClient); err != nil || !ok {
		t.Errorf("a cluster URL: %T, %v; want a cluster client", c, err)
	}
	c.Close()
	if u, _ := WithDB("redis://u:p@127.0.0.1:7000/0", 12); u != "redis://u:p@127.0.0.1:7000/12" {
		t.Errorf("WithDB: %s", u)
	}
}

// dial is a client of raw, closed when t ends.
func dial(t *testing.T, raw string) redis.UniversalClient {
	t.Helper()
	c, err := Client(raw)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestFlushDBEmptiesOnlyItsDatabase: FlushDB clears the URL's database
// and no other, and refuses a cluster, whose one database others share.
func TestFlushDBEmptiesOnlyItsDatabase(t *testing.T) {
	ctx := context.Background()
	a, _ := WithDB(URL(t), 10)
	b, _ := WithDB(URL(t), 11)
	for _, u := range []string{a, b} {
		if err := dial(t, u).Set(ctx, "redistest:k", "v", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := FlushDB(a); err != nil {
		t.Fatal(err)
	}
	if err := dial(t, a).Get(ctx, "redistest:k").Err(); !errors.Is(err, redis.Nil) {
		t.Errorf("%s: the key stays after FlushDB: %v", a, err)
	}
	if v, err := dial(t, b).Get(ctx, "redistest:k").Result(); v != "v" {
		t.Errorf("%s: another database lost its key: %q, %v", b, v, err)
	}
	FlushDB(b)
	if FlushDB("redis://127.0.0.1:7000?addr=127.0.0.1:7001") == nil {
		t.Error("FlushDB must refuse a cluster")
	}
}

// TestDeletePrefixOnTheCluster deletes a prefix's keys on every master,
// glob characters in the prefix taken literally, and leaves the others.
func TestDeletePrefixOnTheCluster(t *testing.T) {
	u := ClusterURL(t)
	c := dial(t, u)
	ctx := context.Background()
	for i := range 6 { // hash tags spread over the three masters' slots
		for _, p := range []string{"redistest-del[1]:", "redistest-del1:", "redistest-keep:"} {
			if err := c.Set(ctx, fmt.Sprintf("%s{%c}x", p, 'a'+i), "v", 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
	}
	n, err := DeletePrefix(u, "redistest-del[1]:")
	if err != nil || n != 6 {
		t.Errorf("DeletePrefix = %d, %v; want 6", n, err)
	}
	for _, p := range []string{"redistest-del1:", "redistest-keep:"} {
		if n, _ := DeletePrefix(u, p); n != 6 {
			t.Errorf("the keys of %s: %d deleted afterwards, want 6", p, n)
		}
	}
}

// TestPrefixDeletesItsKeysAtTheEnd: a test's prefix is its own, and its
// keys are gone once the test ends.
func TestPrefixDeletesItsKeysAtTheEnd(t *testing.T) {
	u := URL(t)
	var p string
	t.Run("user", func(t *testing.T) {
		p = Prefix(t, u)
		if Prefix(t, u) == p {
			t.Error("two prefixes of one test are the same")
		}
		dial(t, u).Set(context.Background(), p+"k", "v", 0)
	})
	if n, err := dial(t, u).Exists(context.Background(), p+"k").Result(); n != 0 || err != nil {
		t.Errorf("the key of %s stays after its test: %d, %v", p, n, err)
	}
}

// TestServerRestartKeepsData: a write survives Stop and Start of a
// server of the test's own.
func TestServerRestartKeepsData(t *testing.T) {
	s, err := StartServer(ServerBin(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	ctx := context.Background()
	if err := dial(t, s.URL(0)).Set(ctx, "k", "kept", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if v, err := dial(t, s.URL(0)).Get(ctx, "k").Result(); v != "kept" {
		t.Errorf("after the restart GET k = %q, %v", v, err)
	}
}

// TestServerWithUserRefusesOthers: a server with a user of its own
// answers clients that authenticate as that user, and refuses the
// default user and a wrong password.
func TestServerWithUserRefusesOthers(t *testing.T) {
	s, err := NewServer(ServerBin(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s.User, s.Password = "crawl", "s3cretpw"
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	ctx := context.Background()
	if u := s.URL(0); u != fmt.Sprintf("redis://crawl:s3cretpw@%s/0", s.Addr()) {
		t.Errorf("URL %s", u)
	}
	if err := dial(t, s.URL(0)).Ping(ctx).Err(); err != nil {
		t.Errorf("as the server's user: %v", err)
	}
	for _, u := range []string{fmt.Sprintf("redis://%s/0", s.Addr()), fmt.Sprintf("redis://crawl:wrong@%s/0", s.Addr())} {
		if dial(t, u).Ping(ctx).Err() == nil {
			t.Errorf("%s: PING answered", u)
		}
	}
}
