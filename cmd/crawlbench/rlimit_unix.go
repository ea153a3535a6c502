//go:build unix

package main

import (
	"fmt"
	"syscall"
)

// raiseFileLimit raises the soft limit of open files to the hard limit:
// the big web listens on one socket per host.
func raiseFileLimit() error {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return fmt.Errorf("crawlbench: open-file limit: %w", err)
	}
	if l.Cur < l.Max {
		l.Cur = l.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			return fmt.Errorf("crawlbench: raise open-file limit: %w", err)
		}
	}
	return nil
}

// cpuSeconds is the user and system CPU time this process has used.
func cpuSeconds() float64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return float64(u.Utime.Nano()+u.Stime.Nano()) / 1e9
}
