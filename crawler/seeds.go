package crawler

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/crawlproject/crawl/scheduler"
)

// A SeedError is a seed file line that is not a usable URL.
type SeedError struct {
	Line   int
	Text   string
	Reason string
}

func (e *SeedError) Error() string {
	return fmt.Sprintf("seed line %d: %s: %q", e.Line, e.Reason, e.Text)
}

// ReadSeeds reads seed URLs, one per line. Blank lines and lines starting
// with '#' are ignored, as is anything after " #" on a line. Lines that are
// not usable absolute http or https URLs (see seedProblem) are returned as
// SeedErrors with their line number; the rest are still returned. The error
// is non-nil only if r could not be read.
func ReadSeeds(r io.Reader) ([]string, []*SeedError, error) {
	var seeds []string
	var bad []*SeedError
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		if i := strings.Index(line, " #"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if reason := seedProblem(line); reason != "" {
			bad = append(bad, &SeedError{Line: n, Text: line, Reason: reason})
			continue
		}
		seeds = append(seeds, line)
	}
	if err := sc.Err(); err != nil {
		return seeds, bad, fmt.Errorf("crawler: read seeds: %w", err)
	}
	return seeds, bad, nil
}

// seedProblem says why line cannot be crawled as a seed, or "" if it can:
// it must parse as a URL with scheme http or https, a host name, and, if a
// port is given, a decimal port from 1 to 65535, and the frontier must accept
// it (scheduler.Canonicalize). Such a URL could otherwise only fail later,
// after the robots.txt retries, far from its line.
func seedProblem(line string) string {
	u, err := url.Parse(line)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Sprintf("not a URL (%v)", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "not an http or https URL"
	}
	if u.Opaque != "" {
		return "not an absolute URL (write scheme://host/path)"
	}
	if u.Hostname() == "" {
		return "no host"
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return fmt.Sprintf("port %s is not in 1-65535", p)
		}
	}
	if _, err := scheduler.Canonicalize(line, nil); err != nil {
		return fmt.Sprintf("not a URL the frontier accepts (%v)", err) // anything the checks above missed
	}
	return ""
}
