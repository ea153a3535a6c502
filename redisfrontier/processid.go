package redisfrontier

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
)

// maxHostInID bounds the host name's share of a process id.
const maxHostInID = 32

// NewProcessID returns a new name for this process among the crawl
// processes that share a frontier: its host name, its pid and six random
// hex digits ("worker1-4242-a1b2c3"), so two processes, on one machine or
// two, and two runs of one process never share it.
func NewProcessID() string {
	host, _ := os.Hostname()
	var rnd [3]byte
	rand.Read(rnd[:]) // never fails (crypto/rand)
	return processID(host, os.Getpid(), rnd)
}

// processID is the process id of host, pid and rnd: only letters,
// digits, '.', '_' and '-' (any other byte of host becomes '_'), the host
// cut to maxHostInID bytes ("host" when empty), so the id is safe in a
// file name and a Redis key.
func processID(host string, pid int, rnd [3]byte) string {
	host = strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '.' || r == '_' || r == '-' {
			return r
		}
		return '_'
	}, host)
	if len(host) > maxHostInID {
		host = host[:maxHostInID]
	}
	if host == "" {
		host = "host"
	}
	return host + "-" + strconv.Itoa(pid) + "-" + hex.EncodeToString(rnd[:])
}
