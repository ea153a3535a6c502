package redisfrontier

import (
	"regexp"
	"strings"
	"testing"
)

// TestProcessID: a process id is the host name, pid and random digits,
// safe in a file name, and a new one each time.
func TestProcessID(t *testing.T) {
	for _, tc := range []struct {
		host, want string
	}{
		{"worker1", "worker1-42-a1b2c3"},
		{"node-7.example", "node-7.example-42-a1b2c3"},
		{"bad/host name", "bad_host_name-42-a1b2c3"},
		{"", "host-42-a1b2c3"},
		{strings.Repeat("h", 40), strings.Repeat("h", maxHostInID) + "-42-a1b2c3"},
	} {
		if got := processID(tc.host, 42, [3]byte{0xa1, 0xb2, 0xc3}); got != tc.want {
			t.Errorf("processID(%q) = %q, want %q", tc.host, got, tc.want)
		}
	}
	a, b := NewProcessID(), NewProcessID()
	if a == b || !regexp.MustCompile(`^[A-Za-z0-9._-]+-[0-9]+-[0-9a-f]{6}$`).MatchString(a) {
		t.Errorf("NewProcessID: %q and %q", a, b)
	}
}
