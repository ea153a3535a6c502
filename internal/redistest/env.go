package redistest

import (
	"fmt"
	"os"
	"testing"
)

// The environment variables that name the test servers
// (scripts/redis-test-servers start prints them).
const (
	// EnvSingle is one server with no persistence: redis://127.0.0.1:PORT/0.
	EnvSingle = "CRAWL_TEST_REDIS"
	// EnvCluster is a Redis Cluster of three masters:
	// redis://127.0.0.1:P1?addr=127.0.0.1:P2&addr=127.0.0.1:P3.
	EnvCluster = "CRAWL_TEST_REDIS_CLUSTER"
	// EnvServer is the redis-server binary, for tests that start their own.
	EnvServer = "CRAWL_TEST_REDIS_SERVER"
	// EnvRequire, when "1", makes the tests fail rather than skip when a
	// server they need is not named (CI sets it).
	EnvRequire = "CRAWL_REQUIRE_REDIS"
)

// required reports whether the environment asks for the Redis tests to
// run (EnvRequire is "1").
func required() bool { return os.Getenv(EnvRequire) == "1" }

// URL returns the single server's URL (EnvSingle), or ends t as Need
// says.
func URL(t testing.TB) string { return need(t, EnvSingle) }

// ClusterURL returns the cluster's URL (EnvCluster), or ends t as Need
// says.
func ClusterURL(t testing.TB) string { return need(t, EnvCluster) }

// ServerBin returns the redis-server binary (EnvServer), or ends t as
// Need says.
func ServerBin(t testing.TB) string { return need(t, EnvServer) }

// need returns the value of env; when it is unset, t is skipped with a
// message, or fails when Required.
func need(t testing.TB, env string) string {
	t.Helper()
	if v := os.Getenv(env); v != "" {
		return v
	}
	msg := fmt.Sprintf("%s is unset: start the Redis test servers with eval \"$(scripts/redis-test-servers start DIR)\"", env)
	if required() {
		t.Fatalf("%s, but %s=1 asks for the Redis tests to run", msg, EnvRequire)
	}
	t.Skip(msg)
	return ""
}
