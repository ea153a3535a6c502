//go:build race

package main

// raceEnabled is set when the test binary is built with the race
// detector, which multiplies memory use and time.
const raceEnabled = true
