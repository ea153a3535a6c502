package redisfrontier

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"
)

// logRecorder is a slog.Handler keeping the messages logged.
type logRecorder struct {
	mu   *sync.Mutex
	msgs *[]string
}

func newLogRecorder() logRecorder { return logRecorder{mu: &sync.Mutex{}, msgs: &[]string{}} }

func (r logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (r logRecorder) WithAttrs([]slog.Attr) slog.Handler       { return r }
func (r logRecorder) WithGroup(string) slog.Handler            { return r }
func (r logRecorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	*r.msgs = append(*r.msgs, rec.Message)
	r.mu.Unlock()
	return nil
}

// count returns how many times msg was logged.
func (r logRecorder) count(msg string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, m := range *r.msgs {
		if m == msg {
			n++
		}
	}
	return n
}

// TestConnectionLossPausesAndContinues protects the crawl across a Redis
// outage: with the server stopped for about 2 s mid-crawl and started
// again on its append-only file, the frontier pauses, logs the outage once
// and its end once, no Wait lets a request start while the server is
// away, and afterwards every URL is fetched and nothing is lost.
func TestConnectionLossPausesAndContinues(t *testing.T) {
	srv := startOwnServer(t)
	logs := newLogRecorder()
	f, err := Open(context.Background(), Options{URL: srv.URL(0), Config: testConfig(), LeaseDuration: 5 * time.Second,
		Heartbeat: 200 * time.Millisecond, Logger: slog.New(logs)})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// 20 pages of each host at testPace take 3 s: the outage, after the
	// first 3 starts, falls inside the crawl however busy the machine.
	const hosts, perHost = 2, 20
	for h := range hosts {
		addURLs(t, f, fmt.Sprintf("http://h%d.outage.test", h), perHost)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	w := startWorkers(ctx, f, f)
	waitStarts(t, &w.mu, &w.starts, 3)
	if err := srv.Stop(); err != nil {
		t.Error(err)
	}
	down := time.Now()
	time.Sleep(2 * time.Second)
	up := time.Now()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	if err := w.wait(); err != nil {
		t.Fatal(err)
	}
	starts := w.starts
	for _, s := range starts {
		if s.After(down) && s.Before(up) {
			t.Errorf("a request started at %s, while the server was away (%s to %s)", s, down, up)
		}
	}
	st := f.Stats()
	if len(starts) != hosts*perHost || st.Fetched != hosts*perHost || st.Queued != 0 || st.Leased != 0 {
		t.Fatalf("%d starts, stats %+v: want %d fetched, none queued or leased", len(starts), st, hosts*perHost)
	}
	if n, m := logs.count("frontier unreachable, retrying"), logs.count("frontier back"); n != 1 || m != 1 {
		t.Fatalf("outage logged %d times, its end %d times: want once each", n, m)
	}
}

// waitStarts waits until n requests started.
func waitStarts(t *testing.T, mu *sync.Mutex, starts *[]time.Time, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		got := len(*starts)
		mu.Unlock()
		if got >= n {
			return
		}
	}
	t.Fatal(errors.New("the crawl did not start"))
}
