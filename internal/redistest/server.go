package redistest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// A Server is a redis-server of a test's own, with persistence on: every
// write is appended to its append-only file (appendfsync always) under
// Dir, so a Stop and a Start on the same port and Dir lose nothing.
type Server struct {
	Bin  string // redis-server
	Dir  string
	Port int
	cmd  *exec.Cmd
}

// StartServer starts bin on a free port of 127.0.0.1 with its files
// under dir and returns once it answers PING.
func StartServer(bin, dir string) (*Server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("redistest: find a free port: %w", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	s := &Server{Bin: bin, Dir: dir, Port: port}
	return s, s.Start()
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)) }

// URL is the redis:// URL of database db of the server.
func (s *Server) URL(db int) string { return fmt.Sprintf("redis://%s/%d", s.Addr(), db) }

// Start starts the server again (or the first time) on its port and
// Dir, and returns once it answers PING, its data loaded.
func (s *Server) Start() error {
	s.cmd = exec.Command(s.Bin, "--bind", "127.0.0.1", "--port", strconv.Itoa(s.Port), "--dir", s.Dir,
		"--appendonly", "yes", "--appendfsync", "always", "--save", "",
		"--logfile", filepath.Join(s.Dir, "redis.log"))
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("redistest: start %s: %w", s.Bin, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if c, err := Dial(s.Addr()); err == nil {
			v, err := c.Do("PING")
			c.Close()
			if err == nil && v == "PONG" {
				return nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	b, _ := os.ReadFile(filepath.Join(s.Dir, "redis.log"))
	return fmt.Errorf("redistest: %s on port %d did not answer PING in 10 s; its log:\n%s", s.Bin, s.Port, b)
}

// Stop ends the server with SIGTERM, on which Redis flushes its
// append-only file and exits, and waits for it.
func (s *Server) Stop() error {
	if s.cmd == nil || s.cmd.Process == nil {
		return nil
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	err := s.cmd.Wait()
	s.cmd = nil
	if err != nil {
		return fmt.Errorf("redistest: redis-server on port %d: %w", s.Port, err)
	}
	return nil
}
