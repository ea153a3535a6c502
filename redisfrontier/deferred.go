package redisfrontier

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/crawlproject/crawl/scheduler"
)

// reportDeferred reports, at a drain, the queued URLs of the hosts
// deferred beyond MaxWait (ready no sooner than MaxWait from now) and of
// the hosts given up for the run, through Config.OnSkip with Queued true
// (not counted in Stats.Skipped: they stay queued), as the scheduler does.
// Each host is reported by the one process whose report script claims it
// since the host's last lease, so the skip logs of several processes list
// each URL once.
func (f *Frontier) reportDeferred(ctx context.Context) error {
	if f.cfg.OnSkip == nil {
		return nil
	}
	hosts, err := f.deferredHosts(ctx)
	if err != nil {
		return err
	}
	for auth, score := range hosts {
		if err := f.reportHost(ctx, auth, score); err != nil {
			return f.wrap("deferred hosts", err)
		}
	}
	return nil
}

// deferredHosts returns the hosts ready no sooner than MaxWait from now,
// with their ready score (ms), and the hosts given up (score 0), read in
// one pipeline over the shards.
func (f *Frontier) deferredHosts(ctx context.Context) (map[string]int64, error) {
	horizon := strconv.FormatInt(time.Now().Add(f.cfg.MaxWait).UnixMilli(), 10)
	out := map[string]int64{}
	err := f.call(ctx, "deferred hosts", func(ctx context.Context) error {
		p := f.rdb.Pipeline()
		later := make([]*redis.ZSliceCmd, Shards)
		dropped := make([]*redis.StringSliceCmd, Shards)
		for n := range Shards {
			later[n] = p.ZRangeByScoreWithScores(ctx, f.k.ready(n), &redis.ZRangeBy{Min: "(" + horizon, Max: "+inf"})
			dropped[n] = p.SMembers(ctx, f.k.dropped(n))
		}
		if _, err := p.Exec(ctx); err != nil && err != redis.Nil {
			return err
		}
		for n := range Shards {
			for _, z := range later[n].Val() {
				out[z.Member.(string)] = int64(z.Score)
			}
			for _, a := range dropped[n].Val() {
				out[a] = 0
			}
		}
		return nil
	})
	return out, err
}

// reportHost claims auth's report and, if this process got it, reports
// each of its queued URLs, listed in batches.
func (f *Frontier) reportHost(ctx context.Context, auth string, score int64) error {
	shard := []string{f.k.shard(shardOf(auth))}
	var mine int64
	var rec map[string]string
	err := f.do(ctx, "report", func(ctx context.Context) error {
		var err error
		if mine, err = f.sc.report.Run(ctx, f.rdb, shard, auth).Int64(); err != nil || mine == 0 {
			return err
		}
		rec, err = f.rdb.HGetAll(ctx, f.k.host(auth)).Result()
		return err
	})
	if err != nil || mine == 0 {
		return err
	}
	tmpl := f.deferSkip(auth, rec, score)
	const batch = 1024
	for start := int64(0); ; start += batch {
		var es []string
		err := f.do(ctx, "report", func(ctx context.Context) error {
			var err error
			es, err = f.rdb.LRange(ctx, f.k.queue(auth), start, start+batch-1).Result()
			return err
		})
		if err != nil {
			return err
		}
		for _, s := range es {
			if e, err := decodeEntry(auth, s); err == nil {
				sk := tmpl
				sk.URL, sk.Parent = e.URL, e.Parent
				f.cfg.OnSkip(sk)
			}
		}
		if len(es) < batch {
			return nil
		}
	}
}

// deferSkip is the skip a deferred or dropped host's queued URLs are
// reported with: the reason and rule that hold it back, read from its
// record (rec) and its ready score (ms; 0 for a host given up).
func (f *Frontier) deferSkip(auth string, rec map[string]string, score int64) scheduler.Skip {
	now := time.Now()
	sk := scheduler.Skip{Authority: auth, Time: now, Queued: true}
	if d := rec["dropped"]; d != "" {
		reason, detail, _ := strings.Cut(d, ": ")
		sk.Reason, sk.Detail = scheduler.Reason(reason), "host given up for this run ("+detail+"): the URL stays queued for the next run"
		return sk
	}
	until := msTime(score)
	hs := hostStatus(auth, rec, 1, f.defPace, f.cfg.Margin, now)
	n := hostRecord(rec).num
	iv, open := paceAt(rec["pace"], until.Add(-time.Millisecond))
	defIv, _ := paceAt(f.defPace, until)
	rule := hs.PaceSource
	switch {
	case !open && rec["pace"] != "":
		sk.Reason, rule = scheduler.ReasonVisitTimeDeferred, f.visitString(auth)
	case n("rretry") >= score:
		sk.Reason, rule = scheduler.ReasonRobotsUnreachable, scheduler.RobotsURL(auth)
	case n("until") >= score:
		sk.Reason, rule = scheduler.ReasonBackoffDeferred, hs.BackoffReason
	case rec["rstate"] == "ok" && iv > defIv:
		sk.Reason = scheduler.ReasonCrawlDelayTooLong
	default:
		sk.Reason = scheduler.ReasonPaceTooLong
	}
	sk.Rule = rule
	sk.Detail = fmt.Sprintf("host deferred until %s by %s: the URL stays queued for the next run", until.UTC().Format(time.RFC3339), rule)
	return sk
}
