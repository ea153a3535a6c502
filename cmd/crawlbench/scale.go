package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// scaleOptions choose the web and the parts of the scale benchmark.
type scaleOptions struct {
	Hosts, Total, Workers int
	Latency               time.Duration // added to every answer of the web
	Rounds                int           // crawl and colly runs, interleaved
	Colly                 bool          // also crawl with plain colly
	Resume                bool          // also kill a crawl at half way and resume it
	Dir                   string        // where the crawls write; a temporary directory if empty
	Keep                  bool          // keep Dir's crawl outputs
	HeapProfile           string        // the first crawl's heap profiles (childSpec.HeapProfile)
	CPUProfile            string        // the first crawl's CPU profile (childSpec.CPUProfile)
	Log                   io.Writer     // the figures, as they come
	Stderr                io.Writer     // the child processes' standard error
}

// A runFigure is one crawl of the web, timed by the web's server: pages
// per second of the whole crawl (from the process's start), of its first
// tenth of the pages and of its last tenth, and the process's peak RSS.
type runFigure struct {
	Name                   string
	Pages                  int
	PPS, FirstPPS, LastPPS float64
	Tenths                 []float64     // pages/s of each tenth of the pages, in order
	CPUTenths              []float64     // the process's CPU ms per page of each tenth (cpuByTenth)
	Wall                   time.Duration // the process's start to its exit
	Child                  childResult
	Load                   string
}

// scaleResult is what the scale benchmark measured.
type scaleResult struct {
	Web         string
	Crawl       []runFigure
	Colly       []runFigure
	WARC        warcCount
	Report      childResult // crawl report on the first crawl's output
	ReportLoad  string
	KilledAt    int           // pages served when the crawl was killed
	Refetched   time.Duration // how long before the kill the oldest page fetched twice was first fetched
	ResumeStart time.Duration // from the resumed process's start to its first request
	Resumed     childResult
	ResumeWARC  warcCount
}

// runScale serves a bigWeb of o.Hosts hosts and o.Total pages and crawls it
// with crawl (archive on, then report.html written) and plain colly, each
// in a process of its own, o.Rounds times interleaved; checks that the
// first crawl's WARC files hold every page once, times crawl report on its
// output, and, with o.Resume, kills a crawl with SIGKILL at half way,
// resumes it and checks its WARC files.
func runScale(o scaleOptions) (*scaleResult, error) {
	if o.Total < o.Hosts || o.Workers < 1 {
		return nil, fmt.Errorf("crawlbench: %d pages over %d hosts with %d workers: need a page per host and a worker", o.Total, o.Hosts, o.Workers)
	}
	if err := raiseFileLimit(); err != nil {
		return nil, err
	}
	web, err := startBigWeb(o.Hosts, o.Total/o.Hosts, o.Latency)
	if err != nil {
		return nil, err
	}
	defer web.close()
	dir := o.Dir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "crawlbench-scale-"); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	if !o.Keep {
		defer os.RemoveAll(dir)
	}
	seedFile, err := writeSeedFile(dir, "seeds.txt", web.seeds())
	if err != nil {
		return nil, err
	}
	res := &scaleResult{Web: fmt.Sprintf("%d hosts x %d pages = %d pages, %d workers, latency %s",
		web.hosts, web.pages, web.hosts*web.pages, o.Workers, o.Latency)}
	fmt.Fprintf(o.Log, "big web: %s; load average %s\n", res.Web, loadAverage())
	if err := res.rounds(o, web, dir, seedFile); err != nil {
		return res, err
	}
	if o.Resume {
		if err := res.killResume(o, web, filepath.Join(dir, "resume"), seedFile); err != nil {
			return res, err
		}
	}
	return res, nil
}

// rounds runs the crawls and colly runs, interleaved, and checks and
// reports on the first crawl's output.
func (res *scaleResult) rounds(o scaleOptions, web *bigWeb, dir, seedFile string) error {
	for r := range o.Rounds {
		out := filepath.Join(dir, fmt.Sprintf("crawl-%d", r+1))
		crawlFirst := r%2 == 1 // colly first in odd rounds, crawl first in even ones
		if o.Colly && !crawlFirst {
			if err := res.collyRun(o, web, r, seedFile); err != nil {
				return err
			}
		}
		spec := childSpec{Mode: childCrawl, Out: out, SeedFile: seedFile, Workers: o.Workers, Report: true}
		if r == 0 {
			spec.HeapProfile, spec.CPUProfile = o.HeapProfile, o.CPUProfile
		}
		f, err := measure(web, fmt.Sprintf("round %d crawl", r+1), spec, o)
		if err != nil {
			return err
		}
		res.Crawl = append(res.Crawl, f)
		if r == 0 {
			if err := res.checkFirst(o, web, out); err != nil {
				return err
			}
		}
		if o.Colly && crawlFirst {
			if err := res.collyRun(o, web, r, seedFile); err != nil {
				return err
			}
		}
		if r > 0 && !o.Keep {
			os.RemoveAll(out)
		}
	}
	return nil
}

func (res *scaleResult) collyRun(o scaleOptions, web *bigWeb, r int, seedFile string) error {
	f, err := measure(web, fmt.Sprintf("round %d colly", r+1), childSpec{Mode: childColly, SeedFile: seedFile, Workers: o.Workers}, o)
	if err != nil {
		return err
	}
	res.Colly = append(res.Colly, f)
	return nil
}

// checkFirst counts the first crawl's WARC records and times crawl report
// on its output.
func (res *scaleResult) checkFirst(o scaleOptions, web *bigWeb, out string) error {
	var err error
	if res.WARC, err = countWARC(out, web); err != nil {
		return err
	}
	fmt.Fprintf(o.Log, "  WARC: %v\n", res.WARC)
	if err := res.WARC.check(0); err != nil {
		return err
	}
	res.ReportLoad = loadAverage()
	if res.Report, err = runChildProcess(childSpec{Mode: childReport, Out: out}, o.Stderr); err != nil {
		return err
	}
	fmt.Fprintf(o.Log, "  crawl report: %.1f s, peak RSS %s, report.html %s; load average %s\n",
		res.Report.Seconds, mib(res.Report.PeakRSS), mib(res.Report.ReportBytes), res.ReportLoad)
	return nil
}

// measure runs spec in a child process against web and times it by the
// web's own clock.
func measure(web *bigWeb, name string, spec childSpec, o scaleOptions) (runFigure, error) {
	web.reset()
	c, err := startChild(spec, o.Stderr)
	if err != nil {
		return runFigure{}, err
	}
	stop := make(chan struct{})
	samples := sampleCPU(c.cmd.Process.Pid, &web.served, 100*time.Millisecond, stop)
	res, err := c.wait()
	close(stop)
	cpu := <-samples
	if err != nil {
		return runFigure{}, fmt.Errorf("%s: %w", name, err)
	}
	f := figures(name, web.pageTimes(), c.started)
	if n := len(cpu); n == 0 || cpu[n-1].pages < int64(f.Pages) {
		// The process ended within a sampling interval of its last page:
		// its own count of its CPU time closes the last tenth.
		cpu = append(cpu, cpuSample{pages: int64(f.Pages), cpu: time.Duration(res.CPUSeconds * float64(time.Second))})
	}
	f.CPUTenths = cpuByTenth(cpu, f.Pages)
	f.Child, f.Load, f.Wall = res, loadAverage(), time.Since(c.started)
	line := fmt.Sprintf("%s: %d pages at %.0f pages/s (first tenth %.0f, last tenth %.0f), process %.1f s, CPU %.3f ms/page, %d connections for %d requests, peak RSS %s",
		name, f.Pages, f.PPS, f.FirstPPS, f.LastPPS, f.Wall.Seconds(), 1e3*res.CPUSeconds/float64(max(f.Pages, 1)), web.conns.Load(), web.requests.Load(), mib(res.PeakRSS))
	if spec.Mode == childCrawl {
		line += fmt.Sprintf(" (%s before report.html; report.html %s written in %.1f s)", mib(res.PeakRSSCrawl), mib(res.ReportBytes), res.ReportSeconds)
	}
	fmt.Fprintf(o.Log, "%s; load average %s\n", line, f.Load)
	fmt.Fprintf(o.Log, "  %s pages/s by tenth of the pages:%s\n", name, tenthsText(f.Tenths, "%.0f"))
	fmt.Fprintf(o.Log, "  %s CPU ms/page by tenth of the pages (sampled every 0.1 s):%s\n", name, tenthsText(f.CPUTenths, "%.3f"))
	if want := web.hosts * web.pages; f.Pages != want {
		return f, fmt.Errorf("crawlbench: %s: the web served %d pages, not %d", name, f.Pages, want)
	}
	return f, nil
}

// figures computes a runFigure from the page request times (unix
// nanoseconds, in arrival order) of a crawl whose process started at start.
func figures(name string, times []int64, start time.Time) runFigure {
	f := runFigure{Name: name, Pages: len(times)}
	n := len(times)
	if n == 0 {
		return f
	}
	rate := func(pages int, from, to int64) float64 {
		if to <= from {
			return 0
		}
		return float64(pages) / (float64(to-from) / 1e9)
	}
	t0 := start.UnixNano()
	tenth := max(n/10, 1)
	f.PPS = rate(n, t0, times[n-1])
	from := t0
	for i := tenth - 1; i < n; i += tenth {
		f.Tenths = append(f.Tenths, rate(tenth, from, times[i]))
		from = times[i]
	}
	f.FirstPPS = f.Tenths[0]
	f.LastPPS = f.FirstPPS
	if n > tenth {
		f.LastPPS = rate(tenth, times[n-tenth-1], times[n-1])
	}
	return f
}

// killResume crawls into out, kills the crawl with SIGKILL once half the
// pages were served, runs it again to the end and checks the WARC files:
// every page once, the pages in flight at the kill at most twice.
func (res *scaleResult) killResume(o scaleOptions, web *bigWeb, out, seedFile string) error {
	spec := childSpec{Mode: childCrawl, Out: out, SeedFile: seedFile, Workers: o.Workers}
	web.reset()
	c, err := startChild(spec, o.Stderr)
	if err != nil {
		return err
	}
	half := int64(web.hosts * web.pages / 2)
	for web.served.Load() < half && c.cmd.ProcessState == nil {
		time.Sleep(10 * time.Millisecond)
	}
	c.kill()
	killed := time.Now()
	res.KilledAt = int(web.served.Load())
	time.Sleep(200 * time.Millisecond) // let the server finish what the killed process sent
	before := web.lastTimes()
	web.reset()
	c, err = startChild(spec, o.Stderr)
	if err != nil {
		return err
	}
	if res.Resumed, err = c.wait(); err != nil {
		return fmt.Errorf("resumed crawl: %w", err)
	}
	if first := web.firstNano.Load(); first > 0 {
		res.ResumeStart = time.Duration(first - c.started.UnixNano())
	}
	if res.ResumeWARC, err = countWARC(out, web); err != nil {
		return err
	}
	res.Refetched = res.ResumeWARC.oldestTwice(before, killed)
	fmt.Fprintf(o.Log, "kill -9 at %d pages served; resumed run's first request %.2f s after its start, %d pages then, peak RSS %s; load average %s\n  WARC: %v; the pages fetched twice were first fetched at most %.2f s before the kill\n",
		res.KilledAt, res.ResumeStart.Seconds(), web.served.Load(), mib(res.Resumed.PeakRSS), loadAverage(), res.ResumeWARC, res.Refetched.Seconds())
	if !o.Keep {
		os.RemoveAll(out)
	}
	if err := res.ResumeWARC.check(maxRefetched(o.Workers)); err != nil {
		return err
	}
	if res.Refetched > refetchWindow {
		return fmt.Errorf("crawlbench: a page fetched twice was first fetched %s before the kill: the frontier had lost its end", res.Refetched)
	}
	return nil
}

// refetchWindow is how long before a kill the pages a resumed crawl
// fetches again may have been fetched: the frontier commits about fifty
// times a second, and a page fetched earlier whose end was lost would be
// a frontier that loses what it has made durable.
const refetchWindow = 2 * time.Second

// maxRefetched is how many pages a crawl killed with SIGKILL and resumed
// may fetch twice: those in flight when it was killed (one per worker)
// and those whose end the frontier had not yet made durable, which it
// counts as still in flight: the batch being committed and the one
// gathering, at most scheduler's 4096 operations each (a page's end is
// at least one).
func maxRefetched(workers int) int { return workers + 2*4096 }

// loadAverage is the 1, 5 and 15 minute load averages of /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func mib(b int64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }

// scaleCLI holds the flags of the scale benchmark.
type scaleCLI struct {
	hosts, total  int
	latency       time.Duration
	colly, resume bool
	dir           string
	heapProfile   string
	seedLines     int
	seedWatch     time.Duration
}

func scaleFlags() *scaleCLI {
	s := &scaleCLI{}
	flag.IntVar(&s.hosts, "web", 0, "instead: measure crawl at scale on a web of this many hosts (see -total)")
	flag.IntVar(&s.total, "total", 1_000_000, "with -web: pages in the web, spread evenly over its hosts")
	flag.DurationVar(&s.latency, "latency", 0, "with -web: time the web takes to answer each request")
	flag.BoolVar(&s.colly, "colly", true, "with -web: also crawl with plain colly")
	flag.BoolVar(&s.resume, "resume", true, "with -web: also kill a crawl at half way and resume it")
	flag.StringVar(&s.dir, "keep", "", "with -web: write the crawls into this directory and keep them")
	flag.IntVar(&s.seedLines, "seedlines", 0, "with -web: instead, crawl a seed file of this many lines and report how soon it fetches and its peak RSS over -seedwatch")
	flag.DurationVar(&s.seedWatch, "seedwatch", 30*time.Second, "with -seedlines: how long to watch the crawl")
	flag.StringVar(&s.heapProfile, "heapprofile", "", "with -web: write heap profiles of the first crawl to PREFIX-running.pprof (every 30 s), PREFIX-crawl.pprof and PREFIX-report.pprof")
	return s
}

func (s *scaleCLI) run(workers, rounds int, cpuProfile string) error {
	o := scaleOptions{CPUProfile: cpuProfile, Hosts: s.hosts, Total: s.total, Workers: workers, Latency: s.latency, Rounds: rounds,
		Colly: s.colly, Resume: s.resume, Dir: s.dir, Keep: s.dir != "", HeapProfile: s.heapProfile, Log: os.Stdout, Stderr: os.Stderr}
	if s.seedLines > 0 {
		return runSeedLines(o, s.seedLines, s.seedWatch)
	}
	_, err := runScale(o)
	return err
}

// writeSeedFile writes seeds, one a line, to dir/name and returns its path.
func writeSeedFile(dir, name string, seeds []string) (string, error) {
	path := filepath.Join(dir, name)
	return path, os.WriteFile(path, []byte(strings.Join(seeds, "\n")+"\n"), 0o644)
}

// tenthsText lists figures, each in format, as " 1234 1180 ...".
func tenthsText(figs []float64, format string) string {
	var b strings.Builder
	for _, x := range figs {
		fmt.Fprintf(&b, " "+format, x)
	}
	return b.String()
}
