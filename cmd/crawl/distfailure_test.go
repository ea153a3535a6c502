package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/redistest"
)

// waitRequests waits until the web received at least n requests and
// one of c's processes at least mine of them, and returns that process; it
// fails t after 30 s, or at once when the processes have all exited.
func waitRequests(t *testing.T, web *distWeb, c *distCrawl, n, mine int) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && !c.exited() {
		total, _, _ := web.total()
		for i, m := range web.requests(len(c.cmds)) {
			if total >= n && m >= mine {
				return i
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	c.wait(t, time.Second)
	t.Fatalf("the web did not receive %d requests", n)
	return -1
}

// takenOver is the audit's allowance for a URL fetched twice in a crawl
// where process victim stopped at stop: the first request came from the
// victim before stop, the second from another process, and no sooner
// than fetch.timeout after the first (the lease was taken back only once
// it had expired, README guarantee 7).
func takenOver(hits map[string][]distHit, victim int, stop time.Time) func(host, path string) bool {
	return func(host, path string) bool {
		two := hitsOf(hits, host, path)
		return len(two) == 2 && two[0].proc == victim && two[0].at.Before(stop) &&
			two[1].proc != victim && two[1].at.Sub(two[0].at) >= distFetchTimeout
	}
}

// hitsOf is the requests for path of host, in time order.
func hitsOf(hits map[string][]distHit, host, path string) []distHit {
	var hs []distHit
	for _, h := range hits[host] {
		if h.path == path {
			hs = append(hs, h)
		}
	}
	return hs
}

// refetched counts the URLs the web was asked for more than once.
func refetched(hits map[string][]distHit) int {
	n := 0
	for _, hs := range hits {
		seen := map[string]int{}
		for _, h := range hs {
			if seen[h.path]++; seen[h.path] == 2 {
				n++
			}
		}
	}
	return n
}

// TestDistributedCrawlSurvivesKill9 kills one of three processes with
// SIGKILL mid-crawl: the others fetch the URLs it held once their leases
// expire, each host's pace holds across the takeover, and nothing but
// those URLs is fetched twice.
func TestDistributedCrawlSurvivesKill9(t *testing.T) {
	t.Parallel()
	frontier := distSingleDB(t, 13)
	bin := buildCrawl(t)
	web := startDistWeb(t, 3)
	c := startDistCrawls(t, bin, web, frontier, 3)
	victim := waitRequests(t, web, c, 40, 8)
	killed := time.Now()
	c.killOne(victim)
	if !c.wait(t, distLimit, victim) {
		return
	}
	hits := web.hits()
	perProc := web.requests(3)
	problems := auditPace(web, hits)
	problems = append(problems, auditVisitTime(web, hits)...)
	problems = append(problems, auditCoverage(web, hits, takenOver(hits, victim, killed))...)
	if n := refetched(hits); n > distWorkers {
		problems = append(problems, fmt.Sprintf("%d URLs fetched twice; at most the %d a killed process's workers held may be", n, distWorkers))
	}
	survivors := append([]int(nil), perProc...)
	survivors[victim] = 0
	problems = append(problems, auditWorkShared(survivors)...)
	lines := crawlLines(t, c.outs)
	lines[victim] = perProc[victim] // its log may lack the requests in flight at the kill
	problems = append(problems, auditLogged(perProc, lines)...)
	problems = append(problems, auditDeferred(t, web, c.outs)...)
	reportProblems(t, web, hits, problems)
	t.Logf("process %d killed after %d of its requests", victim, perProc[victim])
	logPace(t, web, c)
}

// distOutage is how long the Redis restart test keeps the server down.
const distOutage = 3 * time.Second

// distInFlight is how long after the server stopped a request may still
// reach the web: one whose start Redis recorded just before it stopped.
const distInFlight = 250 * time.Millisecond

// TestDistributedCrawlSurvivesRedisRestart stops the crawl's Redis server
// (its own, with every write in its append-only file) for a few seconds
// mid-crawl and starts it again on the same port and files: the processes
// wait for it, send no request while it is down (none is started
// without a lease and a recorded start), and then finish the crawl with
// nothing lost.
func TestDistributedCrawlSurvivesRedisRestart(t *testing.T) {
	t.Parallel()
	server := needRedis(t, redistest.EnvServer)
	bin := buildCrawl(t)
	srv, err := redistest.StartServer(server, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Stop() })
	web := startDistWeb(t, 4)
	c := startDistCrawls(t, bin, web, srv.URL(0), 3)
	waitRequests(t, web, c, 40, 0)
	if err := srv.Stop(); err != nil {
		t.Error(err)
	}
	stopped := time.Now()
	time.Sleep(distOutage)
	restarted := time.Now()
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	if !c.wait(t, distLimit) {
		return
	}
	hits := web.hits()
	problems := auditPace(web, hits)
	problems = append(problems, auditVisitTime(web, hits)...)
	problems = append(problems, auditCoverage(web, hits, restartedAgain(hits, stopped))...)
	problems = append(problems, auditOutage(hits, stopped.Add(distInFlight), restarted)...)
	problems = append(problems, auditWorkShared(web.requests(3))...)
	problems = append(problems, auditDeferred(t, web, c.outs)...)
	reportProblems(t, web, hits, problems)
	logPace(t, web, c)
}

// restartedAgain is the audit's allowance for a URL fetched twice across a
// Redis outage that began at stop: its lease may have expired on Redis's
// clock while the server was down, so it was fetched again by another
// process, after the outage.
func restartedAgain(hits map[string][]distHit, stop time.Time) func(host, path string) bool {
	return func(host, path string) bool {
		two := hitsOf(hits, host, path)
		return len(two) == 2 && two[0].at.Before(stop.Add(distInFlight)) && two[1].at.After(stop)
	}
}

// auditOutage checks that no request reached the web between from and to,
// while the frontier's server was down.
func auditOutage(hits map[string][]distHit, from, to time.Time) []string {
	var bad []string
	for host, hs := range hits {
		for _, h := range hs {
			if h.at.After(from) && h.at.Before(to) {
				bad = append(bad, fmt.Sprintf("%s: %s requested at %s, while Redis was down (%s to %s)",
					host, h.path, h.at.Format("15:04:05.000"), from.Format("15:04:05.000"), to.Format("15:04:05.000")))
			}
		}
	}
	return bad
}
