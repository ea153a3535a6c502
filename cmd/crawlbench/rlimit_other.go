//go:build !unix

package main

// raiseFileLimit does nothing where there is no open-file limit to raise.
func raiseFileLimit() error { return nil }

// cpuSeconds is 0 where the process's CPU time is not read.
func cpuSeconds() float64 { return 0 }
