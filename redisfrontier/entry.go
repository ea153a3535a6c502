package redisfrontier

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

// encodeEntry writes a queue entry compactly: "kind,depth,attempts,
// redirects,seed" NUL URL NUL parent. A canonical URL holds no NUL; a NUL
// in the parent is written %00.
func encodeEntry(e scheduler.Entry) string {
	var b strings.Builder
	seed := "0"
	if e.Seed {
		seed = "1"
	}
	b.WriteString(strconv.Itoa(int(e.Kind)) + "," + strconv.Itoa(e.Depth) + "," + strconv.Itoa(e.Attempts) + "," +
		strconv.Itoa(e.Redirects) + "," + seed + "\x00" + e.URL + "\x00")
	b.WriteString(strings.ReplaceAll(e.Parent, "\x00", "%00"))
	return b.String()
}

var errBadEntry = errors.New("redisfrontier: malformed queue entry")

// decodeEntry reads an entry of authority auth written by encodeEntry.
func decodeEntry(auth, s string) (scheduler.Entry, error) {
	parts := strings.SplitN(s, "\x00", 3)
	if len(parts) != 3 {
		return scheduler.Entry{}, errBadEntry
	}
	f := strings.Split(parts[0], ",")
	if len(f) != 5 {
		return scheduler.Entry{}, errBadEntry
	}
	n := make([]int, 4)
	for i := range n {
		v, err := strconv.Atoi(f[i])
		if err != nil {
			return scheduler.Entry{}, errBadEntry
		}
		n[i] = v
	}
	return scheduler.Entry{Authority: auth, URL: parts[1], Parent: parts[2], Kind: scheduler.Kind(n[0]), Depth: n[1],
		Attempts: n[2], Redirects: n[3], Seed: f[4] == "1"}, nil
}

// leaseEntry is the entry of a URL lease.
func leaseEntry(l *scheduler.Lease) scheduler.Entry {
	return scheduler.Entry{Authority: l.Authority, URL: l.URL, Parent: l.Parent, Depth: l.Depth, Kind: l.Kind,
		Seed: l.Seed, Attempts: l.Attempt, Redirects: l.Redirects}
}

// encodePace writes a pace table as the scripts read it: "to:ivMs:flags"
// per segment, comma-separated; flags bit 0 open, bit 1 a rate boundary
// at to. Intervals are rounded up to whole milliseconds, never down.
func encodePace(t scheduler.PaceTable) string {
	var b strings.Builder
	for i, s := range t {
		if i > 0 {
			b.WriteByte(',')
		}
		fl := 0
		if s.Open {
			fl |= 1
		}
		if s.RateBoundary {
			fl |= 2
		}
		b.WriteString(strconv.Itoa(s.To) + ":" + strconv.FormatInt(ceilMs(s.Interval), 10) + ":" + strconv.Itoa(fl))
	}
	return b.String()
}

// ceilMs returns d in whole milliseconds, rounded up.
func ceilMs(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}

// msTime returns the instant of Unix milliseconds ms; zero for ms <= 0.
func msTime(ms int64) time.Time {
	if ms <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}
