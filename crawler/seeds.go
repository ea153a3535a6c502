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
// SeedReader reads the same lines one at a time.
func ReadSeeds(r io.Reader, maxURLLength int) ([]string, []*SeedError, error) {
	var seeds []string
	var bad []*SeedError
	sr := NewSeedReader(r, maxURLLength)
	for {
		seed, b, err := sr.Next()
		switch {
		case err == io.EOF:
			return seeds, bad, nil
		case err != nil:
			return seeds, bad, err
		case b != nil:
			bad = append(bad, b)
		default:
			seeds = append(seeds, seed)
		}
	}
}

// A SeedReader reads a seed file one line at a time, as ReadSeeds reads
// it, so that a seed list of millions of lines is crawled as it is read,
// in bounded memory. It is not safe for concurrent use.
type SeedReader struct {
	br     *bufio.Reader
	maxLen int
	line   int  // lines read
	done   bool // the input ended
}

// NewSeedReader returns a SeedReader of r; maxURLLength is as for
// ReadSeeds.
func NewSeedReader(r io.Reader, maxURLLength int) *SeedReader {
	return &SeedReader{br: bufio.NewReaderSize(r, 64<<10), maxLen: maxURLLength}
}

// Next returns the next usable seed, or the next bad line as a SeedError
// with its line number (seed is then ""), skipping blank and comment
// lines. err is io.EOF after the last line, or the error reading the input
// (wrapped).
func (s *SeedReader) Next() (seed string, bad *SeedError, err error) {
	for !s.done {
		raw, long, rerr := readSeedLine(s.br)
		if rerr != nil && rerr != io.EOF {
			return "", nil, fmt.Errorf("crawler: read seeds: %w", rerr)
		}
		if rerr == io.EOF {
			s.done = true
			if raw == "" && !long {
				break
			}
		}
		s.line++
		if seed, bad := s.parse(raw, long); seed != "" || bad != nil {
			return seed, bad, nil
		}
	}
	return "", nil, io.EOF
}

// parse reads line number s.line: a seed, a bad line, or neither (blank,
// a comment).
func (s *SeedReader) parse(raw string, long bool) (string, *SeedError) {
	line := strings.TrimSpace(raw)
	if s.line == 1 {
		line = strings.TrimPrefix(line, "\uFEFF")
	}
	if !long {
		before, _, _ := strings.Cut(line, " #")
		line = strings.TrimSpace(before)
	}
	switch {
	case long:
		return "", &SeedError{Line: s.line, Text: line, Reason: "line longer than 1 MiB"}
	case line == "" || strings.HasPrefix(line, "#"):
		return "", nil
	}
	if reason := seedProblem(line, s.maxLen); reason != "" {
		return "", &SeedError{Line: s.line, Text: line, Reason: reason}
	}
	return line, nil
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
