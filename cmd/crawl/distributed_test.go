package main

import (
	"fmt"
	"testing"
	"time"
)

// The distributed crawl tests run crawl processes at once on one shared
// frontier in Redis (--frontier) against the test web of distweb_test.go
// and prove, from the web servers' own request logs, the politeness
// guarantees across processes: the pace each host asks for (Crawl-delay;
// Request-rate and Visit-time, the 1996 extended standard), robots.txt
// fetched once per host, its 5xx read as complete disallow (RFC 9309
// section 2.3.1.4), every allowed URL fetched and none twice, and the work
// shared. The web's hosts live on 127.3.B.x, B one per test, so that the
// tests run at once.

// distLimit bounds one distributed crawl: the web's slowest host needs
// about 4 s at its pace.
const distLimit = 60 * time.Second

// TestDistributedCrawlOneRedis: three processes on one Redis server crawl
// the web as one polite crawler would.
func TestDistributedCrawlOneRedis(t *testing.T) {
	t.Parallel()
	frontier := distSingleDB(t, 12)
	runDistributed(t, buildCrawl(t), frontier, 1)
}

// TestDistributedCrawlCluster: the same on a Redis Cluster of three
// masters, the frontier's keys spread over its slots.
func TestDistributedCrawlCluster(t *testing.T) {
	t.Parallel()
	frontier := distCluster(t)
	runDistributed(t, buildCrawl(t), frontier, 2)
}

// runDistributed crawls a test web of block with three processes on
// frontier and audits the servers' logs.
func runDistributed(t *testing.T, bin, frontier string, block int) {
	web := startDistWeb(t, block)
	c := startDistCrawls(t, bin, web, frontier, 3)
	if !c.wait(t, distLimit) {
		return
	}
	hits := web.hits()
	perProc := web.requests(3)
	problems := auditPace(web, hits)
	problems = append(problems, auditVisitTime(web, hits)...)
	problems = append(problems, auditCoverage(web, hits, nil)...)
	problems = append(problems, auditWorkShared(perProc)...)
	problems = append(problems, auditLogged(perProc, crawlLines(t, c.outs))...)
	problems = append(problems, auditDeferred(t, web, c.outs)...)
	reportProblems(t, web, hits, problems)
	logPace(t, web, c)
}

// TestDistributedAuditsOnEmbeddedFrontier runs the test web and its audits
// with one process on the embedded frontier, which keeps the guarantees
// the audits check: it proves the audits pass on a polite crawl, so a
// distributed test that fails them found a fault of the shared frontier.
func TestDistributedAuditsOnEmbeddedFrontier(t *testing.T) {
	t.Parallel()
	bin := buildCrawl(t)
	web := startDistWeb(t, 0)
	c := startDistCrawls(t, bin, web, "", 1)
	if !c.wait(t, distLimit) {
		return
	}
	hits := web.hits()
	problems := auditPace(web, hits)
	problems = append(problems, auditVisitTime(web, hits)...)
	problems = append(problems, auditCoverage(web, hits, nil)...)
	problems = append(problems, auditLogged(web.requests(1), crawlLines(t, c.outs))...)
	problems = append(problems, auditDeferred(t, web, c.outs)...)
	reportProblems(t, web, hits, problems)
	logPace(t, web, c)
}

// logPace logs how many requests the web received, over how long, and how
// long the processes ran.
func logPace(t *testing.T, web *distWeb, c *distCrawl) {
	n, first, last := web.total()
	t.Logf("%d requests from %v to %v (%v), processes ran %v; per process %v",
		n, first.Format("15:04:05.000"), last.Format("15:04:05.000"), last.Sub(first).Round(time.Millisecond),
		c.took().Round(time.Millisecond), web.requests(len(c.cmds)))
}

// TestDistributedAuditsCatchFaults: each audit reports the fault it is
// there to find, on a log made up for it.
func TestDistributedAuditsCatchFaults(t *testing.T) {
	now := time.Now()
	web := &distWeb{}
	at := time.Date(now.Year(), now.Month(), now.Day(), 12, 0, 0, 0, time.UTC)
	for i, k := range []distKind{kindDelay, kindVisitClosed, kindRobots5xx} {
		h := newDistHost(fmt.Sprintf("127.3.9.%d:80", i+1), k, 1, at)
		web.hosts = append(web.hosts, h)
	}
	d, closed, failing := web.hosts[0], web.hosts[1], web.hosts[2]
	hits := map[string][]distHit{
		d.addr: {{at: at, path: "/robots.txt"}, {at: at.Add(d.pace), path: "/"},
			{at: at.Add(2*d.pace - 5*time.Millisecond), path: "/p1"}, {at: at.Add(5 * d.pace), path: "/p1"},
			{at: at.Add(6 * d.pace), path: "/private/secret"}},
		closed.addr:  {{at: at, path: "/robots.txt"}, {at: at.Add(time.Second), path: "/"}},
		failing.addr: {{at: at, path: "/robots.txt"}, {at: at.Add(time.Second), path: "/robots.txt"}},
	}
	// pace: "/" to the first "/p1"; visit: "/" of the closed host;
	// coverage: "/p1" twice, /p2../p6 never, /private/secret, the closed
	// host's "/", the failing host's second robots.txt.
	want := map[string]int{"pace": 1, "visit": 1, "coverage": 1 + 5 + 1 + 1 + 1}
	got := map[string][]string{
		"pace":     auditPace(web, hits),
		"visit":    auditVisitTime(web, hits),
		"coverage": auditCoverage(web, hits, nil),
	}
	for name, n := range want {
		if len(got[name]) != n {
			t.Errorf("%s audit found %d faults, want %d: %q", name, len(got[name]), n, got[name])
		}
	}
	if len(auditOutage(hits, at.Add(d.pace+time.Millisecond), at.Add(2*d.pace))) != 1 {
		t.Error("the outage audit must report the request inside the outage, and only it")
	}
	d1 := hitsOf(hits, d.addr, "/p1")
	d1[0].proc, d1[1].proc = 0, 1
	d1[1].at = d1[0].at.Add(distFetchTimeout)
	hits[d.addr][2], hits[d.addr][3] = d1[0], d1[1]
	if !takenOver(hits, 0, d1[1].at)(d.addr, "/p1") {
		t.Error("a URL the victim fetched before the kill and another process after its lease expired must be allowed twice")
	}
	if takenOver(hits, 1, d1[1].at)(d.addr, "/p1") || takenOver(hits, 0, d1[0].at)(d.addr, "/p1") {
		t.Error("a URL fetched first by a survivor, or first after the kill, must not be allowed twice")
	}
	d1[1].at = d1[0].at.Add(distFetchTimeout - time.Millisecond)
	hits[d.addr][3] = d1[1]
	if takenOver(hits, 0, d1[1].at)(d.addr, "/p1") {
		t.Error("a URL fetched again before its lease could expire must not be allowed twice")
	}
	if auditWorkShared([]int{0, 9, 0}) == nil || auditWorkShared([]int{3, 9, 0}) != nil {
		t.Error("the work audit must want two processes with requests, and no more")
	}
}
