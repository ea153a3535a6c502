package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// runSeedLines measures a crawl of a long seed list: it writes a seed
// file of lines lines (the pages of a bigWeb of o.Hosts hosts, round the
// hosts, then paths the web does not serve), crawls it in a child process
// as the crawl command does (the file read as the crawl runs), and reports
// how soon the first request came and the child's peak RSS over watch,
// then kills the child.
func runSeedLines(o scaleOptions, lines int, watch time.Duration) error {
	if err := raiseFileLimit(); err != nil {
		return err
	}
	web, err := startBigWeb(o.Hosts, max(o.Total/o.Hosts, 1), o.Latency)
	if err != nil {
		return err
	}
	defer web.close()
	dir, err := os.MkdirTemp("", "crawlbench-seeds-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	seedFile := filepath.Join(dir, "seeds.txt")
	size, err := writeSeedLines(seedFile, web, lines)
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Log, "seed file: %d lines, %s, over %d hosts; load average %s\n", lines, mib(size), web.hosts, loadAverage())
	web.reset()
	c, err := startChild(childSpec{Mode: childCrawl, Out: filepath.Join(dir, "out"), SeedFile: seedFile, Workers: o.Workers, HeapProfile: o.HeapProfile}, o.Stderr)
	if err != nil {
		return err
	}
	defer c.kill()
	for web.firstNano.Load() == 0 && time.Since(c.started) < watch {
		time.Sleep(10 * time.Millisecond)
	}
	first := time.Duration(web.firstNano.Load() - c.started.UnixNano())
	var peak int64
	for end := time.Now().Add(watch); time.Now().Before(end); time.Sleep(time.Second) {
		peak = max(peak, childPeakRSS(c.cmd.Process.Pid))
	}
	fmt.Fprintf(o.Log, "crawl of the seed file: first request %.2f s after the process started; after %s: %d pages and %d requests in all, peak RSS %s (now %s); load average %s\n",
		first.Seconds(), watch, web.served.Load(), web.requests.Load(), mib(peak), rssParts(c.cmd.Process.Pid), loadAverage())
	return nil
}

// writeSeedLines writes lines seed URLs to path: web's pages host by
// host in turn, then paths it does not serve; it returns the file's size.
func writeSeedLines(path string, web *bigWeb, lines int) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	for k := range lines {
		h, i := k%web.hosts, k/web.hosts
		u := web.pageURL(h, 0)
		if i < web.pages {
			u = web.pageURL(h, i)
		} else {
			u += "x" + strconv.Itoa(k)
		}
		bw.WriteString(u)
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	return fileSize(path), nil
}

// rssParts says how much of process pid's resident set is anonymous
// memory and how much mapped files (the frontier's).
func rssParts(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return "unknown"
	}
	var parts []string
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "RssAnon:") || strings.HasPrefix(l, "RssFile:") {
			parts = append(parts, strings.Join(strings.Fields(l), " "))
		}
	}
	return strings.Join(parts, ", ")
}

// childPeakRSS is VmHWM of process pid, in bytes; 0 if unknown.
func childPeakRSS(pid int) int64 { return vmHWM("/proc/" + strconv.Itoa(pid) + "/status") }
