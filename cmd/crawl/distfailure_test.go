package main

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/crawlproject/crawl/internal/redistest"
	"github.com/crawlproject/crawl/redisfrontier"
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

// distSlow is how long the slow page of the kill test's web takes to
// answer: long enough for the test to see the request in flight and kill
// its process before the answer.
const distSlow = 400 * time.Millisecond

// distLease is how long a lease of the distributed tests' processes lives
// without renewal: the frontier's default for their fetch.timeout.
var distLease = redisfrontier.DefaultLeaseDuration(distFetchTimeout)

// TestDistributedCrawlSurvivesKill9 kills one of three processes with
// SIGKILL while the web is answering one of its requests: another process
// fetches that URL once its lease has expired, and no sooner; the host's
// next request waits for the unanswered one's start + fetch.timeout +
// pace; each host's pace holds, nothing but the URLs the victim held is
// fetched twice, and the other processes finish the crawl and exit 0.
func TestDistributedCrawlSurvivesKill9(t *testing.T) {
	t.Parallel()
	frontier := distSingleDB(t, 13)
	bin := buildCrawl(t)
	web := startDistWeb(t, 3)
	web.setSlow(distSlow)
	c := startDistCrawls(t, bin, web, frontier, 3)
	victim, inFlight := waitSlowInFlight(t, web, c, 8)
	c.killOne(victim)
	killed := time.Now()
	if !killed.Before(inFlight.at.Add(distSlow)) {
		t.Errorf("process %d was killed at %s, after its request for %s%s (%s) was answered",
			victim, killed.Format("15:04:05.000"), inFlight.host, inFlight.path, inFlight.at.Format("15:04:05.000"))
	}
	if !c.wait(t, distLimit, victim) {
		return
	}
	hits := web.hits()
	perProc := web.requests(3)
	problems := auditPace(web, hits)
	problems = append(problems, auditVisitTime(web, hits)...)
	problems = append(problems, auditCoverage(web, hits, takenOver(hits, victim, killed))...)
	problems = append(problems, auditTakeover(web, hits, inFlight, killed)...)
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
	t.Logf("process %d killed after %d of its requests, during %s%s", victim, perProc[victim], inFlight.host, inFlight.path)
	logPace(t, web, c)
}

// waitSlowInFlight waits until a process of c has made at least mine
// requests and the web is answering its request for distSlowPage, and
// returns the process and that request; it fails t after 30 s, or at once
// when the processes have all exited.
func waitSlowInFlight(t *testing.T, web *distWeb, c *distCrawl, mine int) (int, distHit) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && !c.exited() {
		for i, m := range web.requests(len(c.cmds)) {
			if hit, ok := web.slowInFlight(i); ok && m >= mine {
				return i, hit
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	c.wait(t, time.Second)
	t.Fatalf("no process had made %d requests with one for %s in flight", mine, distSlowPage)
	return -1, distHit{}
}

// auditTakeover checks, for the request first that was in flight when its
// process was killed at killed, that the URL was fetched again by another
// process no sooner than its lease could expire, and that the next
// request to its host waited for first's start + fetch.timeout + pace (the
// "unanswered request" rule). A live process renews its leases every
// third of distLease, so at the kill the lease had two thirds of it left;
// the audit wants half, allowing a renewal late by a sixth.
func auditTakeover(web *distWeb, hits map[string][]distHit, first distHit, killed time.Time) []string {
	hs := hits[first.host]
	i := slices.Index(hs, first)
	if i < 0 || i+1 == len(hs) {
		return []string{fmt.Sprintf("%s: no request after %s, the one in flight at the kill", first.host, first.path)}
	}
	var bad []string
	next := hs[i+1]
	if want := distFetchTimeout + web.byAddr[first.host].pace - clockSlack; next.at.Sub(first.at) < want {
		bad = append(bad, fmt.Sprintf("%s: %s %v after the unanswered %s; the host's next request must wait %v",
			first.host, next.path, next.at.Sub(first.at), first.path, want))
	}
	again := hitsOf(hits, first.host, first.path)
	switch {
	case len(again) != 2 || again[1].proc == first.proc:
		bad = append(bad, fmt.Sprintf("%s: %s, in flight at the kill, was not fetched again by another process: %v", first.host, first.path, again))
	case again[1].at.Before(killed.Add(distLease / 2)):
		bad = append(bad, fmt.Sprintf("%s: %s taken over %v after the kill, before its lease of %v could expire",
			first.host, first.path, again[1].at.Sub(killed), distLease))
	}
	return bad
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
	server := redistest.ServerBin(t)
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

// TestTakeoverAuditCatchesFaults: the takeover audit passes a URL taken
// over by another process once the lease could expire, and reports a URL
// never fetched again, fetched again by its own process or too soon, and
// a request to the host sooner than the unanswered request's start +
// fetch.timeout + pace.
func TestTakeoverAuditCatchesFaults(t *testing.T) {
	at := time.Now()
	h := newDistHost("127.3.9.1:80", kindDelay, 0, at)
	web := &distWeb{hosts: []*distHost{h}, byAddr: map[string]*distHost{h.addr: h}}
	first := distHit{at: at, host: h.addr, path: distSlowPage, proc: 0}
	hit := func(after time.Duration, path string, proc int) distHit {
		return distHit{at: at.Add(after), host: h.addr, path: path, proc: proc}
	}
	for name, c := range map[string]struct {
		log  []distHit
		want int
	}{
		"taken over":         {[]distHit{first, hit(distLease, distSlowPage, 1)}, 0},
		"never again":        {[]distHit{first, hit(distLease, "/p4", 1)}, 1},
		"by its own process": {[]distHit{first, hit(distLease, distSlowPage, 0)}, 1},
		"before the lease":   {[]distHit{first, hit(distLease/2-time.Millisecond, distSlowPage, 1)}, 1},
		"host paced too soon": {[]distHit{first, hit(distFetchTimeout, "/p4", 1),
			hit(distLease, distSlowPage, 1)}, 1},
	} {
		if got := auditTakeover(web, map[string][]distHit{h.addr: c.log}, first, at); len(got) != c.want {
			t.Errorf("%s: %d faults, want %d: %q", name, len(got), c.want, got)
		}
	}
}
