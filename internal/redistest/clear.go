package redistest

import (
	"github.com/crawlproject/crawl/config"

	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// clearTimeout bounds one FlushDB or DeletePrefix.
const clearTimeout = 30 * time.Second

// FlushDB empties the database a single-server URL names (FLUSHDB), and
// only it. A Redis Cluster has only database 0, shared by every user of
// the cluster: clear a key prefix of your own there (DeletePrefix).
func FlushDB(raw string) error {
	if config.IsRedisCluster(raw) {
		return errors.New("redistest: FlushDB on a cluster: clear a key prefix instead")
	}
	c, err := Client(raw)
	if err != nil {
		return err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), clearTimeout)
	defer cancel()
	if err := c.FlushDB(ctx).Err(); err != nil {
		return fmt.Errorf("redistest: FLUSHDB: %w", err)
	}
	return nil
}

// DeletePrefix deletes every key starting with prefix in the database the
// URL names, on every master of a cluster, and returns how many it
// deleted. Keys are deleted one per call: the keys of one SCAN reply may
// lie in different slots.
func DeletePrefix(raw, prefix string) (int, error) {
	c, err := Client(raw)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), clearTimeout)
	defer cancel()
	var n atomic.Int64
	del := func(ctx context.Context, c *redis.Client) error {
		d, err := deleteOn(ctx, c, prefix)
		n.Add(int64(d))
		return err
	}
	if cc, ok := c.(*redis.ClusterClient); ok {
		err = cc.ForEachMaster(ctx, del)
	} else {
		err = del(ctx, c.(*redis.Client))
	}
	if err != nil {
		return int(n.Load()), fmt.Errorf("redistest: delete the keys of %q: %w", prefix, err)
	}
	return int(n.Load()), nil
}

// deleteOn deletes the keys starting with prefix on one server.
func deleteOn(ctx context.Context, c *redis.Client, prefix string) (int, error) {
	n := 0
	it := c.Scan(ctx, 0, globEscape(prefix)+"*", 1000).Iterator()
	for it.Next(ctx) {
		if err := c.Unlink(ctx, it.Val()).Err(); err != nil {
			return n, err
		}
		n++
	}
	return n, it.Err()
}

// globEscape escapes the characters SCAN MATCH reads as a pattern.
func globEscape(s string) string {
	var b strings.Builder
	for i := range len(s) {
		switch s[i] {
		case '*', '?', '[', ']', '\\':
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Prefix returns a key prefix unique to this test ("t-NAME-RANDOM:") and
// deletes its keys on every master of url when the test ends.
func Prefix(t testing.TB, url string) string {
	t.Helper()
	var b [4]byte
	_, _ = rand.Read(b[:])
	name := strings.NewReplacer("/", "-", " ", "-").Replace(t.Name())
	p := "t-" + name + "-" + hex.EncodeToString(b[:]) + ":"
	t.Cleanup(func() {
		if _, err := DeletePrefix(url, p); err != nil {
			t.Logf("redistest: the test's keys stay: %v", err)
		}
	})
	return p
}
