package redistest

import (
	"os"
	"testing"
)

// need is the URL env names; the test skips without it, or fails when
// EnvRequire is "1".
func need(t *testing.T, env string) string {
	t.Helper()
	u := os.Getenv(env)
	if u == "" {
		if Required() {
			t.Fatalf("%s is unset, but %s=1", env, EnvRequire)
		}
		t.Skipf("%s is unset: start the servers with scripts/redis-test-servers", env)
	}
	return u
}

func TestParseReadsTheGoClientsURLs(t *testing.T) {
	s, err := Parse("redis://u:secret@127.0.0.1:7000/3")
	if err != nil || s.Cluster || s.DB != 3 || s.User != "u" || s.Password != "secret" || s.Addrs[0] != "127.0.0.1:7000" {
		t.Errorf("single server: %+v, %v", s, err)
	}
	c, err := Parse("redis://127.0.0.1:7000?addr=127.0.0.1:7001&addr=127.0.0.1:7002")
	if err != nil || !c.Cluster || len(c.Addrs) != 3 || c.Addrs[2] != "127.0.0.1:7002" {
		t.Errorf("cluster: %+v, %v", c, err)
	}
	if r := Redact("redis://u:secret@127.0.0.1:7000/3"); r != "redis://u:xxxxx@127.0.0.1:7000/3" {
		t.Errorf("Redact: %s", r)
	}
	if u, _ := WithDB("redis://127.0.0.1:7000/0", 12); u != "redis://127.0.0.1:7000/12" {
		t.Errorf("WithDB: %s", u)
	}
}

// TestFlushDBEmptiesOnlyItsDatabase: FlushDB clears the URL's database
// and no other.
func TestFlushDBEmptiesOnlyItsDatabase(t *testing.T) {
	base := need(t, EnvSingle)
	a, _ := WithDB(base, 10)
	b, _ := WithDB(base, 11)
	for _, u := range []string{a, b} {
		c := dialURL(t, u)
		if _, err := c.Do("SET", "redistest:k", "v"); err != nil {
			t.Fatal(err)
		}
		c.Close()
	}
	if err := FlushDB(a); err != nil {
		t.Fatal(err)
	}
	for u, want := range map[string]any{a: nil, b: "v"} {
		c := dialURL(t, u)
		v, err := c.Do("GET", "redistest:k")
		c.Close()
		if err != nil || v != want {
			t.Errorf("%s: GET = %v, %v; want %v", u, v, err, want)
		}
	}
	FlushDB(b)
}

// TestDeletePrefixOnTheCluster deletes a prefix's keys on every master and
// leaves the others.
func TestDeletePrefixOnTheCluster(t *testing.T) {
	u := need(t, EnvCluster)
	tg, _ := Parse(u)
	masters, err := tg.Masters()
	if err != nil || len(masters) != 3 {
		t.Fatalf("masters %v, %v; want 3", masters, err)
	}
	keys := map[string]string{}
	for _, k := range []string{"{a}x", "{b}x", "{c}x", "{d}x", "{e}x", "{f}x"} {
		keys["redistest-del:"+k], keys["redistest-keep:"+k] = "", ""
	}
	for k := range keys {
		setOnCluster(t, masters, k)
	}
	n, err := DeletePrefix(u, "redistest-del:")
	if err != nil || n != 6 {
		t.Errorf("DeletePrefix = %d, %v; want 6", n, err)
	}
	if n, _ := DeletePrefix(u, "redistest-keep:"); n != 6 {
		t.Errorf("the other prefix's keys: %d deleted afterwards, want 6", n)
	}
}

// setOnCluster sets key on the master that holds its slot (the one that
// does not answer MOVED).
func setOnCluster(t *testing.T, masters []string, key string) {
	for _, m := range masters {
		c, err := Dial(m)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Do("SET", key, "v")
		c.Close()
		if err == nil {
			return
		}
	}
	t.Fatalf("no master took %s", key)
}

// TestServerRestartKeepsData: a write survives Stop and Start of a
// server of the test's own.
func TestServerRestartKeepsData(t *testing.T) {
	bin := need(t, EnvServer)
	s, err := StartServer(bin, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	c := dialURL(t, s.URL(0))
	c.Do("SET", "k", "kept")
	c.Close()
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	c = dialURL(t, s.URL(0))
	defer c.Close()
	if v, err := c.Do("GET", "k"); v != "kept" {
		t.Errorf("after the restart GET k = %v, %v", v, err)
	}
}

func dialURL(t *testing.T, u string) *Conn {
	t.Helper()
	tg, err := Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	c, err := tg.dial(tg.Addrs[0])
	if err != nil {
		t.Fatal(err)
	}
	return c
}
