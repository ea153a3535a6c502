package redisfrontier

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/robots"
	"github.com/crawlproject/crawl/scheduler"
)

// Host returns a snapshot of authority's shared state: its pace at now,
// queue, leases and state.
func (f *Frontier) Host(authority string) scheduler.HostStatus {
	var sts []scheduler.HostStatus
	_ = f.do(f.ctx, "host", func(ctx context.Context) error {
		var err error
		sts, err = readHosts(ctx, f.rdb, f.k, []string{authority}, f.defPace, f.cfg.Margin)
		return err
	})
	if len(sts) == 1 {
		return sts[0]
	}
	return hostStatus(authority, nil, 0, f.defPace, f.cfg.Margin, time.Now())
}

// hostRecord is a host's record as HGETALL reads it.
type hostRecord map[string]string

// num is field k of the record as an integer: 0 when absent or not one.
func (r hostRecord) num(k string) int64 {
	v, _ := strconv.ParseInt(r[k], 10, 64)
	return v
}

// hostStatus reads a host record as a HostStatus at now.
func hostStatus(auth string, rec map[string]string, queued int, defPace string, margin time.Duration, now time.Time) scheduler.HostStatus {
	n := hostRecord(rec).num
	pace := rec["pace"]
	if pace == "" {
		pace = defPace
	}
	segIv, open := paceAt(pace, now)
	iv := time.Duration(max(segIv, n("adaptive"), n("backoff"))) * time.Millisecond
	src := "pace " + robots.ShortDuration(iv)
	if iv > 0 {
		iv += margin
	}
	hs := scheduler.HostStatus{Authority: auth, Interval: iv, PaceSource: src, Queued: queued, InFlight: int(n("inflight")),
		Fetched: int(n("fetched")), Failures: int(n("failures")), DropReason: rec["dropped"], RulesKnown: rec["rstate"] == "ok"}
	var next time.Time // zero: no start recorded, none to wait for
	if last := n("last"); last > 0 {
		next = msTime(last).Add(iv)
	}
	if u := msTime(n("until")); u.After(next) {
		next = u
	}
	hs.NextAllowed = next
	switch {
	case hs.DropReason != "":
		hs.State, hs.NextAllowed = scheduler.StateDropped, time.Time{}
	case queued == 0 && hs.InFlight == 0:
		hs.State = scheduler.StateDone
	case rec["reported"] != "" && rec["reported"] == strconv.FormatInt(n("nlease"), 10):
		// A drain found it beyond MaxWait and reported its URLs, and no
		// process has leased it since (the report script's mark).
		hs.State = scheduler.StateDeferred
	case msTime(n("until")).After(now):
		hs.State, hs.BackoffReason = scheduler.StateBackingOff, "back-off "+robots.ShortDuration(time.Duration(n("backoff"))*time.Millisecond)
	case !open && hs.RulesKnown:
		hs.State = scheduler.StateParked
	case next.After(now):
		hs.State = scheduler.StateWaiting
	default:
		hs.State = scheduler.StateActive
	}
	return hs
}

// paceAt returns the interval (ms) and Visit-time verdict of an encoded
// pace table at t.
func paceAt(pace string, t time.Time) (int64, bool) {
	u := t.UTC()
	m := int64(u.Hour()*60 + u.Minute())
	for seg := range strings.SplitSeq(pace, ",") {
		f := strings.Split(seg, ":")
		if len(f) != 3 {
			continue
		}
		to, _ := strconv.ParseInt(f[0], 10, 64)
		if m < to {
			iv, _ := strconv.ParseInt(f[1], 10, 64)
			fl, _ := strconv.Atoi(f[2])
			return iv, fl&1 == 1
		}
	}
	return 0, true
}

// Hosts returns a snapshot of every host of the crawl, in authority order,
// read with pipelined calls: one for the shards' host sets, one per batch
// of hosts for their records.
func (f *Frontier) Hosts() []scheduler.HostStatus {
	var out []scheduler.HostStatus
	_ = f.do(f.ctx, "hosts", func(ctx context.Context) error {
		auths, err := allHosts(ctx, f.rdb, f.k)
		if err != nil {
			return err
		}
		out, err = readHosts(ctx, f.rdb, f.k, auths, f.defPace, f.cfg.Margin)
		return err
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Authority < out[j].Authority })
	return out
}

// allHosts returns the authorities of every shard, in one pipeline.
func allHosts(ctx context.Context, rdb redis.UniversalClient, k keys) ([]string, error) {
	p := rdb.Pipeline()
	cmds := make([]*redis.StringSliceCmd, Shards)
	for n := range Shards {
		cmds[n] = p.SMembers(ctx, k.hosts(n))
	}
	if _, err := p.Exec(ctx); err != nil && err != redis.Nil {
		return nil, err
	}
	var out []string
	for _, c := range cmds {
		out = append(out, c.Val()...)
	}
	return out, nil
}

// hostBatch is how many hosts one pipeline reads.
const hostBatch = 512

// readHosts returns the status of each of auths at now, reading their
// records and queue lengths in pipelines of hostBatch hosts.
func readHosts(ctx context.Context, rdb redis.UniversalClient, k keys, auths []string, defPace string, margin time.Duration) ([]scheduler.HostStatus, error) {
	out := make([]scheduler.HostStatus, 0, len(auths))
	now := time.Now()
	for len(auths) > 0 {
		batch := auths[:min(hostBatch, len(auths))]
		auths = auths[len(batch):]
		p := rdb.Pipeline()
		recs := make([]*redis.MapStringStringCmd, len(batch))
		lens := make([]*redis.IntCmd, len(batch))
		for i, a := range batch {
			recs[i], lens[i] = p.HGetAll(ctx, k.host(a)), p.LLen(ctx, k.queue(a))
		}
		if _, err := p.Exec(ctx); err != nil && err != redis.Nil {
			return nil, err
		}
		for i, a := range batch {
			out = append(out, hostStatus(a, recs[i].Val(), int(lens[i].Val()), defPace, margin, now))
		}
	}
	return out, nil
}

// Stats sums the crawl's counts across shards (fetched, queued, leased,
// hosts) and this process's own (skipped, errors, retries).
func (f *Frontier) Stats() scheduler.Stats {
	c := sumCounts(f.ctx, f.rdb, f.k)
	f.mu.Lock()
	defer f.mu.Unlock()
	return scheduler.Stats{Fetched: int(c["fetched"]), Queued: int(c["queued"]), InFlight: int(c["leased"]), Leased: int(c["leased"]),
		Skipped: f.local.skipped, Errors: f.local.errors, Retries: f.local.retries, Hosts: int(c["hosts"]), HostsDropped: int(c["dropped"])}
}

// Progress returns Stats and the status of each host this process
// touched (queued a URL of, leased, finished, observed, gave rules to)
// since the previous call whose state differs from the one Progress last
// returned for it: this process's view, read in pipelines, in time
// proportional to the hosts it touched. Hosts only other processes
// touched are not listed; Hosts and Status read every host.
func (f *Frontier) Progress() (scheduler.Stats, []scheduler.HostStatus) {
	f.mu.Lock()
	auths := make([]string, 0, len(f.local.touched))
	for a := range f.local.touched {
		auths = append(auths, a)
	}
	f.local.touched = map[string]struct{}{}
	f.mu.Unlock()
	var sts []scheduler.HostStatus
	err := f.do(f.ctx, "progress", func(ctx context.Context) error {
		var err error
		sts, err = readHosts(ctx, f.rdb, f.k, auths, f.defPace, f.cfg.Margin)
		return err
	})
	if err != nil {
		f.mu.Lock()
		for _, a := range auths {
			f.local.touched[a] = struct{}{}
		}
		f.mu.Unlock()
		return f.Stats(), nil
	}
	var moved []scheduler.HostStatus
	f.mu.Lock()
	for _, st := range sts {
		if f.local.shown[st.Authority] != st.State {
			f.local.shown[st.Authority] = st.State
			moved = append(moved, st)
		}
	}
	f.mu.Unlock()
	sort.Slice(moved, func(i, j int) bool { return moved[i].Authority < moved[j].Authority })
	return f.Stats(), moved
}

// sumCounts sums the count hashes of all shards.
func sumCounts(ctx context.Context, rdb redis.UniversalClient, k keys) map[string]int64 {
	sum := map[string]int64{}
	p := rdb.Pipeline()
	cmds := make([]*redis.MapStringStringCmd, Shards)
	for n := range Shards {
		cmds[n] = p.HGetAll(ctx, k.count(n))
	}
	_, _ = p.Exec(ctx)
	for _, c := range cmds {
		for key, v := range c.Val() {
			x, _ := strconv.ParseInt(v, 10, 64)
			sum[key] += x
		}
	}
	return sum
}

// A Report is the crawl's status across processes, for crawl status.
type Report struct {
	Queued    int64           `json:"queued"`
	Leased    int64           `json:"leased"`
	Done      int64           `json:"done"`
	Fetched   int64           `json:"fetched"`
	Seen      int64           `json:"seen"`
	TakenBack int64           `json:"taken_back"`
	Hosts     int64           `json:"hosts"`
	States    map[string]int  `json:"host_states"` // host count per scheduler state
	Processes []ProcessReport `json:"processes"`
}

// A ProcessReport is one process's heartbeat: LastSeen is when it was
// written, Heartbeat the interval the process writes it at.
type ProcessReport struct {
	ID        string        `json:"id"`
	PID       int           `json:"pid"`
	Host      string        `json:"host"`
	Out       string        `json:"out,omitempty"`
	Pages     int           `json:"pages"`
	Leases    int           `json:"leases"`
	Started   time.Time     `json:"started"`
	LastSeen  time.Time     `json:"last_seen"`
	Heartbeat time.Duration `json:"heartbeat"`
}

// Stale reports whether the process's last heartbeat, at now, is older
// than three of its intervals: it has stopped (killed, or cut off from
// Redis) without removing its heartbeat, as a process that ends does.
func (p ProcessReport) Stale(now time.Time) bool {
	return now.Sub(p.LastSeen) > staleBeats*p.Heartbeat
}

// Status returns the status of the crawl at url under the default prefix
// (see StatusPrefix).
func Status(ctx context.Context, url string) (Report, error) { return StatusPrefix(ctx, url, "") }

// StatusPrefix returns the status of the crawl at url under prefix ("" for
// the default "crawl:"): counts summed over shards, hosts by state, and the
// processes' heartbeats. Errors show the URL redacted.
func StatusPrefix(ctx context.Context, url, prefix string) (Report, error) {
	if prefix == "" {
		prefix = "crawl:"
	}
	rdb, err := NewClient(url)
	if err != nil {
		return Report{}, err
	}
	defer rdb.Close()
	k := keys{prefix}
	if err := rdb.Ping(ctx).Err(); err != nil {
		return Report{}, fmt.Errorf("redisfrontier: status of %s: %s", config.RedactURL(url), redactErr(err, url))
	}
	c := sumCounts(ctx, rdb, k)
	r := Report{Queued: c["queued"], Leased: c["leased"], Done: c["done"], Fetched: c["fetched"], Seen: c["seen"],
		TakenBack: c["takenback"], Hosts: c["hosts"], States: hostStates(ctx, rdb, k)}
	procs, _ := rdb.HGetAll(ctx, k.procs()).Result()
	for id, v := range procs {
		var hb heartbeat
		if json.Unmarshal([]byte(v), &hb) == nil {
			r.Processes = append(r.Processes, processReport(id, hb))
		}
	}
	sort.Slice(r.Processes, func(i, j int) bool { return r.Processes[i].ID < r.Processes[j].ID })
	return r, nil
}

// processReport is the report of process id's heartbeat hb; a heartbeat
// that does not give its interval was written every DefaultHeartbeat.
func processReport(id string, hb heartbeat) ProcessReport {
	every := time.Duration(hb.Every) * time.Millisecond
	if every <= 0 {
		every = DefaultHeartbeat
	}
	return ProcessReport{ID: id, PID: hb.PID, Host: hb.Host, Out: hb.Out, Pages: hb.Pages, Leases: hb.Leases,
		Started: time.UnixMilli(hb.Started), LastSeen: time.UnixMilli(hb.Seen), Heartbeat: every}
}

// hostStates counts the hosts of every shard by state, read in
// pipelines.
func hostStates(ctx context.Context, rdb redis.UniversalClient, k keys) map[string]int {
	out := map[string]int{}
	auths, err := allHosts(ctx, rdb, k)
	if err != nil {
		return out
	}
	sts, _ := readHosts(ctx, rdb, k, auths, "", 0)
	for _, st := range sts {
		out[st.State]++
	}
	return out
}
