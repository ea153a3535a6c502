package crawler

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
	a, b := newProcessID(), newProcessID()
	if a == b || !regexp.MustCompile(`^[A-Za-z0-9._-]+-[0-9]+-[0-9a-f]{6}$`).MatchString(a) {
		t.Errorf("newProcessID: %q and %q", a, b)
	}
}

// TestWarcinfoNamesProcessAndRedactedFrontier: with frontier.url set,
// the WARC file is named for the process and its warcinfo record names
// the process and the frontier with its password replaced.
func TestWarcinfoNamesProcessAndRedactedFrontier(t *testing.T) {
	cfg := testConfig(t)
	cfg.Frontier.URL = "redis://crawl:s3cret@127.0.0.1:6379/0"
	w, err := openArchive(cfg, "w1-42-a1b2c3")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rec := onlyWarcinfo(t, w.Dir(), "crawl-w1-42-a1b2c3-*.warc.gz")
	block := string(rec.Block)
	for _, want := range []string{"frontier: redis://crawl:xxxxx@127.0.0.1:6379/0\r\n", "crawl-process: w1-42-a1b2c3\r\n"} {
		if !strings.Contains(block, want) {
			t.Errorf("warcinfo lacks %q:\n%s", want, block)
		}
	}
	if strings.Contains(block, "s3cret") {
		t.Errorf("warcinfo shows the password:\n%s", block)
	}
}
