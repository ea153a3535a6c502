package crawler

import (
	"bufio"
	"fmt"
	"io"
	"net/url"
	"strings"
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
// not absolute http or https URLs are returned as SeedErrors; the rest are
// still returned. The error is non-nil only if r could not be read.
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
		u, err := url.Parse(line)
		switch {
		case err != nil:
			bad = append(bad, &SeedError{Line: n, Text: line, Reason: "not a URL"})
		case u.Scheme != "http" && u.Scheme != "https":
			bad = append(bad, &SeedError{Line: n, Text: line, Reason: "not an http or https URL"})
		case u.Host == "":
			bad = append(bad, &SeedError{Line: n, Text: line, Reason: "no host"})
		default:
			seeds = append(seeds, line)
		}
	}
	if err := sc.Err(); err != nil {
		return seeds, bad, fmt.Errorf("crawler: read seeds: %w", err)
	}
	return seeds, bad, nil
}
