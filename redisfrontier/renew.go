package redisfrontier

import (
	"encoding/json"
	"time"
)

// renewLoop renews every lease held, every third of LeaseDuration, until
// Close: a lease lives while its holder does. A lease found taken back is
// marked lost: its request does not go out and its finish is refused.
func (f *Frontier) renewLoop() {
	defer f.wg.Done()
	t := time.NewTicker(f.opts.LeaseDuration / 3)
	defer t.Stop()
	for {
		select {
		case <-f.ctx.Done():
			return
		case <-t.C:
			f.renewAll()
		}
	}
}

func (f *Frontier) renewAll() {
	f.mu.Lock()
	list := make([]*held, 0, len(f.held))
	for _, h := range f.held {
		list = append(list, h)
	}
	f.mu.Unlock()
	ms := f.opts.LeaseDuration.Milliseconds()
	for _, h := range list {
		n, err := f.sc.renew.Run(f.ctx, f.rdb, []string{f.k.shard(h.shard)}, h.id, h.token, ms).Int()
		if err == nil && n == 0 {
			f.mu.Lock()
			h.lost = true
			f.mu.Unlock()
		}
	}
}

// heartbeat is a process's entry in the procs hash, read by Status.
type heartbeat struct {
	PID     int    `json:"pid"`
	Host    string `json:"host"`
	Out     string `json:"out,omitempty"`
	Pages   int    `json:"pages"`
	Leases  int    `json:"leases"`
	Feeding bool   `json:"feeding,omitempty"`
	Started int64  `json:"started"`
	Seen    int64  `json:"seen"`
	Every   int64  `json:"every,omitempty"` // the heartbeat interval, ms
}

// heartbeatLoop writes the process's heartbeat every Options.Heartbeat
// until Close.
func (f *Frontier) heartbeatLoop() {
	defer f.wg.Done()
	t := time.NewTicker(f.opts.Heartbeat)
	defer t.Stop()
	for {
		f.beat()
		select {
		case <-f.ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (f *Frontier) beat() {
	f.mu.Lock()
	hb := heartbeat{PID: f.pid, Host: f.hostname, Out: f.opts.Out, Pages: f.local.pages, Leases: len(f.held),
		Feeding: f.local.feeds > 0, Started: f.started.UnixMilli(), Seen: time.Now().UnixMilli(),
		Every: f.opts.Heartbeat.Milliseconds()}
	f.mu.Unlock()
	b, _ := json.Marshal(hb)
	f.rdb.HSet(f.ctx, f.k.procs(), f.opts.ProcessID, b)
}
