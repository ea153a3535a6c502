package main

import (
	"math"
	"testing"
	"time"
)

// proc(5) stat: utime and stime are fields 14 and 15, in USER_HZ ticks,
// after a command name that may hold spaces and parentheses.
func TestProcCPU(t *testing.T) {
	stat := "4242 (crawl (x) y) S 1 4242 4242 0 -1 4194560 1234 0 0 0 250 75 0 0 20 0 9 0 123 0 0"
	got, err := procCPU(stat)
	if err != nil {
		t.Fatal(err)
	}
	if want := 3250 * time.Millisecond; got != want {
		t.Errorf("procCPU = %s, want %s (325 ticks)", got, want)
	}
	if _, err := procCPU("4242 (crawl) S 1 2"); err == nil {
		t.Error("procCPU of a short line: no error")
	}
}

// 100 pages: samples every 5 pages, 1 ms of CPU a page for the first half
// and 2 ms after; each tenth is read at the first sample at or past its
// end.
func TestCPUByTenth(t *testing.T) {
	var samples []cpuSample
	cpu := time.Duration(0)
	for p := int64(5); p <= 100; p += 5 {
		if p <= 50 {
			cpu += 5 * time.Millisecond
		} else {
			cpu += 10 * time.Millisecond
		}
		samples = append(samples, cpuSample{pages: p, cpu: cpu})
	}
	got := cpuByTenth(samples, 100)
	want := []float64{1, 1, 1, 1, 1, 2, 2, 2, 2, 2}
	if len(got) != len(want) {
		t.Fatalf("cpuByTenth = %v, want %v", got, want)
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("cpuByTenth = %v, want %v", got, want)
		}
	}
	if got := cpuByTenth(samples[:9], 100); len(got) != 4 {
		t.Errorf("samples up to 45 pages: %v, want the first 4 tenths", got)
	}
}
