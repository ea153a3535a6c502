package report

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/crawlproject/crawl/crawllog"
)

// A crawl whose log holds more than maxHeldRequests requests, or that has
// more than maxHostSections hosts, is reported from counts: every host is
// counted (requestCounts), the maxHostSections hosts that most need a look
// get a section of their own, drawn from their first requests
// (hostDetail), and the hosts table lists the first maxHostRows hosts in
// that order. A smaller crawl is read whole, as it always was.
const (
	maxHeldRequests = 100_000
	maxHostSections = 200
	maxHostRows     = 1000
)

// limits are the bounds readInput reads a crawl within: the constants
// above, smaller in tests.
type limits struct{ held, sections, rows int }

func defaultLimits() limits {
	return limits{held: maxHeldRequests, sections: maxHostSections, rows: maxHostRows}
}

// hostDetail is what a host's section shows of its requests when the log
// is not held whole: its first requests in time order (as many as the
// timeline draws, and one more for the interval after the last drawn), and
// over all of them the pace used, the pages each robots.txt line allowed
// and the status mix of the pages.
type hostDetail struct {
	keep    int
	kept    []request
	paces   paceTally
	allowed allowedTally
	pages   map[string]int
}

func newHostDetail(authority string, keep int) *hostDetail {
	return &hostDetail{keep: keep, allowed: allowedTally{authority: authority}, pages: map[string]int{}}
}

// add takes one request of the host, in time order.
func (d *hostDetail) add(r request) {
	if len(d.kept) < d.keep {
		share(&r)
		d.kept = append(d.kept, r)
	}
	d.paces.add(r)
	d.allowed.add(r)
	if r.Kind == "page" {
		d.pages[statusKey(r.Status)]++
	}
}

// largeInput is the part of input read when the log is not held whole.
type largeInput struct {
	counts  *requestCounts
	details map[string]*hostDetail // the hosts with a section
	ranked  []string               // every host, the ones that most need a look first
	marks   int                    // requests drawn per timeline
	rows    int                    // rows of the hosts and deferred tables
}

// readLarge selects the hosts with a section from in's summary and the
// counts, and reads their requests from the crawl.jsonl of dirs a second time
// into hostDetails. in.requests becomes the requests they keep.
func readLarge(dirs outDirs, in *input, counts *requestCounts, hosts []string, lim limits) error {
	l := &largeInput{counts: counts, ranked: rankHosts(hosts, &in.summary, counts), rows: lim.rows}
	sections := l.ranked[:min(len(l.ranked), lim.sections)]
	withRequests := 0
	for _, h := range sections {
		if counts.hosts[h] != nil {
			withRequests++
		}
	}
	l.marks = marksPerHost(withRequests)
	l.details = make(map[string]*hostDetail, len(sections))
	for _, h := range sections {
		l.details[h] = newHostDetail(h, l.marks+1)
	}
	o := timeOrder{emit: func(r request) { l.details[hostOf(r.Host, r.URL)].add(r) }}
	var again []string // the notes of the first reading stand
	err := eachLine(dirs, CrawlFile, &again, func(e crawllog.CrawlEntry) {
		if l.details[hostOf(e.Host, e.URL)] != nil {
			o.push(requestOf(&e))
		}
	})
	if err != nil {
		return err
	}
	o.flush()
	in.requests = nil
	for _, h := range sections {
		d := l.details[h]
		slices.SortStableFunc(d.kept, byTime) // only requests logged out of reorderWindow are out of order
		in.requests = append(in.requests, d.kept...)
	}
	in.large = l
	in.notes = append(in.notes, fmt.Sprintf("This crawl made %d requests to %d hosts: the report counts them all, and shows %d hosts in full, those that most need a look (short gaps, deferred or dropped, errors, then the most requests); crawl.jsonl, skips.jsonl and robots.jsonl hold the detail of every request.",
		counts.total, len(hosts), len(sections)))
	return nil
}

// rankHosts orders hosts by how much they need a look: gaps shorter than
// the interval in force first, then hosts deferred or dropped, hosts with
// errors, then the most requests; at equal rank, in hosts' order.
func rankHosts(hosts []string, s *summary, counts *requestCounts) []string {
	type key struct {
		short, held, errs bool
		n, i              int
	}
	states := make(map[string]hostSummary, len(s.Hosts))
	for _, hs := range s.Hosts {
		states[hs.Host] = hs
	}
	keys := make(map[string]key, len(hosts))
	for i, h := range hosts {
		k := key{i: i}
		if c := counts.hosts[h]; c != nil {
			k.short, k.n = c.short > 0, c.n
		}
		hs := states[h]
		k.held = hs.State == "deferred" || hs.State == "dropped" || hs.DeferredUntil != nil
		k.errs = hs.Errors > 0
		keys[h] = k
	}
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	ranked := slices.Clone(hosts)
	slices.SortFunc(ranked, func(x, y string) int {
		a, c := keys[x], keys[y]
		return cmp.Or(b(c.short)-b(a.short), b(c.held)-b(a.held), b(c.errs)-b(a.errs), c.n-a.n, a.i-c.i)
	})
	return ranked
}
