package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/redistest"
)

// distPrefix is the key prefix of a crawl whose frontier URL names no
// other: the distributed tests clear its keys on the cluster, whose one
// database other tests share under prefixes of their own.
const distPrefix = "crawl:"

// distSingleDB is the URL of database db of the single test server,
// emptied: each distributed test on it has a database of its own.
func distSingleDB(t *testing.T, db int) string {
	t.Helper()
	u, err := redistest.WithDB(redistest.URL(t), db)
	if err != nil {
		t.Fatal(err)
	}
	if err := redistest.FlushDB(u); err != nil {
		t.Fatal(err)
	}
	return u
}

// distCluster is the URL of the test cluster, with the keys of distPrefix
// deleted on every master.
func distCluster(t *testing.T) string {
	t.Helper()
	u := redistest.ClusterURL(t)
	if _, err := redistest.DeletePrefix(u, distPrefix); err != nil {
		t.Fatal(err)
	}
	return u
}

// distFetchTimeout is fetch.timeout in the distributed tests: a lease
// lasts about this long, so a killed process's URLs go back to the queue
// within seconds.
const distFetchTimeout = 2 * time.Second

// distWorkers is fetch.workers of each process: at most this many of a
// killed process's URLs were in flight.
const distWorkers = 4

// distEnv is the config every process of a distributed test crawl gets,
// through the environment: a short pace for hosts that ask none, a
// max_wait that defers the host whose Visit-time window is hours away at
// once, and a fetch.timeout short enough that a killed process's leases
// expire within seconds.
func distEnv(proc int) []string {
	return append(os.Environ(),
		"CRAWL_POLITENESS_DEFAULT_DELAY="+distDefaultDelay.String(),
		"CRAWL_POLITENESS_MAX_WAIT=3s",
		"CRAWL_FETCH_TIMEOUT="+distFetchTimeout.String(),
		fmt.Sprintf("CRAWL_FETCH_WORKERS=%d", distWorkers),
		"CRAWL_AGENT_USER_AGENT="+distProcAgent(proc),
	)
}

// A distCrawl is crawl processes started at once on one test web, each
// with an --out of its own.
type distCrawl struct {
	cmds []*exec.Cmd
	outs []string
	logs []*bytes.Buffer // each process's standard output and error
	errs []error         // each process's exit, once waited for
	done []chan struct{}
	// start and end: the first process started, the last one ended
	start, end time.Time
	mu         sync.Mutex
}

// took is how long the processes ran: from the first start to the last
// exit.
func (c *distCrawl) took() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.end.Sub(c.start)
}

// startDistCrawls starts n crawl processes on web's seeds; frontier is
// their --frontier URL ("" for the embedded frontier, which only one
// process may use).
func startDistCrawls(t *testing.T, bin string, web *distWeb, frontier string, n int) *distCrawl {
	t.Helper()
	dir := t.TempDir()
	seedFile := filepath.Join(dir, "seeds.txt")
	if err := os.WriteFile(seedFile, []byte(web.seeds()), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &distCrawl{errs: make([]error, n), start: time.Now()}
	for i := range n {
		out := filepath.Join(dir, fmt.Sprintf("out%d", i))
		args := []string{"--seed", seedFile, "--out", out, "--agent", "disttest", "--progress", "never"}
		if frontier != "" {
			args = append(args, "--frontier", frontier)
		}
		cmd := exec.Command(bin, args...)
		cmd.Env = distEnv(i)
		log := &bytes.Buffer{}
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			c.kill()
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			c.errs[i] = cmd.Wait()
			c.mu.Lock()
			c.end = time.Now()
			c.mu.Unlock()
			close(done)
		}()
		c.cmds, c.outs, c.logs, c.done = append(c.cmds, cmd), append(c.outs, out), append(c.logs, log), append(c.done, done)
	}
	t.Cleanup(c.kill)
	return c
}

// exited reports whether every process has exited.
func (c *distCrawl) exited() bool {
	for _, d := range c.done {
		select {
		case <-d:
		default:
			return false
		}
	}
	return true
}

// kill ends every process still running with SIGKILL and waits for it.
func (c *distCrawl) kill() {
	for i, cmd := range c.cmds {
		cmd.Process.Signal(syscall.SIGKILL)
		<-c.done[i]
	}
}

// killOne ends process i with SIGKILL and waits for it.
func (c *distCrawl) killOne(i int) {
	c.cmds[i].Process.Signal(syscall.SIGKILL)
	<-c.done[i]
}

// wait waits up to limit for every process and fails t for each that did
// not exit 0, with its output; skip names processes killed on purpose. It
// reports whether every other process exited 0.
func (c *distCrawl) wait(t *testing.T, limit time.Duration, skip ...int) bool {
	t.Helper()
	deadline := time.After(limit)
	var once sync.Once
	ok := true
	for i := range c.cmds {
		select {
		case <-c.done[i]:
		case <-deadline:
			once.Do(func() { t.Errorf("the crawl processes did not all finish in %v; killing them", limit) })
			c.killOne(i)
		}
		killed := false
		for _, k := range skip {
			killed = killed || k == i
		}
		if err := c.errs[i]; err != nil && !killed {
			var ee *exec.ExitError
			code := -1
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			}
			t.Errorf("process %d exited %d (%v), want 0; its output:\n%s", i, code, err, c.logs[i].String())
			ok = false
		}
	}
	return ok
}
