package main

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/robots"
)

// endless is an io.Reader of NUL octets without end that counts what was
// read from it, as /dev/zero would be.
type endless struct{ n int }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.n += len(p)
	return len(p), nil
}

// TestReadRobotsStopsAtLimit: --file is read no further than the parsing
// limit (RFC 9309 2.5: "Crawlers MAY impose a parsing limit that MUST be
// at least 500 kibibytes (KiB)") plus the one octet that says the file is
// longer, so "--file /dev/zero" ends; the result is marked Truncated with
// the parser's warning.
func TestReadRobotsStopsAtLimit(t *testing.T) {
	src := &endless{}
	r, err := readRobots(src, robots.MaxSize)
	if err != nil {
		t.Fatal(err)
	}
	if src.n != robots.MaxSize+1 {
		t.Errorf("read %d octets, want %d", src.n, robots.MaxSize+1)
	}
	if !r.Truncated() || len(r.Warnings()) != 1 || !strings.Contains(r.Warnings()[0].Message, "longer than 500 KiB") {
		t.Errorf("Truncated = %v, warnings %v", r.Truncated(), r.Warnings())
	}
}

// TestRobotsFileOverLimit: explain reports a --file cut at the limit as a
// fetched one is reported, and a rule whose line ends just past the limit
// is applied (the reviewer's edge_plus.txt, 512001 octets). The limit is
// the crawl's, robots.max_bytes: set here to RFC 9309's 500 KiB.
func TestRobotsFileOverLimit(t *testing.T) {
	t.Setenv("CRAWL_ROBOTS_MAX_BYTES", strconv.Itoa(robots.MaxSize))
	head := "User-agent: *\n"
	rule := "Disallow: /edge"
	body := head + strings.Repeat("#", robots.MaxSize-len(head)-len(rule)-1) + "\n" + rule + "\nDisallow: /beyond\n"
	file := writeRobotsFile(t, body)
	code, out, stderr := runCLI(t, "robots", "explain", "--file", file, "--agent", "bot")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{", cut at the parsing limit, robots.max_bytes)", "  line 3: Disallow: /edge\n", "robots.txt is longer than 500 KiB"} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "/beyond") {
		t.Errorf("a line past the limit was read:\n%s", out)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		code, out, stderr = runCLI(t, "robots", "check", "--file", "/dev/zero", "--agent", "bot", "/x")
		if code != exitOK || !strings.HasPrefix(out, "ALLOWED    /x  (no rule matches)") {
			t.Errorf("--file /dev/zero: exit %d, stdout %q, stderr %q", code, out, stderr)
		}
	}
}

// TestRobotsFileParsedAsTheCrawlWould: --file is parsed up to the same
// limit as a crawl with the same config parses a fetched robots.txt
// (robots.max_bytes, 512 KiB by default): a rule past 512 KiB is left out,
// and read once the limit is raised.
func TestRobotsFileParsedAsTheCrawlWould(t *testing.T) {
	body := "User-agent: *\n" + strings.Repeat("# "+strings.Repeat("x", 97)+"\n", 5300) + "Disallow: /late\n" // ~530,000 octets
	file := writeRobotsFile(t, body)
	code, out, stderr := runCLI(t, "robots", "check", "--file", file, "--agent", "bot", "/late")
	if code != exitOK || !strings.HasPrefix(out, "ALLOWED") {
		t.Errorf("default limit: exit %d, stdout %q, stderr %q; want /late allowed (its line is past 512 KiB)", code, out, stderr)
	}
	t.Setenv("CRAWL_ROBOTS_MAX_BYTES", "600000")
	code, out, stderr = runCLI(t, "robots", "check", "--file", file, "--agent", "bot", "/late")
	if code != exitOK || !strings.HasPrefix(out, "DISALLOWED") {
		t.Errorf("robots.max_bytes 600000: exit %d, stdout %q, stderr %q; want /late disallowed", code, out, stderr)
	}
}
