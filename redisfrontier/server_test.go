package redisfrontier

import (
	"testing"

	"github.com/crawlproject/crawl/internal/redistest"
)

// startOwnServer starts a redis-server of the test's own
// (CRAWL_TEST_REDIS_SERVER) on a free port with its append-only file on,
// so that a Stop and a Start keep what it held; it is stopped when the
// test ends.
func startOwnServer(t testing.TB) *redistest.Server {
	t.Helper()
	s, err := redistest.StartServer(redistest.ServerBin(t), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Stop() })
	return s
}
