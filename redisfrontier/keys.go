package redisfrontier

import (
	"crypto/sha256"
	"hash/crc32"
	"strconv"
)

// Shards is the number of shards hosts are spread over. Every key of a
// shard carries the hash tag {sN}, so that each script touches one slot
// (Redis Cluster specification, "Hash tags").
const Shards = 64

// seenBuckets is the number of seen-set hashes per shard.
const seenBuckets = 1024

// keys builds the key names under one prefix.
type keys struct{ prefix string }

// shardOf returns the shard of an authority: CRC-32 (IEEE) of it mod
// Shards.
func shardOf(auth string) int {
	return int(crc32.ChecksumIEEE([]byte(auth)) % Shards)
}

// shard returns the key prefix "P{sN}:" of shard n, the KEYS[1] of every
// shard script.
func (k keys) shard(n int) string { return k.prefix + "{s" + strconv.Itoa(n) + "}:" }

func (k keys) ready(n int) string        { return k.shard(n) + "ready" }
func (k keys) leases(n int) string       { return k.shard(n) + "leases" }
func (k keys) count(n int) string        { return k.shard(n) + "count" }
func (k keys) hosts(n int) string        { return k.shard(n) + "hosts" }
func (k keys) dropped(n int) string      { return k.shard(n) + "dropped" }
func (k keys) queue(auth string) string  { return k.shard(shardOf(auth)) + "q:" + auth }
func (k keys) host(auth string) string   { return k.shard(shardOf(auth)) + "h:" + auth }
func (k keys) robots(auth string) string { return k.shard(shardOf(auth)) + "robots:" + auth }
func (k keys) seen(auth string, b int) string {
	return k.shard(shardOf(auth)) + "seen:" + strconv.Itoa(b)
}

// global keys share the hash tag {g}.
func (k keys) procs() string     { return k.prefix + "{g}:procs" }
func (k keys) meta() string      { return k.prefix + "{g}:meta" }
func (k keys) seedHosts() string { return k.prefix + "{g}:seedhosts" }
func (k keys) pages() string     { return k.prefix + "{g}:pages" }

// activity counts the leases about to be finished, by any process: a
// drain check that reads it before and after its sweep of the shards
// knows whether a finish (and the links added before it) may have slipped
// between its reads of two shards.
func (k keys) activity() string { return k.prefix + "{g}:activity" }

// fingerprint returns the seen-set place of a canonical URL: the first 8
// octets of its SHA-256; the bucket is the low 10 bits of octets 0-1, the
// field octets 2-7 (binary).
func fingerprint(key string) (bucket int, field string) {
	sum := sha256.Sum256([]byte(key))
	return (int(sum[0])<<8 | int(sum[1])) & (seenBuckets - 1), string(sum[2:8])
}

// urlMark is a short mark of a URL, to tell the failing URLs of a host
// apart (hex of 6 octets of its SHA-256).
func urlMark(url string) string {
	sum := sha256.Sum256([]byte(url))
	return strconv.FormatUint(uint64(sum[0])<<40|uint64(sum[1])<<32|uint64(sum[2])<<24|uint64(sum[3])<<16|uint64(sum[4])<<8|uint64(sum[5]), 36)
}
