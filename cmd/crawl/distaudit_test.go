package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

// clockSlack is how much closer than its pace two requests to a host may
// reach its server and still pass the pace audit. The crawler counts each
// interval from the moment the previous answer had fully arrived, and a
// server logs a request after it arrived whole, so the gaps the server
// sees are never shorter than the pace; but the shared frontier keeps its
// times in whole milliseconds of Redis's clock (a start may be up to 1 ms
// early against the true instant, which the pace margin of 1 ms covers),
// and this web and Redis read the clock at different points: 2 ms in all.
const clockSlack = 2 * time.Millisecond

// distDefaultDelay is politeness.default_delay in the distributed tests:
// the pace of a host whose robots.txt is unavailable.
const distDefaultDelay = 200 * time.Millisecond

// auditPace checks, from the servers' logs, that no two requests to a host
// (from any process) started closer than the interval its robots.txt asks
// now (Crawl-delay; Request-rate in its window, the 1996 extended
// standard), robots.txt requests included.
func auditPace(web *distWeb, hits map[string][]distHit) []string {
	var bad []string
	for _, h := range web.hosts {
		pace := h.pace
		if h.kind == kindRobots5xx {
			pace = distDefaultDelay
		}
		hs := hits[h.addr]
		for i := 1; i < len(hs); i++ {
			if gap := hs[i].at.Sub(hs[i-1].at); gap < pace-clockSlack {
				bad = append(bad, fmt.Sprintf("%s: %s then %s only %v apart; the host asks for %v",
					h.addr, hs[i-1].path, hs[i].path, gap, pace))
			}
		}
	}
	return bad
}

// auditVisitTime checks that no page of a host with Visit-time was
// requested outside its window (the 1996 extended standard): robots.txt
// is the one request such a host gets while its window is closed.
func auditVisitTime(web *distWeb, hits map[string][]distHit) []string {
	var bad []string
	for _, h := range web.hosts {
		if h.kind != kindVisitOpen && h.kind != kindVisitClosed {
			continue
		}
		for _, hit := range hits[h.addr] {
			if hit.path != "/robots.txt" && !h.inWindow(hit.at) {
				bad = append(bad, fmt.Sprintf("%s: %s requested at %s UTC, outside Visit-time %s",
					h.addr, hit.path, hit.at.UTC().Format("15:04:05"), hhmm(h.window)))
			}
		}
	}
	return bad
}

// fetchable reports whether the crawl may fetch the host's pages now.
func (h *distHost) fetchable() bool {
	return h.kind == kindDelay || h.kind == kindRate || h.kind == kindVisitOpen
}

// auditCoverage checks that every page robots.txt allows was fetched,
// /private/ and the pages of hosts that may not be fetched now (Visit-time
// closed; robots.txt unreachable, which RFC 9309 section 2.3.1.4 reads as
// complete disallow) never were, robots.txt once per host, and no URL twice
// unless again(host, path) says a second request was allowed (a lease
// taken back from a killed process).
func auditCoverage(web *distWeb, hits map[string][]distHit, again func(host, path string) bool) []string {
	var bad []string
	for _, h := range web.hosts {
		counts := map[string]int{}
		for _, hit := range hits[h.addr] {
			counts[hit.path]++
		}
		if n := counts["/robots.txt"]; n != 1 && (n != 2 || again == nil || !again(h.addr, "/robots.txt")) {
			bad = append(bad, fmt.Sprintf("%s: robots.txt requested %d times, want once for the whole crawl", h.addr, counts["/robots.txt"]))
		}
		delete(counts, "/robots.txt")
		if h.fetchable() {
			for i := range distPages + 1 {
				if p := pagePath(i); counts[p] == 0 {
					bad = append(bad, fmt.Sprintf("%s: %s never fetched", h.addr, p))
				}
			}
		}
		for p, n := range counts {
			switch {
			case !h.fetchable():
				bad = append(bad, fmt.Sprintf("%s: %s fetched %d times, but the host may not be fetched now", h.addr, p, n))
			case p == "/private/secret":
				bad = append(bad, fmt.Sprintf("%s: %s fetched, but robots.txt disallows it", h.addr, p))
			case n > 2 || n == 2 && (again == nil || !again(h.addr, p)):
				bad = append(bad, fmt.Sprintf("%s: %s fetched %d times", h.addr, p, n))
			}
		}
	}
	return bad
}

// pagePath is the path of page i: "/" or "/pI".
func pagePath(i int) string {
	if i == 0 {
		return "/"
	}
	return fmt.Sprintf("/p%d", i)
}

// crawlLines counts each --out directory's crawl.jsonl lines: the requests
// each process made and logged.
func crawlLines(t *testing.T, outs []string) []int {
	t.Helper()
	n := make([]int, len(outs))
	for i, out := range outs {
		f, err := os.Open(filepath.Join(out, "crawl.jsonl"))
		if err != nil {
			continue // a process that made no request may have no log
		}
		_, _, err = crawllog.ReadJSONL(f, func(crawllog.CrawlEntry) { n[i]++ })
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", out, err)
		}
	}
	return n
}

// auditWorkShared checks that at least two processes made requests: the
// crawl was shared, not run by one process while the others idled.
func auditWorkShared(lines []int) []string {
	busy := 0
	for _, n := range lines {
		if n > 0 {
			busy++
		}
	}
	if busy < 2 {
		return []string{fmt.Sprintf("requests logged per process %v: want at least two processes with requests", lines)}
	}
	return nil
}

// auditDeferred checks that some process logged the seed of the host whose
// Visit-time window is closed as deferred, with its URL kept queued for a
// later run, and the seed of the host whose robots.txt is unreachable as
// skipped for that reason (RFC 9309 section 2.3.1.4).
func auditDeferred(t *testing.T, web *distWeb, outs []string) []string {
	t.Helper()
	want := map[string]string{}
	for _, h := range web.hosts {
		switch h.kind {
		case kindVisitClosed:
			want["http://"+h.addr+"/"] = "visit-time-deferred"
		case kindRobots5xx:
			want["http://"+h.addr+"/"] = "robots-unreachable"
		}
	}
	found := map[string]bool{}
	for _, out := range outs {
		f, err := os.Open(filepath.Join(out, "skips.jsonl"))
		if err != nil {
			continue
		}
		crawllog.ReadJSONL(f, func(e crawllog.SkipEntry) {
			if want[e.URL] == e.Reason && e.Queued {
				found[e.URL] = true
			}
		})
		f.Close()
	}
	var bad []string
	for u, reason := range want {
		if !found[u] {
			bad = append(bad, fmt.Sprintf("no process logged %s as %s with \"queued\": true", u, reason))
		}
	}
	return bad
}

// auditLogged checks that each process logged in its crawl.jsonl exactly
// the requests the servers saw from it (robots.txt included).
func auditLogged(seen, logged []int) []string {
	var bad []string
	for i := range seen {
		if seen[i] != logged[i] {
			bad = append(bad, fmt.Sprintf("process %d: the servers saw %d requests from it, its crawl.jsonl has %d lines", i, seen[i], logged[i]))
		}
	}
	return bad
}

// reportProblems fails t with each problem found, and logs each host's requests
// when there were any.
func reportProblems(t *testing.T, web *distWeb, hits map[string][]distHit, problems []string) {
	t.Helper()
	for _, p := range problems {
		t.Error(p)
	}
	if len(problems) == 0 {
		return
	}
	for _, h := range web.hosts {
		for _, hit := range hits[h.addr] {
			t.Logf("%s %s %s (from %s)", hit.at.Format("15:04:05.000"), h.addr, hit.path, hit.remote)
		}
	}
}
