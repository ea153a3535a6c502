// Package redistest holds what the tests and benchmarks of the shared
// frontier need of a real Redis, and nothing of the frontier itself: the
// servers the environment names (started by scripts/redis-test-servers),
// a database or key prefix of their own emptied before use, and a
// redis-server of a test's own that it can stop and start again. It talks
// to Redis through a minimal client of its own (Conn), so that it depends
// on no Redis client library.
//
// Specs followed:
//   - the Redis serialization protocol, RESP2 (redis.io, "Redis
//     serialization protocol specification"): commands are sent as arrays
//     of bulk strings; simple strings, errors, integers, bulk strings and
//     arrays are read back.
//   - the redis:// URL scheme as the Go client reads it: redis://[[user]:
//     password@]host:port[/db], and a Redis Cluster as redis://host:port?
//     addr=host:port&addr=host:port (no db).
//
// Deviations: RESP3 and TLS (rediss://) are not spoken; the test servers
// offer neither.
package redistest
