package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// userHZ is the unit of the CPU times in /proc/PID/stat (USER_HZ, 100 on
// Linux).
const userHZ = 100

// A cpuSample is a crawl process's CPU time (user and system) when the web
// had served pages pages to it.
type cpuSample struct {
	pages int64
	cpu   time.Duration
}

// procCPU parses the user and system CPU time out of the text of a
// /proc/PID/stat file (fields 14 and 15, counted after the command name,
// which may itself hold spaces and parentheses).
func procCPU(stat string) (time.Duration, error) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, fmt.Errorf("crawlbench: no command name in %q", stat)
	}
	f := strings.Fields(stat[i+1:])
	// f[0] is field 3 (state): utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, fmt.Errorf("crawlbench: short /proc stat %q", stat)
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("crawlbench: /proc stat CPU time %q: %w", s, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}

// sampleCPU samples process pid's CPU time against served every interval
// until stop is closed or the process is gone, and sends the samples on
// the channel it returns.
func sampleCPU(pid int, served *atomic.Int64, interval time.Duration, stop <-chan struct{}) <-chan []cpuSample {
	out := make(chan []cpuSample, 1)
	go func() {
		var samples []cpuSample
		defer func() { out <- samples }()
		path := fmt.Sprintf("/proc/%d/stat", pid)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
			}
			pages := served.Load()
			b, err := os.ReadFile(path)
			if err != nil {
				return
			}
			cpu, err := procCPU(string(b))
			if err != nil {
				return
			}
			samples = append(samples, cpuSample{pages: pages, cpu: cpu})
		}
	}()
	return out
}

// cpuByTenth is the CPU time per page, in ms, of each tenth of total pages:
// the CPU time between the first samples at or past two tenth boundaries
// over the pages between them; the first tenth counts from the process's
// start. It stops at the first tenth no sample reached.
func cpuByTenth(samples []cpuSample, total int) []float64 {
	tenth := int64(max(total/10, 1))
	var out []float64
	prev := cpuSample{}
	next := 0
	for k := int64(1); k <= 10; k++ {
		for next < len(samples) && samples[next].pages < k*tenth {
			next++
		}
		if next == len(samples) {
			break
		}
		s := samples[next]
		if s.pages == prev.pages {
			break
		}
		out = append(out, float64(s.cpu-prev.cpu)/float64(time.Millisecond)/float64(s.pages-prev.pages))
		prev = s
	}
	return out
}
