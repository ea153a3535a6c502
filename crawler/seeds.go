package crawler

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/crawlproject/crawl/pageenc"
	"github.com/crawlproject/crawl/scheduler"
)

// A SeedError is a seed file line that is not a usable URL.
type SeedError struct {
	Line   int
	Text   string
	Reason string
}

func (e *SeedError) Error() string {
	text := e.Text
	if len(text) > maxSeedErrorText {
		text = text[:maxSeedErrorText] + "..."
	}
	return fmt.Sprintf("seed line %d: %s: %q", e.Line, e.Reason, text)
}

// maxSeedErrorText is how much of a bad line a SeedError shows.
const maxSeedErrorText = 200

// maxSeedLine is the longest seed line read (1 MiB); a longer line is a
// SeedError, and the lines after it are still read.
const maxSeedLine = 1 << 20

// ReadSeeds reads seed URLs, one per line. Blank lines and lines starting
// with '#' are ignored, as is anything after " #" on a line. Lines that are
// not usable absolute http or https URLs (see seedProblem), lines that hold
// more than one URL, URLs whose canonical form is longer than
// maxURLLength octets (scope.max_url_length; 0 is no limit) and lines over
// 1 MiB are returned as SeedErrors with their line number; the rest are
// still returned. The error is non-nil only if r could not be read.
func ReadSeeds(r io.Reader, maxURLLength int) ([]string, []*SeedError, error) {
	var seeds []string
	var bad []*SeedError
	br := bufio.NewReaderSize(r, 64<<10)
	for n := 1; ; n++ {
		raw, long, err := readSeedLine(br)
		if err != nil && err != io.EOF {
			return seeds, bad, fmt.Errorf("crawler: read seeds: %w", err)
		}
		if err == io.EOF && raw == "" && !long {
			return seeds, bad, nil
		}
		line := strings.TrimSpace(raw)
		if n == 1 {
			line = strings.TrimPrefix(line, "\uFEFF")
		}
		if !long {
			before, _, _ := strings.Cut(line, " #")
			line = strings.TrimSpace(before)
		}
		switch {
		case long:
			bad = append(bad, &SeedError{Line: n, Text: line, Reason: "line longer than 1 MiB"})
		case line == "" || strings.HasPrefix(line, "#"):
			// blank, or a comment
		default:
			if reason := seedProblem(line, maxURLLength); reason != "" {
				bad = append(bad, &SeedError{Line: n, Text: line, Reason: reason})
			} else {
				seeds = append(seeds, line)
			}
		}
		if err == io.EOF {
			return seeds, bad, nil
		}
	}
}

// readSeedLine reads one line without its line end. A line whose content
// is longer than maxSeedLine is read to its end but only its first
// maxSeedErrorText octets are kept, and long is true. err is io.EOF with
// the last line (or none) when the input ends.
func readSeedLine(br *bufio.Reader) (line string, long bool, err error) {
	var b []byte
	for {
		chunk, rerr := br.ReadSlice('\n')
		if !long {
			b = append(b, chunk...)
			if len(b) > maxSeedLine+2 { // longer than any line end can explain
				long, b = true, append([]byte(nil), b[:maxSeedErrorText]...)
			}
		}
		if rerr == bufio.ErrBufferFull {
			continue
		}
		text := strings.TrimRight(string(b), "\r\n")
		if !long && len(text) > maxSeedLine {
			long, text = true, text[:maxSeedErrorText]
		}
		return text, long, rerr
	}
}

// schemeMissing returns "http://" + line, and true, when line is a URL
// written without its scheme ("127.0.0.1:8080/faq/", "example.org/page",
// "localhost:8080"): it has no "://", does not start with a scheme of its
// own (a name and a colon not followed by a port, as "mailto:"), and reads
// as an http URL with a host once the scheme is added.
func schemeMissing(line string) (string, bool) {
	if strings.Contains(line, "://") || strings.HasPrefix(line, "/") {
		return "", false
	}
	if s := pageenc.RefScheme(line); s != "" {
		rest := line[len(s)+1:]
		port := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
		if port == 0 || port < len(rest) && !strings.ContainsRune("/?#", rune(rest[port])) {
			return "", false // a scheme of its own
		}
	}
	withScheme := "http://" + line
	if u, err := scheduler.Canonicalize(withScheme, nil); err != nil || u.Hostname() == "" {
		return "", false
	}
	return withScheme, true
}

// seedProblem says why line cannot be crawled as a seed, or "" if it can:
// it must hold one URL (white space followed by another "scheme://" is a
// second one, which would otherwise be read as part of the first's path,
// its space escaped), parse as a URL with scheme http or https, a host
// name, and, if a port is given, a decimal port from 1 to 65535, the
// frontier must accept it (scheduler.Canonicalize), and its canonical form
// must be at most maxLen octets (scope.max_url_length, 0 for no limit), as
// every other URL of the crawl. Such a URL could otherwise only fail
// later, after the robots.txt retries, far from its line.
func seedProblem(line string, maxLen int) string {
	if fields := strings.Fields(line); len(fields) > 1 && slices.ContainsFunc(fields[1:], func(f string) bool { return strings.Contains(f, "://") }) {
		return "holds more than one URL; put one per line"
	}
	if withScheme, ok := schemeMissing(line); ok {
		return "no scheme: did you mean " + withScheme + "?"
	}
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
	c, err := scheduler.Canonicalize(line, nil)
	if err != nil {
		return fmt.Sprintf("not a URL the frontier accepts (%v)", err) // anything the checks above missed
	}
	if n := len(c.String()); maxLen > 0 && n > maxLen {
		return fmt.Sprintf("URL of %d octets, longer than %d (scope.max_url_length)", n, maxLen)
	}
	return ""
}
