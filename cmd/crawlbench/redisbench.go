package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/internal/redistest"
)

// redisCLI holds the flags of the shared-frontier benchmark (-redis).
type redisCLI struct {
	url        string
	procs      string
	workers    int
	hosts      int
	pages      int
	minDelay   time.Duration
	latency    time.Duration
	pacedHosts int
	pacedPages int
}

func redisFlags() *redisCLI {
	r := &redisCLI{}
	flag.StringVar(&r.url, "redis", "", "instead: measure crawl processes sharing the frontier at this Redis URL (its database, or a cluster's crawl: keys, is EMPTIED before each run)")
	flag.StringVar(&r.procs, "redisprocs", "1,2,4", "with -redis: the numbers of crawl processes to run at once")
	flag.IntVar(&r.workers, "redisworkers", 4, "with -redis: fetch.workers of each process")
	flag.IntVar(&r.hosts, "redishosts", 200, "with -redis: hosts of the many-hosts web")
	flag.IntVar(&r.pages, "redispages", 25, "with -redis: pages per host of the many-hosts web")
	flag.DurationVar(&r.minDelay, "redismindelay", 50*time.Millisecond, "with -redis: politeness.min_delay, the short pace of the many-hosts web")
	flag.DurationVar(&r.latency, "redislatency", 20*time.Millisecond, "with -redis: time the many-hosts web takes to answer, so that each process's workers are the limit")
	flag.IntVar(&r.pacedHosts, "redispacedhosts", 4, "with -redis: hosts of the paced web, each asking Crawl-delay 0.5 s")
	flag.IntVar(&r.pacedPages, "redispacedpages", 16, "with -redis: pages per host of the paced web")
	return r
}

// A redisRow is one run of the benchmark: n processes on one web.
type redisRow struct {
	Case       string
	Embedded   bool // one process on the embedded frontier, the baseline
	Procs      int
	Pages      int           // page requests the web served (robots.txt not counted)
	Took       time.Duration // from the first process's start to the last page served
	PPS        float64
	PerProc    []int // pages each process fetched (its summary)
	Paced      bool  // the paced web, whose Violations are counted
	Violations int   // paced web: requests closer than the host's Crawl-delay
}

// run measures the many-hosts web, then the paced web, with each number
// of processes, and prints the table.
func (r *redisCLI) run(out io.Writer) error {
	var procs []int
	for _, f := range strings.Split(r.procs, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return fmt.Errorf("crawlbench: -redisprocs %q: want numbers of processes such as 1,2,4", r.procs)
		}
		procs = append(procs, n)
	}
	if err := raiseFileLimit(); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "crawlbench-redis-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintf(out, "shared frontier %s; %d workers per process; load average %s\n", config.RedactURL(r.url), r.workers, loadAverage())
	printRedisHeader(out)
	for _, run := range []func(int, string, string) (redisRow, error){r.manyRun, r.pacedRun} {
		row, err := run(1, "", dir)
		if err != nil {
			return err
		}
		printRedisRow(out, row)
		for _, n := range procs {
			if row, err = run(n, r.url, dir); err != nil {
				return err
			}
			printRedisRow(out, row)
		}
	}
	fmt.Fprintf(out, "load average %s\n", loadAverage())
	return nil
}

// clearFrontier empties the benchmark's Redis: FLUSHDB on one server,
// the crawl: keys on a cluster.
func (r *redisCLI) clearFrontier() error {
	if config.IsRedisCluster(r.url) {
		_, err := redistest.DeletePrefix(r.url, "crawl:")
		return err
	}
	return redistest.FlushDB(r.url)
}

// crawlProcs runs n crawl processes on the seeds of seedFile, sharing the
// frontier (r.url, or "" for one process on the embedded frontier), each
// with an --out of its own under dir, and returns the pages each fetched
// and when the first started.
func (r *redisCLI) crawlProcs(n int, frontier, dir, name, seedFile string, minDelay time.Duration) ([]int, time.Time, error) {
	if frontier == "" {
		n = 1 // the embedded frontier is one process's
	} else if err := r.clearFrontier(); err != nil {
		return nil, time.Time{}, err
	}
	var children []*child
	for i := range n {
		spec := childSpec{Mode: childCrawl, Out: filepath.Join(dir, fmt.Sprintf("%s-%d-%d-%t", name, n, i, frontier == "")), SeedFile: seedFile,
			Workers: r.workers, Frontier: frontier, MinDelay: minDelay}
		c, err := startChild(spec, os.Stderr)
		if err != nil {
			for _, c := range children {
				c.kill()
			}
			return nil, time.Time{}, err
		}
		children = append(children, c)
	}
	per := make([]int, n)
	var firstErr error
	for i, c := range children {
		res, err := c.wait()
		per[i] = res.Pages
		if err != nil && firstErr == nil {
			firstErr = fmt.Errorf("%s with %d processes: process %d: %w", name, n, i, err)
		}
	}
	return per, children[0].started, firstErr
}

// manyRun crawls a bigWeb of many hosts answering after r.latency, at
// the short pace r.minDelay, with n processes: each process's workers are
// the limit, so pages per second should grow with n.
func (r *redisCLI) manyRun(n int, frontier, dir string) (redisRow, error) {
	web, err := startBigWeb(r.hosts, r.pages, r.latency)
	if err != nil {
		return redisRow{}, err
	}
	defer web.close()
	seedFile, err := writeSeedFile(dir, "many-seeds.txt", web.seeds())
	if err != nil {
		return redisRow{}, err
	}
	per, start, err := r.crawlProcs(n, frontier, dir, "many", seedFile, r.minDelay)
	if err != nil {
		return redisRow{}, err
	}
	times := web.pageTimes()
	f := figures("", times, start)
	row := redisRow{Case: fmt.Sprintf("%d hosts x %d pages, min_delay %v, latency %v", r.hosts, r.pages, r.minDelay, r.latency),
		Embedded: frontier == "", Procs: len(per), Pages: f.Pages, PPS: f.PPS, PerProc: per}
	if len(times) > 0 {
		row.Took = time.Duration(times[len(times)-1] - start.UnixNano())
	}
	if want := r.hosts * r.pages; int(web.served.Load()) != want {
		return row, fmt.Errorf("crawlbench: the web served %d processes %d page requests, want each of the %d pages once", len(per), web.served.Load(), want)
	}
	return row, nil
}

// pacedRun crawls a few hosts asking Crawl-delay 0.5 s with n
// processes: the hosts' pace is the limit, so pages per second should stay
// flat, and the servers must see no two requests closer than 0.5 s.
func (r *redisCLI) pacedRun(n int, frontier, dir string) (redisRow, error) {
	const delay = 500 * time.Millisecond
	sites, seeds, err := startPacedSites(r.pacedHosts, r.pacedPages, []time.Duration{delay})
	if err != nil {
		return redisRow{}, err
	}
	defer closePacedSites(sites)
	seedFile, err := writeSeedFile(dir, "paced-seeds.txt", seeds)
	if err != nil {
		return redisRow{}, err
	}
	per, start, err := r.crawlProcs(n, frontier, dir, "paced", seedFile, 0)
	if err != nil {
		return redisRow{}, err
	}
	took := time.Since(start)
	requests, violations, _ := pacedAudit(sites, os.Stdout)
	pages := requests - len(sites) // robots.txt once per host
	return redisRow{Case: fmt.Sprintf("%d hosts x %d pages, Crawl-delay %v", r.pacedHosts, r.pacedPages, delay),
		Embedded: frontier == "", Procs: len(per), Pages: pages, Took: took, PPS: float64(pages) / took.Seconds(), PerProc: per,
		Paced: true, Violations: violations}, nil
}

// printRedisHeader prints the head of the table of runs.
func printRedisHeader(out io.Writer) {
	fmt.Fprintf(out, "%-50s %-8s %5s %6s %8s %8s  %-22s %s\n", "web", "frontier", "procs", "pages", "seconds", "pages/s", "pages per process", "pace violations")
}

// printRedisRow prints one run as a line of the table.
func printRedisRow(out io.Writer, r redisRow) {
	v, frontier := "-", "redis"
	if r.Paced {
		v = strconv.Itoa(r.Violations)
	}
	if r.Embedded {
		frontier = "embedded"
	}
	fmt.Fprintf(out, "%-50s %-8s %5d %6d %8.1f %8.1f  %-22s %s\n", r.Case, frontier, r.Procs, r.Pages, r.Took.Seconds(), r.PPS, fmt.Sprint(r.PerProc), v)
}
