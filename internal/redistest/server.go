package redistest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// A Server is a redis-server of a test's own, with persistence on: every
// write is appended to its append-only file (appendfsync always) under
// Dir, so a Stop and a Start on the same port and Dir lose nothing. With
// a Password, clients must authenticate: as User, an ACL user with every
// right, with the default user off; or, when User is "", as the default
// user (requirepass).
type Server struct {
	Bin            string // redis-server
	Dir            string
	Port           int
	User, Password string
	cmd            *exec.Cmd
}

// NewServer is a server of bin with its files under dir, on a port of
// 127.0.0.1 free now; Start starts it.
func NewServer(bin, dir string) (*Server, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("redistest: find a free port: %w", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return &Server{Bin: bin, Dir: dir, Port: port}, nil
}

// StartServer starts bin, with no password, on a free port of 127.0.0.1
// with its files under dir, and returns once it answers PING.
func StartServer(bin, dir string) (*Server, error) {
	s, err := NewServer(bin, dir)
	if err != nil {
		return nil, err
	}
	return s, s.Start()
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)) }

// URL is the redis:// URL of database db of the server, with the user
// and password clients must give, if any.
func (s *Server) URL(db int) string {
	u := url.URL{Scheme: "redis", Host: s.Addr(), Path: "/" + strconv.Itoa(db)}
	if s.Password != "" {
		u.User = url.UserPassword(s.User, s.Password)
	}
	return u.String()
}

// args is the server's command line.
func (s *Server) args() []string {
	a := []string{"--bind", "127.0.0.1", "--port", strconv.Itoa(s.Port), "--dir", s.Dir,
		"--appendonly", "yes", "--appendfsync", "always", "--save", "",
		"--logfile", filepath.Join(s.Dir, "redis.log")}
	switch {
	case s.Password == "":
	case s.User == "" || s.User == "default":
		a = append(a, "--requirepass", s.Password)
	default:
		a = append(a, "--user", s.User, "on", ">"+s.Password, "~*", "&*", "+@all", "--user", "default", "off")
	}
	return a
}

// Start starts the server again (or the first time) on its port and
// Dir, and returns once it answers PING, its data loaded.
func (s *Server) Start() error {
	s.cmd = exec.Command(s.Bin, s.args()...)
	if err := s.cmd.Start(); err != nil {
		return fmt.Errorf("redistest: start %s: %w", s.Bin, err)
	}
	if err := s.waitPing(10 * time.Second); err == nil {
		return nil
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
	s.cmd = nil
	b, _ := os.ReadFile(filepath.Join(s.Dir, "redis.log"))
	return fmt.Errorf("redistest: %s on port %d did not answer PING in 10 s; its log:\n%s", s.Bin, s.Port, b)
}

// waitPing waits up to limit for the server to answer PING, as its user
// when it has one.
func (s *Server) waitPing(limit time.Duration) error {
	c, err := Client(s.URL(0))
	if err != nil {
		return err
	}
	defer c.Close()
	deadline := time.Now().Add(limit)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = c.Ping(ctx).Err()
		cancel()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
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
