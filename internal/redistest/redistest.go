// Package redistest finds the Redis servers tests run against, from the
// environment: CRAWL_TEST_REDIS (one server, redis://127.0.0.1:PORT/DB)
// and CRAWL_TEST_REDIS_CLUSTER (a Redis Cluster,
// redis://127.0.0.1:P1?addr=127.0.0.1:P2&addr=127.0.0.1:P3). A test whose
// server is not set is skipped with a message, or fails when
// CRAWL_REQUIRE_REDIS=1 (CI). Tests isolate themselves with a key prefix
// of their own, so that they can share one database and the cluster.
package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// URL returns the single server's URL, or skips (fails under
// CRAWL_REQUIRE_REDIS=1) when CRAWL_TEST_REDIS is unset.
func URL(t testing.TB) string { return lookup(t, "CRAWL_TEST_REDIS") }

// ClusterURL returns the cluster's URL, or skips (fails under
// CRAWL_REQUIRE_REDIS=1) when CRAWL_TEST_REDIS_CLUSTER is unset.
func ClusterURL(t testing.TB) string { return lookup(t, "CRAWL_TEST_REDIS_CLUSTER") }

func lookup(t testing.TB, env string) string {
	t.Helper()
	u := os.Getenv(env)
	if u != "" {
		return u
	}
	if os.Getenv("CRAWL_REQUIRE_REDIS") == "1" {
		t.Fatalf("%s is not set and CRAWL_REQUIRE_REDIS=1: start the servers with scripts/redis-test-servers", env)
	}
	t.Skipf("%s is not set: skipping a test that needs a Redis server", env)
	return ""
}

// Prefix returns a key prefix unique to this test ("t-NAME-RANDOM:") and
// deletes its keys when the test ends, on every node of a cluster.
func Prefix(t testing.TB, url string) string {
	t.Helper()
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())
	p := "t-" + name + "-" + hex.EncodeToString(b[:]) + ":"
	t.Cleanup(func() { Delete(url, p) })
	return p
}

// Delete removes every key starting with prefix (SCAN and UNLINK, node by
// node on a cluster).
func Delete(url, prefix string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	del := func(c redis.UniversalClient) {
		it := c.Scan(ctx, 0, prefix+"*", 1000).Iterator()
		for it.Next(ctx) {
			c.Unlink(ctx, it.Val())
		}
	}
	if strings.Contains(url, "addr=") {
		o, err := redis.ParseClusterURL(url)
		if err != nil {
			return
		}
		c := redis.NewClusterClient(o)
		defer c.Close()
		_ = c.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error { del(n); return nil })
		return
	}
	o, err := redis.ParseURL(url)
	if err != nil {
		return
	}
	c := redis.NewClient(o)
	defer c.Close()
	del(c)
}
