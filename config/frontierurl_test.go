package config

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestRedactURL protects the one form in which frontier.url is shown: the
// password, and nothing else, is replaced by xxxxx, also in a string that
// does not parse as a URL.
func TestRedactURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"},
		{"redis://crawl:s3cret@127.0.0.1:6379/0", "redis://crawl:xxxxx@127.0.0.1:6379/0"},
		{"redis://:s3cret@127.0.0.1:6379/2", "redis://:xxxxx@127.0.0.1:6379/2"},
		{"rediss://crawl:s3cret@redis.example:6380", "rediss://crawl:xxxxx@redis.example:6380"},
		{"redis://crawl@127.0.0.1:6379/0", "redis://crawl@127.0.0.1:6379/0"},
		{"redis://u:s3cret@h:7000?addr=h:7001&addr=h:7002", "redis://u:xxxxx@h:7000?addr=h:7001&addr=h:7002"},
		// Does not parse (a space in the host, a bad escape): redacted all the same.
		{"redis://u:s3cret@bad host:6379/0", "redis://u:xxxxx@bad host:6379/0"},
		{"redis://u:s3%zzcret@h:6379/0", "redis://u:xxxxx@h:6379/0"},
		{"redis://u:p@ss:w@rd@h%zz:1/0", "redis://u:xxxxx@h%zz:1/0"},
	} {
		if got := RedactURL(tc.in); got != tc.want {
			t.Errorf("RedactURL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestFrontierURLAccepted: one server (redis, rediss, a database
// number, a user and password) and a Redis Cluster (addr= parameters, as
// go-redis's ParseClusterURL reads them) pass Validate.
func TestFrontierURLAccepted(t *testing.T) {
	for _, u := range []string{
		"redis://127.0.0.1:6379/0",
		"redis://127.0.0.1:6379",
		"rediss://crawl:s3cret@redis.example:6380/3",
		"redis://[::1]:6379/1",
		"redis://127.0.0.1:7000?addr=127.0.0.1:7001&addr=127.0.0.1:7002",
		"redis://u:p@127.0.0.1:7000/0?addr=127.0.0.1:7001",
		"redis://127.0.0.1:6379/0?dial_timeout=3s",
	} {
		cfg := Default()
		cfg.Frontier.URL = u
		if err := cfg.Validate(); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
}

// TestFrontierURLRefused: another scheme, no host, a bad database, a
// Cluster on another database, a bad addr= and an unknown parameter are
// each a config error naming frontier.url and its source, and no error
// shows the password.
func TestFrontierURLRefused(t *testing.T) {
	for _, tc := range []struct{ url, want string }{
		{"http://u:s3cret@127.0.0.1:6379/0", `scheme "http" is not redis or rediss`},
		{"unix://u:s3cret@/tmp/redis.sock", `scheme "unix" is not redis or rediss`},
		{"127.0.0.1:6379", "not a URL"},
		{"redis:///0", "names no host"},
		{"redis://u:s3cret@127.0.0.1:6379/db1", "invalid database number"},
		{"redis://u:s3cret@127.0.0.1:6379/0/1", "invalid URL path"},
		{"redis://u:s3cret@127.0.0.1:port/0", "not a URL"},
		{"redis://u:s3cret@127.0.0.1:7000/3?addr=127.0.0.1:7001", "database 0 only"},
		{"redis://u:s3cret@127.0.0.1:7000?addr=127.0.0.1", "addr param"},
		{"redis://u:s3cret@127.0.0.1:6379/0?colour=red", "unexpected option: colour"},
	} {
		_, err := Loader{Environ: []string{"CRAWL_FRONTIER_URL=" + tc.url}}.Load()
		wantKeyError(t, err, "frontier.url", "config: environment CRAWL_FRONTIER_URL: frontier.url: ", tc.want, "redis://")
		if err != nil && strings.Contains(err.Error(), "s3cret") {
			t.Errorf("%s: the error shows the password: %v", tc.url, err)
		}
	}
}

// TestFrontierURLFromFlagAndEnv: frontier.url is set by
// CRAWL_FRONTIER_URL and by the flag bound to it, the flag first.
func TestFrontierURLFromFlagAndEnv(t *testing.T) {
	env := []string{"CRAWL_FRONTIER_URL=redis://127.0.0.1:6379/1"}
	cfg, err := Loader{Environ: env}.Load()
	if err != nil || cfg.Frontier.URL != "redis://127.0.0.1:6379/1" {
		t.Fatalf("from the environment: %q, %v", cfg.Frontier.URL, err)
	}
	fs := pflag.NewFlagSet("crawl", pflag.ContinueOnError)
	fs.String("frontier", "", "")
	if err := fs.Parse([]string{"--frontier", "redis://127.0.0.1:6379/2"}); err != nil {
		t.Fatal(err)
	}
	cfg, err = Loader{Environ: env, Flags: fs, FlagKeys: map[string]string{"frontier": "frontier.url"}}.Load()
	if err != nil || cfg.Frontier.URL != "redis://127.0.0.1:6379/2" {
		t.Fatalf("from the flag: %q, %v", cfg.Frontier.URL, err)
	}
}

// TestMapRedactsFrontierPassword: the map --print-config prints holds
// frontier.url with its password replaced.
func TestMapRedactsFrontierPassword(t *testing.T) {
	cfg := Default()
	cfg.Frontier.URL = "redis://crawl:s3cret@127.0.0.1:6379/0"
	m, err := Map(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := m["frontier"].(map[string]any)["url"]; got != "redis://crawl:xxxxx@127.0.0.1:6379/0" {
		t.Errorf("frontier.url in the map: %v", got)
	}
	if cfg.Frontier.URL != "redis://crawl:s3cret@127.0.0.1:6379/0" {
		t.Error("Map changed the Config it was given")
	}
}

// TestIsRedisCluster: a frontier URL with addr= parameters names a
// Cluster, as go-redis's ParseClusterURL reads it; any other one a single
// server.
func TestIsRedisCluster(t *testing.T) {
	if IsRedisCluster("redis://u:secret@127.0.0.1:7000/3") || !IsRedisCluster("redis://127.0.0.1:7000?addr=127.0.0.1:7001&addr=127.0.0.1:7002") {
		t.Error("IsRedisCluster must tell a cluster URL (addr=) from a single server's")
	}
}
