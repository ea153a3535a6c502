// Command crawlbench measures what crawl's pacing and bookkeeping cost when
// sites allow speed: it serves a local test web of many hosts on 127.0.0.1
// that ask for no pace, crawls it with crawl (pace floor 0, adaptive pace
// off; archive off, then on) and with plain colly at the same concurrency,
// -rounds times, and prints pages per second: each round's, the best of
// each crawler, and the median of the rounds' crawl/colly ratios.
//
//	go run ./cmd/crawlbench -hosts 200 -pages 50 -workers 16 -rounds 5
//
// With -paced it instead serves hosts that ask for Crawl-delays (0.1 to 1 s),
// crawls them with the default config, and reports the pace violations the
// servers saw (there must be none) and the crawl time against the fastest
// the hosts' pace allows:
//
//	go run ./cmd/crawlbench -paced -hosts 30 -pages 12
//
// With -web it serves a web of that many hosts, one loopback address each
// (127.1.0.0/16), and -total pages in all, and measures crawl at scale, each
// crawler in a process of its own: crawl (archive on, report.html written
// at the end, as the crawl command does) and plain colly at the same
// concurrency, -rounds times interleaved, with pages per second of the
// first and last tenth of the pages and each process's peak RSS; it checks
// that the WARC files hold every page once, times crawl report on the
// output, then kills a crawl with SIGKILL at half way, resumes it, times
// how soon the resumed run fetches, and checks its WARC files again:
//
//	go run ./cmd/crawlbench -web 10000 -total 1000000
//
// With -redis URL it measures crawl processes sharing one frontier in
// Redis: pages per second with 1, 2 and 4 processes (-redisprocs), each
// in a process of its own with -redisworkers workers, on a web of many
// hosts at a short pace that answer after -redislatency (the processes'
// workers are the limit: pages per second should grow with the processes)
// and on a few hosts asking Crawl-delay 0.5 s (their pace is the limit:
// pages per second stay flat, and the servers count the requests closer
// than the delay, which must be none). The Redis database (or, on a
// cluster, the crawl: keys) is emptied before each run:
//
//	eval "$(scripts/redis-test-servers start /tmp/crawl-redis)"
//	go run ./cmd/crawlbench -redis "$CRAWL_TEST_REDIS"
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"sync/atomic"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/crawlproject/crawl/crawler"
)

func main() {
	if ran, status := childFromEnv(); ran {
		os.Exit(status)
	}
	hosts := flag.Int("hosts", 200, "hosts in the test web")
	pages := flag.Int("pages", 50, "pages per host")
	workers := flag.Int("workers", 16, "concurrent fetches, for both crawlers")
	archive := flag.Bool("archive", true, "also run crawl with its WARC archive on (colly writes nothing)")
	rounds := flag.Int("rounds", 1, "runs of each crawler (the best and the median of the paired ratios are reported; with -web, 0 runs only the kill and resume)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the crawl runs (with -web: of the first crawl) to this file")
	blockprofile := flag.String("blockprofile", "", "write a blocking profile of the whole run to this file")
	paced := flag.Bool("paced", false, "instead: crawl hosts that ask for Crawl-delays and report pace violations and speed against the best the pace allows")
	scale := scaleFlags()
	redis := redisFlags()
	flag.Parse()
	if redis.url != "" {
		if err := redis.run(os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "crawlbench:", err)
			os.Exit(1)
		}
		return
	}
	if scale.hosts > 0 {
		if err := scale.run(*workers, *rounds, *cpuprofile); err != nil {
			fmt.Fprintln(os.Stderr, "crawlbench:", err)
			os.Exit(1)
		}
		return
	}
	if *paced {
		if err := runPaced(*hosts, *pages, *workers); err != nil {
			fmt.Fprintln(os.Stderr, "crawlbench:", err)
			os.Exit(1)
		}
		return
	}
	if *blockprofile != "" {
		runtime.SetBlockProfileRate(10000)
		defer func() {
			if f, err := os.Create(*blockprofile); err == nil {
				pprof.Lookup("block").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	web, err := startWeb(*hosts, *pages)
	if err != nil {
		fmt.Fprintln(os.Stderr, "crawlbench:", err)
		os.Exit(1)
	}
	defer web.close()
	if err := runComparison(web, *hosts, *pages, *workers, *rounds, *archive, *cpuprofile); err != nil {
		fmt.Fprintln(os.Stderr, "crawlbench:", err)
		os.Exit(1)
	}
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func archiveLabel(on bool) string {
	if on {
		return "WARC archive on "
	}
	return "WARC archive off"
}

type web struct {
	servers []*http.Server
	seeds   []string
}

func startWeb(hosts, pages int) (*web, error) {
	w := &web{}
	for range hosts {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			w.close()
			return nil, err
		}
		srv := &http.Server{Handler: siteHandler(pages)}
		go srv.Serve(l)
		w.servers = append(w.servers, srv)
		w.seeds = append(w.seeds, "http://"+l.Addr().String()+"/")
	}
	return w, nil
}

func (w *web) close() {
	for _, s := range w.servers {
		s.Close()
	}
}

// siteHandler serves robots.txt asking for no pace and pages 0..n-1 that
// each link to the next few pages.
func siteHandler(n int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		var i int
		if r.URL.Path != "/" {
			if _, err := fmt.Sscanf(r.URL.Path, "/p%d", &i); err != nil || i >= n {
				http.NotFound(w, r)
				return
			}
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><html><head><title>page %d</title></head><body><h1>Page %d</h1><p>%s</p>", i, i, filler)
		for j := i + 1; j <= i+5 && j < n; j++ {
			fmt.Fprintf(w, `<a href="/p%d">next %d</a> `, j, j)
		}
		fmt.Fprint(w, "</body></html>")
	})
}

const filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat."

func runColly(seeds []string, workers int) (int, time.Duration) {
	c := colly.NewCollector(colly.Async(true))
	c.Limit(&colly.LimitRule{DomainGlob: "*", Parallelism: workers})
	c.WithTransport(&http.Transport{MaxIdleConnsPerHost: 4, MaxIdleConns: 1024})
	var n atomic.Int64
	c.OnResponse(func(*colly.Response) { n.Add(1) })
	c.OnHTML("a[href]", func(e *colly.HTMLElement) { e.Request.Visit(e.Attr("href")) })
	start := time.Now()
	for _, s := range seeds {
		c.Visit(s)
	}
	c.Wait()
	return int(n.Load()), time.Since(start)
}

func runCrawl(seeds []string, workers int, archive bool) (int, time.Duration, error) {
	dir, err := os.MkdirTemp("", "crawlbench-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	cfg := benchConfig(dir, workers, archive)
	start := time.Now()
	sum, err := crawler.Run(context.Background(), cfg, crawler.Options{Seeds: seeds})
	if err != nil {
		return 0, 0, err
	}
	d := time.Since(start)
	return sum.Totals.Fetched, d, nil
}

// runComparison crawls w with plain colly and with crawl (archive off,
// and on when archive is set), rounds times, and prints pages per second,
// the best of each and the median of the rounds' paired ratios.
func runComparison(w *web, hosts, pages, workers, rounds int, archive bool, cpuprofile string) error {
	total := hosts * pages
	fmt.Printf("test web: %d hosts x %d pages = %d pages, %d workers\n", hosts, pages, total, workers)
	variants := []bool{false}
	if archive {
		variants = append(variants, true)
	}
	bestColly := 0.0
	bestCrawl := make([]float64, len(variants))
	ratios := make([][]float64, len(variants)) // per round, crawl / colly of that round
	if cpuprofile != "" {
		if f, err := os.Create(cpuprofile); err == nil {
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	for r := range rounds {
		n, d := runColly(w.seeds, workers)
		collyPPS := float64(n) / d.Seconds()
		bestColly = max(bestColly, collyPPS)
		fmt.Printf("round %d colly:                %d pages in %s = %.0f pages/s\n", r+1, n, d.Round(time.Millisecond), collyPPS)
		for i, withArchive := range variants {
			n, d, err := runCrawl(w.seeds, workers, withArchive)
			if err != nil {
				return fmt.Errorf("crawl: %w", err)
			}
			pps := float64(n) / d.Seconds()
			bestCrawl[i] = max(bestCrawl[i], pps)
			ratios[i] = append(ratios[i], pps/collyPPS)
			fmt.Printf("round %d crawl (%s): %d pages in %s = %.0f pages/s\n", r+1, archiveLabel(withArchive), n, d.Round(time.Millisecond), pps)
		}
	}
	fmt.Printf("best of %d rounds:\n  plain colly:                %.0f pages/s\n", rounds, bestColly)
	for i, withArchive := range variants {
		fmt.Printf("  crawl (%s): %.0f pages/s = %.2fx colly; median of the rounds' paired ratios %.2fx\n",
			archiveLabel(withArchive), bestCrawl[i], bestCrawl[i]/bestColly, median(ratios[i]))
	}
	fmt.Println("(colly writes nothing; \"archive off\" is the like-for-like figure: crawl's pacing, robots,\n frontier and logs. \"archive on\" adds gzip and SHA-1 of every WARC record.)")
	return nil
}
