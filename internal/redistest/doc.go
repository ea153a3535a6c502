// Package redistest holds what the tests and benchmarks of the shared
// frontier need of a real Redis, and nothing of the frontier itself: the
// servers the environment names (scripts/redis-test-servers starts
// them), a database or key prefix of a test's own emptied before or
// after use, and a redis-server of a test's own that it can stop and
// start again, optionally behind a password. It talks to Redis through
// the client the frontier uses, github.com/redis/go-redis/v9.
//
// The environment names the servers: CRAWL_TEST_REDIS (one server,
// redis://127.0.0.1:PORT/DB, no persistence), CRAWL_TEST_REDIS_CLUSTER (a
// Redis Cluster of three masters, redis://127.0.0.1:P1?addr=127.0.0.1:P2&
// addr=127.0.0.1:P3) and CRAWL_TEST_REDIS_SERVER (the redis-server
// binary). A test whose server is not named skips with a message, or
// fails when CRAWL_REQUIRE_REDIS=1 (CI).
//
// Specs followed:
//   - the redis:// URL as the Go client reads it (go-redis ParseURL and
//     ParseClusterURL): redis://[[user]:password@]host:port[/db], and a
//     Redis Cluster as redis://host:port?addr=host:port&addr=host:port
//     (database 0 only, the Redis Cluster specification, "Overview of
//     Redis Cluster main components").
//   - SCAN with MATCH (the Redis documentation, "SCAN", "The MATCH
//     option"): a prefix's glob characters are escaped.
//   - ACL users (the Redis documentation, "ACL", "Configure ACL with the
//     ACL command"): a server with a user of its own has the default user
//     off, so every client must authenticate.
package redistest
