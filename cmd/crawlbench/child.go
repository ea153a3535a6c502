package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawler"
	"github.com/crawlproject/crawl/report"
)

// childEnv names the environment variable that makes crawlbench (or its
// test binary) run one measured part in a process of its own: its peak
// RSS is then that part's alone, not the test web's nor another crawler's.
const childEnv = "CRAWLBENCH_CHILD"

// The parts a child process runs.
const (
	childCrawl  = "crawl"  // crawler.Run, then report.Write, as the crawl command does
	childColly  = "colly"  // plain colly at the same concurrency
	childReport = "report" // report.Write on a crawl's output, as crawl report does
)

// A childSpec is what a child process runs, passed as JSON in childEnv.
type childSpec struct {
	Mode     string `json:"mode"`
	Out      string `json:"out,omitempty"`       // the crawl's output directory
	SeedFile string `json:"seed_file,omitempty"` // one seed per line
	Workers  int    `json:"workers,omitempty"`
	Report   bool   `json:"report,omitempty"` // crawl: write report.html after the crawl
	// HeapProfile, if set, is where the crawl writes heap profiles: every
	// 30 s while it runs (PREFIX-running.pprof), when the crawl ends
	// (PREFIX-crawl.pprof) and after report.html (PREFIX-report.pprof).
	HeapProfile string `json:"heap_profile,omitempty"`
	// CPUProfile, if set, is where the crawl writes a CPU profile of
	// crawler.Run.
	CPUProfile string `json:"cpu_profile,omitempty"`
	// Frontier is the crawl's frontier.url: a Redis URL several crawl
	// processes share, or "" for the embedded frontier in Out.
	Frontier string `json:"frontier,omitempty"`
	// MinDelay is the crawl's politeness.min_delay: the pace of hosts
	// that ask for none (benchConfig's is 0).
	MinDelay time.Duration `json:"min_delay,omitempty"`
}

// A childResult is what a child process measured, its last line of
// standard output as JSON.
type childResult struct {
	Pages         int     `json:"pages"`
	Seconds       float64 `json:"seconds"`         // the crawl, or the report
	PeakRSS       int64   `json:"peak_rss"`        // VmHWM at the end, bytes
	PeakRSSCrawl  int64   `json:"peak_rss_crawl"`  // crawl: VmHWM before report.html was written
	CPUSeconds    float64 `json:"cpu_seconds"`     // crawl or colly: the process's user and system CPU time until the crawl ended
	ReportSeconds float64 `json:"report_seconds"`  // crawl: writing report.html
	ReportBytes   int64   `json:"report_bytes"`    // the size of report.html
	Err           string  `json:"err,omitempty"`   // the part failed
	ExitCode      int     `json:"exit,omitempty"`  // the crawl's summary exit code
	Interrupted   bool    `json:"interrupted"`     // the crawl ended early
	Queued        int     `json:"queued,omitzero"` // URLs left in the frontier
}

// childFromEnv runs the part childEnv names, if it is set, and reports
// whether it did; the caller then exits with the returned status.
func childFromEnv() (ran bool, status int) {
	v := os.Getenv(childEnv)
	if v == "" {
		return false, 0
	}
	var spec childSpec
	if err := json.Unmarshal([]byte(v), &spec); err != nil {
		fmt.Fprintln(os.Stderr, "crawlbench: child:", err)
		return true, 1
	}
	res := runChild(spec)
	json.NewEncoder(os.Stdout).Encode(res)
	if res.Err != "" {
		return true, 1
	}
	return true, 0
}

func runChild(spec childSpec) childResult {
	var res childResult
	var err error
	switch spec.Mode {
	case childCrawl:
		err = childCrawlRun(spec, &res)
	case childColly:
		var seeds []string
		if seeds, err = readSeedFile(spec.SeedFile); err == nil {
			n, d := runColly(seeds, spec.Workers)
			res.Pages, res.Seconds, res.CPUSeconds = n, d.Seconds(), cpuSeconds()
		}
	case childReport:
		start := time.Now()
		err = report.Write(spec.Out)
		res.Seconds = time.Since(start).Seconds()
		res.ReportBytes = fileSize(filepath.Join(spec.Out, report.ReportFile))
	default:
		err = fmt.Errorf("unknown child mode %q", spec.Mode)
	}
	if err != nil {
		res.Err = err.Error()
	}
	res.PeakRSS = peakRSS()
	return res
}

// childCrawlRun crawls as the crawl command does, with the benchmark's
// config (benchConfig): the seed file read as the crawl runs; then it
// writes the report.
func childCrawlRun(spec childSpec, res *childResult) error {
	f, err := os.Open(spec.SeedFile)
	if err != nil {
		return err
	}
	defer f.Close()
	cfg := benchConfig(spec.Out, spec.Workers, true)
	cfg.Frontier.URL = spec.Frontier
	cfg.Politeness.MinDelay = spec.MinDelay
	var bad error
	stream := crawler.NewSeedReader(f, cfg.Scope.MaxURLLength)
	stopProfiles := heapProfiles(spec.HeapProfile)
	if spec.CPUProfile != "" {
		if f, err := os.Create(spec.CPUProfile); err == nil {
			pprof.StartCPUProfile(f)
			defer f.Close()
		}
	}
	start := time.Now()
	sum, err := crawler.Run(context.Background(), cfg, crawler.Options{SeedStream: stream, BadSeed: func(e *crawler.SeedError) { bad = e }})
	if err == nil && bad != nil {
		err = bad
	}
	res.Seconds = time.Since(start).Seconds()
	res.PeakRSSCrawl, res.CPUSeconds = peakRSS(), cpuSeconds()
	pprof.StopCPUProfile()
	stopProfiles()
	writeHeapProfile(spec.HeapProfile, "crawl")
	if err != nil {
		return err
	}
	res.Pages, res.ExitCode, res.Interrupted, res.Queued = sum.Totals.Fetched, sum.ExitCode, sum.Interrupted, sum.Totals.Queued
	if spec.Report {
		start := time.Now()
		if err := report.Write(spec.Out); err != nil {
			return err
		}
		res.ReportSeconds = time.Since(start).Seconds()
		res.ReportBytes = fileSize(filepath.Join(spec.Out, report.ReportFile))
		writeHeapProfile(spec.HeapProfile, "report")
	}
	return nil
}

// heapProfiles writes a heap profile to prefix-running.pprof every 30 s
// until the returned func is called; nothing if prefix is empty.
func heapProfiles(prefix string) (stop func()) {
	if prefix == "" {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(30 * time.Second)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				writeHeapProfile(prefix, "running")
			}
		}
	}()
	return func() { close(done); <-finished }
}

// writeHeapProfile writes the heap profile to prefix-name.pprof, if prefix
// is set.
func writeHeapProfile(prefix, name string) {
	if prefix == "" {
		return
	}
	f, err := os.Create(prefix + "-" + name + ".pprof")
	if err != nil {
		fmt.Fprintln(os.Stderr, "crawlbench:", err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		fmt.Fprintln(os.Stderr, "crawlbench:", err)
	}
}

// benchConfig is the config of crawl in the benchmarks: no pace floor, no
// adaptive pace, no progress line, and a fetch.timeout of 5 s, for a local
// web that answers in milliseconds: a resumed crawl holds a host whose
// request was in flight when the previous run was killed for that long.
func benchConfig(out string, workers int, archive bool) config.Config {
	cfg := config.Default()
	cfg.Out = out
	cfg.Agent.Token = "crawlbench"
	cfg.Politeness.DefaultDelay = 0
	cfg.Politeness.FetchTimeFactor = 0
	cfg.Politeness.Margin = 0
	cfg.Fetch.Workers = workers
	cfg.Fetch.Timeout = 5 * time.Second
	cfg.Archive.WARC = archive
	cfg.Log.Progress = "never"
	return cfg
}

func readSeedFile(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	seeds, bad, err := crawler.ReadSeeds(f, 0)
	if err == nil && len(bad) > 0 {
		err = bad[0]
	}
	return seeds, err
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// peakRSS is the process's peak resident set size in bytes (VmHWM of
// /proc/self/status), 0 where there is none.
func peakRSS() int64 { return vmHWM("/proc/self/status") }

// vmHWM reads VmHWM, the peak resident set size, from a /proc status file,
// in bytes; 0 if there is none.
func vmHWM(status string) int64 {
	b, err := os.ReadFile(status)
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// A child is a started child process.
type child struct {
	cmd     *exec.Cmd
	out     bytes.Buffer
	started time.Time
}

// startChild starts this program again to run spec; its standard error
// goes to stderr.
func startChild(spec childSpec, stderr io.Writer) (*child, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("crawlbench: find own binary: %w", err)
	}
	b, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	c := &child{cmd: exec.Command(exe)}
	c.cmd.Env = append(os.Environ(), childEnv+"="+string(b))
	c.cmd.Stdout, c.cmd.Stderr = &c.out, stderr
	c.started = time.Now()
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("crawlbench: start %s child: %w", spec.Mode, err)
	}
	return c, nil
}

// wait waits for the child and returns what it measured.
func (c *child) wait() (childResult, error) {
	werr := c.cmd.Wait()
	var res childResult
	lines := bytes.Split(bytes.TrimSpace(c.out.Bytes()), []byte("\n"))
	if err := json.Unmarshal(lines[len(lines)-1], &res); err != nil {
		return res, fmt.Errorf("crawlbench: child: %v; no result (%v)", werr, err)
	}
	if res.Err != "" {
		return res, errors.New("crawlbench: child: " + res.Err)
	}
	return res, nil
}

// kill ends the child at once (SIGKILL) and waits for it.
func (c *child) kill() {
	c.cmd.Process.Kill()
	c.cmd.Wait()
}

// runChildProcess starts spec in a child and waits for it.
func runChildProcess(spec childSpec, stderr io.Writer) (childResult, error) {
	c, err := startChild(spec, stderr)
	if err != nil {
		return childResult{}, err
	}
	return c.wait()
}
