// Command frontiermem measures the resident memory of a scheduler holding a
// large bolt frontier: it adds -n URLs spread over -hosts hosts, flushes,
// and prints VmRSS and VmHWM from /proc/self/status, the file size and the
// bytes per queued URL. It then reopens the frontier (a resume) and reports
// the memory again.
//
//	go run ./cmd/frontiermem -n 1000000 -hosts 1000
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/crawlproject/crawl/scheduler"
)

func main() {
	n := flag.Int("n", 1_000_000, "URLs to queue")
	hosts := flag.Int("hosts", 1000, "hosts to spread them over")
	dir := flag.String("dir", "", "directory for the frontier file (default: a temporary one)")
	memprofile := flag.String("memprofile", "", "write a heap profile after adding to this file")
	every := flag.Int("every", 0, "print the memory every this many URLs (0: only at the end)")
	flag.Parse()
	if err := run(*n, *hosts, *dir, *memprofile, *every); err != nil {
		fmt.Fprintln(os.Stderr, "frontiermem:", err)
		os.Exit(1)
	}
}

func run(n, hosts int, dir, memprofile string, every int) error {
	if dir == "" {
		d, err := os.MkdirTemp("", "frontiermem")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	path := filepath.Join(dir, "frontier.db")
	cfg := scheduler.DefaultConfig()
	cfg.Scope.Mode = scheduler.ScopeAny

	store, err := scheduler.OpenBolt(path)
	if err != nil {
		return err
	}
	s, err := scheduler.Open(cfg, store)
	if err != nil {
		return err
	}
	start := time.Now()
	for i := range n {
		u := fmt.Sprintf("http://host%d.example.com/section/%d/page-%d.html?id=%d", i%hosts, i%97, i, i)
		if sk, err := s.Add(scheduler.Candidate{URL: u, Parent: "http://example.com/index.html", Depth: 1}); err != nil || sk != nil {
			return fmt.Errorf("add %s: %v %v", u, sk, err)
		}
		if every > 0 && (i+1)%every == 0 {
			fmt.Printf("  %d added: VmRSS=%s RssAnon=%s RssFile=%s\n", i+1, status("VmRSS"), status("RssAnon"), status("RssFile"))
		}
	}
	if err := s.Flush(); err != nil {
		return err
	}
	took := time.Since(start)
	report("after adding", s, path, n)
	if memprofile != "" {
		runtime.GC()
		f, err := os.Create(memprofile)
		if err != nil {
			return err
		}
		if err := pprof.WriteHeapProfile(f); err != nil {
			return err
		}
		f.Close()
		report("after GC", s, path, n)
	}
	fmt.Printf("adds/s: %.0f\n", float64(n)/took.Seconds())
	if err := s.Close(); err != nil {
		return err
	}
	if err := store.Close(); err != nil {
		return err
	}

	runtime.GC()
	debug.FreeOSMemory()
	store, err = scheduler.OpenBolt(path)
	if err != nil {
		return err
	}
	defer store.Close()
	start = time.Now()
	s, err = scheduler.Open(cfg, store)
	if err != nil {
		return err
	}
	defer s.Close()
	fmt.Printf("resume took %s\n", time.Since(start).Round(time.Millisecond))
	report("after resume", s, path, n)
	return nil
}

func report(what string, s *scheduler.Scheduler, path string, n int) {
	st := s.Stats()
	fi, _ := os.Stat(path)
	var size int64
	if fi != nil {
		size = fi.Size()
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Printf("%s: go heap in use %.1f MiB, heap sys %.1f MiB\n", what, float64(ms.HeapInuse)/(1<<20), float64(ms.HeapSys)/(1<<20))
	fmt.Printf("%s: queued=%d hosts=%d VmRSS=%s (RssAnon=%s RssFile=%s) VmHWM=%s file=%.1f MiB bytes/url=%.0f\n",
		what, st.Queued, st.Hosts, status("VmRSS"), status("RssAnon"), status("RssFile"), status("VmHWM"), float64(size)/(1<<20), float64(size)/float64(n))
}

func status(field string) string {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return "?"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			return strings.Join(strings.Fields(v), " ")
		}
	}
	return "?"
}
