package config

// frontier.url: the Redis URL of a frontier shared by several crawl
// processes, its checks, and the one redacted form in which it is shown.

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/redis/go-redis/v9"
)

// redactedPassword stands for the password of a URL wherever it is shown.
const redactedPassword = "xxxxx"

// frontierURLForms says which forms frontier.url takes.
const frontierURLForms = "frontier.url takes redis://[user:password@]host:port/db or rediss://..., " +
	"or a Redis Cluster as redis://host:port?addr=host:port&addr=host:port; leave it empty for the embedded frontier"

// RedactURL returns u with the password of its user information replaced
// by "xxxxx" (redis://crawl:xxxxx@host:6379/0), and u unchanged when it
// has none. It is the form in which frontier.url is printed, logged and
// recorded (--print-config, errors, warcinfo): the password never
// appears. A string that does not parse as a URL has everything between
// the first ':' of its user information and the last '@' of its
// authority replaced likewise.
func RedactURL(u string) string {
	if p, err := url.Parse(u); err == nil {
		return p.Redacted()
	}
	start := 0
	if i := strings.Index(u, "://"); i >= 0 {
		start = i + len("://")
	}
	end := len(u)
	if i := strings.IndexAny(u[start:], "/?#"); i >= 0 {
		end = start + i
	}
	at := strings.LastIndexByte(u[start:end], '@')
	if at < 0 {
		return u
	}
	at += start
	colon := strings.IndexByte(u[start:at], ':')
	if colon < 0 {
		return u
	}
	colon += start
	return u[:colon+1] + redactedPassword + u[at:]
}

// IsRedisCluster reports whether frontier.url u names a Redis Cluster:
// it lists further addresses in addr= query parameters, which go-redis's
// ParseClusterURL reads.
func IsRedisCluster(u string) bool {
	p, err := url.Parse(u)
	return err == nil && p.Query().Has("addr")
}

// checkFrontierURL returns why u cannot be a frontier's URL, nil if it can:
// a redis:// or rediss:// URL with a host that go-redis's ParseURL reads
// (one server), or ParseClusterURL when it has addr= parameters (a
// Cluster, database 0 only). Its reasons never hold the URL's password.
func checkFrontierURL(u string) error {
	p, err := url.Parse(u)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // url.Error quotes the whole URL, password and all
		}
		return fmt.Errorf("not a URL (%v); %s", err, frontierURLForms)
	}
	if p.Scheme != "redis" && p.Scheme != "rediss" {
		return fmt.Errorf("scheme %q is not redis or rediss: %s", p.Scheme, frontierURLForms)
	}
	if p.Host == "" || p.Hostname() == "" {
		return fmt.Errorf("names no host: %s", frontierURLForms)
	}
	if !IsRedisCluster(u) {
		if _, err := redis.ParseURL(u); err != nil {
			return fmt.Errorf("%v; %s", err, frontierURLForms)
		}
		return nil
	}
	if db := strings.Trim(p.Path, "/"); db != "" && db != "0" {
		return fmt.Errorf("a Redis Cluster has database 0 only, not %q: leave the path empty or /0", db)
	}
	if _, err := redis.ParseClusterURL(u); err != nil {
		return fmt.Errorf("%v; %s", err, frontierURLForms)
	}
	return nil
}
