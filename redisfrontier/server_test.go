package redisfrontier

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// ownServer is a redis-server a test starts, stops and starts again on
// one port and directory, with the append-only file on: what it held
// before a stop it holds after.
type ownServer struct {
	t    testing.TB
	bin  string
	dir  string
	port int
	cmd  *exec.Cmd
}

// startOwnServer starts a redis-server of the test's own (path from
// CRAWL_TEST_REDIS_SERVER, else redis-server on PATH) on a free port in
// t.TempDir(). Without one the test skips, or fails under
// CRAWL_REQUIRE_REDIS=1.
func startOwnServer(t testing.TB) *ownServer {
	t.Helper()
	bin := os.Getenv("CRAWL_TEST_REDIS_SERVER")
	if bin == "" {
		bin, _ = exec.LookPath("redis-server")
	}
	if bin == "" {
		if os.Getenv("CRAWL_REQUIRE_REDIS") == "1" {
			t.Fatal("no redis-server (CRAWL_TEST_REDIS_SERVER unset, none on PATH) and CRAWL_REQUIRE_REDIS=1")
		}
		t.Skip("no redis-server (CRAWL_TEST_REDIS_SERVER unset, none on PATH): skipping a test that stops its own server")
	}
	s := &ownServer{t: t, bin: bin, dir: t.TempDir(), port: freePort(t)}
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *ownServer) url() string { return fmt.Sprintf("redis://127.0.0.1:%d/0", s.port) }

// start runs the server and returns once it answers PING.
func (s *ownServer) start() {
	s.t.Helper()
	s.cmd = exec.Command(s.bin, "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1", "--dir", s.dir,
		"--appendonly", "yes", "--save", "", "--daemonize", "no", "--logfile", "server.log")
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	c := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", s.port), MaxRetries: -1})
	defer c.Close()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c.Ping(context.Background()).Err() == nil {
			return
		}
	}
	s.t.Fatalf("redis-server on port %d did not answer", s.port)
}

// stop ends the server with SIGTERM (a clean shutdown: the append-only
// file is flushed) and waits for it.
func (s *ownServer) stop() {
	if s.cmd == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	_ = s.cmd.Wait()
	s.cmd = nil
}

// freePort returns a TCP port free on 127.0.0.1 a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
