package redistest

import (
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
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

// Required reports whether the environment asks for the Redis tests to
// run (EnvRequire is "1").
func Required() bool { return os.Getenv(EnvRequire) == "1" }

// A Target is a parsed redis:// URL: the addresses it names (one, or a
// cluster's seeds), its credentials and its database.
type Target struct {
	Addrs          []string
	User, Password string
	DB             int
	Cluster        bool // the URL names more than one address
}

// Parse reads a redis:// URL as the Go client does: a cluster when it
// has addr= parameters.
func Parse(raw string) (Target, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "redis" || u.Host == "" {
		return Target{}, fmt.Errorf("redistest: %q is not a redis://host:port URL", Redact(raw))
	}
	t := Target{Addrs: []string{u.Host}}
	t.User = u.User.Username()
	t.Password, _ = u.User.Password()
	if db := strings.Trim(u.Path, "/"); db != "" {
		if t.DB, err = strconv.Atoi(db); err != nil {
			return Target{}, fmt.Errorf("redistest: %q: bad db %q", Redact(raw), db)
		}
	}
	t.Addrs = append(t.Addrs, u.Query()["addr"]...)
	t.Cluster = len(t.Addrs) > 1
	return t, nil
}

// Redact is the URL with its password, if any, replaced by "xxxxx".
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if _, ok := u.User.Password(); !ok {
		return raw
	}
	return u.Redacted()
}

// WithDB is the single-server URL raw with its database set to db.
func WithDB(raw string, db int) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("redistest: %w", err)
	}
	u.Path = "/" + strconv.Itoa(db)
	return u.String(), nil
}

// dial connects to addr, authenticates as t says and selects t's
// database when it is not 0.
func (t Target) dial(addr string) (*Conn, error) {
	c, err := Dial(addr)
	if err != nil {
		return nil, err
	}
	if t.Password != "" {
		args := []string{"AUTH", t.Password}
		if t.User != "" {
			args = []string{"AUTH", t.User, t.Password}
		}
		if _, err := c.Do(args...); err != nil {
			c.Close()
			return nil, err
		}
	}
	if t.DB != 0 {
		if _, err := c.Do("SELECT", strconv.Itoa(t.DB)); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

// Masters is the addresses of the target's masters: the cluster's, read
// from CLUSTER NODES of its first address, or the one server's.
func (t Target) Masters() ([]string, error) {
	if !t.Cluster {
		return t.Addrs[:1], nil
	}
	c, err := t.dial(t.Addrs[0])
	if err != nil {
		return nil, err
	}
	defer c.Close()
	v, err := c.Do("CLUSTER", "NODES")
	if err != nil {
		return nil, err
	}
	s, _ := v.(string)
	var masters []string
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) > 2 && strings.Contains(","+f[2]+",", ",master,") {
			addr, _, _ := strings.Cut(f[1], "@") // "ip:port@cport"
			masters = append(masters, addr)
		}
	}
	if len(masters) == 0 {
		return nil, fmt.Errorf("redistest: CLUSTER NODES of %s lists no master", t.Addrs[0])
	}
	return masters, nil
}
