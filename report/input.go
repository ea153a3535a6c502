package report

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
	"unique"

	"github.com/crawlproject/crawl/crawllog"
)

// The file names a crawl writes into its output directory (their formats
// are package crawllog's), and the page this package writes.
const (
	SummaryFile = crawllog.SummaryFile
	CrawlFile   = crawllog.CrawlLogFile
	SkipsFile   = crawllog.SkipLogFile
	RobotsFile  = crawllog.RobotsLogFile
	ReportFile  = "report.html"
)

// Local names for the crawl's file formats.
type (
	summary       = crawllog.Summary
	totals        = crawllog.Totals
	hostSummary   = crawllog.HostSummary
	robotsSummary = crawllog.RobotsSummary
	requestRate   = crawllog.RateSummary
	visitTime     = crawllog.WindowJSON
	event         = crawllog.HostEvent
	skip          = crawllog.SkipEntry
	robotsFetch   = crawllog.RobotsEntry
	runSummary    = crawllog.RunSummary
)

// request is what the report uses of a crawl.jsonl line
// (crawllog.CrawlEntry): 160 bytes where the whole line's fields take 248,
// for a log the report holds whole (a million requests).
type request struct {
	Time        time.Time
	URL         string
	Host        string
	Kind        string
	Status      int
	PaceSeconds float64
	PaceRule    string
	RobotsRule  string
	RobotsLine  int
	Redirect    string
	Error       string
}

// byTime orders requests oldest first, the order each host's are used in.
func byTime(a, b request) int { return a.Time.Compare(b.Time) }

// requestOf keeps what the report uses of e.
func requestOf(e *crawllog.CrawlEntry) request {
	return request{Time: e.Time, URL: e.URL, Host: e.Host, Kind: e.Kind, Status: e.Status, PaceSeconds: e.PaceSeconds,
		PaceRule: e.PaceRule, RobotsRule: e.RobotsRule, RobotsLine: e.RobotsLine, Redirect: e.Redirect, Error: e.Error}
}

// input is everything read from a crawl's output directory.
type input struct {
	summary  summary
	requests []request // all requests, or with large set those of the hosts with a section
	skips    []skip
	robots   []robotsFetch
	notes    []string    // missing optional files, ignored lines
	large    *largeInput // set when the log is not held whole (see limits)
}

// maxLine bounds one JSONL line; longer lines are skipped as malformed.
const maxLine = crawllog.MaxLine

// readInput reads dir. A missing or unreadable summary.json is an error
// (wrapping fs.ErrNotExist when it is absent); the JSONL files are optional
// and their malformed lines are counted in notes and skipped.
func readInput(dir string) (*input, error) { return readWithin(dir, defaultLimits()) }

// readWithin is readInput within lim.
func readWithin(dir string, lim limits) (*input, error) { return readDirs(outDirs{dir}, lim) }

// readDirs reads dirs as readInput reads one, within lim: their summaries
// combined (readSummaries), their logs merged by time (eachLine).
func readDirs(dirs outDirs, lim limits) (*input, error) {
	s, err := readSummaries(dirs)
	if err != nil {
		return nil, err
	}
	in := &input{summary: s}
	// The skips are read first, for the crawl log to tell which URLs
	// left queued were fetched since; their notes come after its notes.
	var skipNotes []string
	if in.skips, err = readSkips(dirs, &in.summary, &skipNotes); err != nil {
		return nil, err
	}
	later := newFetchedLater(in.skips)
	counts, err := countRequests(dirs, in.summary.Runs, &in.notes, later.note)
	if err != nil {
		return nil, err
	}
	in.skips = later.dropFetched(in.skips)
	in.notes = append(in.notes, skipNotes...)
	if in.robots, err = readJSONL[robotsFetch](dirs, RobotsFile, &in.notes); err != nil {
		return nil, err
	}
	hosts := in.hosts(counts)
	if counts.total > lim.held || len(hosts) > lim.sections {
		return in, readLarge(dirs, in, counts, hosts, lim)
	}
	var again []string // the notes of the first reading stand
	err = eachLine(dirs, CrawlFile, &again, func(e crawllog.CrawlEntry) {
		r := requestOf(&e)
		share(&r)
		in.requests = append(in.requests, r)
	})
	return in, err
}

// hosts returns the hosts the report gives a section or a row of the
// hosts table, in the order it shows them: the summary's, then those the
// logs name (crawl.jsonl as counts found them, skips.jsonl, robots.jsonl).
// A host skips.jsonl names only for declined links is in neither: it is a
// row of the outbound table.
func (in *input) hosts(counts *requestCounts) []string {
	seen := map[string]bool{"": true}
	var out []string
	add := func(h string) {
		if !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	for _, hs := range in.summary.Hosts {
		add(hs.Host)
	}
	for _, h := range counts.order {
		add(h)
	}
	for _, h := range contactedBySkips(in.skips) {
		add(h)
	}
	for _, f := range in.robots {
		add(hostOf(f.Host, f.URL))
	}
	return out
}

// readJSONL decodes each line of name in dirs into a T. A missing file
// yields no records and a note; malformed or over-long lines are skipped
// and counted in a note. Other read errors are returned.
func readJSONL[T any](dirs outDirs, name string, notes *[]string) ([]T, error) {
	var out []T
	err := eachLine(dirs, name, notes, func(v T) {
		share(&v)
		out = append(out, v)
	})
	return out, err
}

// eachLine calls fn with each well-formed line of name in dirs: in the
// file's order for one dir, merged by time for several (eachMergedLine).
// A missing file leaves a note; the malformed and over-long lines are
// counted in a note. Other read errors are returned.
func eachLine[T any](dirs outDirs, name string, notes *[]string, fn func(T)) error {
	if len(dirs) == 1 {
		return eachFileLine(dirs[0], name, name, notes, fn)
	}
	return eachMergedLine(dirs, name, notes, fn)
}

// eachFileLine calls fn with each well-formed line of dir/name, which
// notes and errors call label. A missing file calls it never and leaves
// a note; the malformed and over-long lines are counted in a note. Other
// read errors are returned.
func eachFileLine[T any](dir, name, label string, notes *[]string, fn func(T)) error {
	f, err := os.Open(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		*notes = append(*notes, label+" is missing; its part of the report is empty.")
		return nil
	}
	if err != nil {
		return fmt.Errorf("report: open %s: %w", label, err)
	}
	defer f.Close()
	bad, firstBad, err := crawllog.ReadJSONL(f, fn)
	if err != nil {
		return fmt.Errorf("report: read %s: %w", label, err)
	}
	if bad > 0 {
		*notes = append(*notes, fmt.Sprintf("%s: ignored %d malformed line(s), the first on line %d.", label, bad, firstBad))
	}
	return nil
}

// share makes the fields of a log line that repeat from line to line (the
// host, the reason and its detail, the parent page, the pace rule, ...)
// refer to one copy of each distinct value: a crawl's logs are read whole,
// and a million skip lines took 1.2 GB with a copy of each per line. URLs,
// which do not repeat, keep their own.
func share(v any) {
	switch x := v.(type) {
	case *skip:
		for _, s := range []*string{&x.Host, &x.Reason, &x.Detail, &x.Rule, &x.Parent} {
			*s = unique.Make(*s).Value()
		}
	case *request:
		for _, s := range []*string{&x.Host, &x.Kind, &x.PaceRule, &x.RobotsRule, &x.Error} {
			*s = unique.Make(*s).Value()
		}
	case *robotsFetch:
		for _, s := range []*string{&x.Host, &x.Outcome, &x.Error} {
			*s = unique.Make(*s).Value()
		}
	}
}

// maxSkipsPerKind is how many skip lines of one host, reason and
// robots.txt line the report keeps; the lines after them are folded into
// the last one kept (SkipEntry.Folded). Every part of the report shows at
// most the first 20 URLs of such a kind and counts the rest, so nothing it
// shows changes; a million lines of one kind took 1.2 GB to read.
const maxSkipsPerKind = maxDeferred + 1

// readSkips reads the skip log of dirs, folded (maxSkipsPerKind), each line of
// a URL that stayed queued (queued: true, its host deferred) once
// (queuedLines): the report counts each waiting URL once, as the
// summary's totals do.
func readSkips(dirs outDirs, s *summary, notes *[]string) ([]skip, error) {
	queued := newQueuedLines(s)
	type kind struct {
		host, reason string
		line         int
	}
	type kept struct{ n, last int } // entries kept of a kind, the index in out of the last one
	kinds := map[kind]kept{}
	var out []skip
	err := eachLine(dirs, SkipsFile, notes, func(k skip) {
		if !queued.read(&k) {
			return
		}
		share(&k)
		key := kind{k.Host, k.Reason, k.Line}
		c := kinds[key]
		if c.n == maxSkipsPerKind {
			out[c.last].Folded++
			return
		}
		kinds[key] = kept{c.n + 1, len(out)}
		out = append(out, k)
	})
	return out, err
}

// weight is how many skip lines k stands for.
func weight(k skip) int { return 1 + k.Folded }

// listed reports whether an entry that stands for w lines (see weight) is
// listed in a list that holds n entries and shows at most limit, and adds
// to *more the lines it stands for that the list does not show: all w if
// the list is full, else the w-1 folded into the entry, which come after it.
func listed(n, limit, w int, more *int) bool {
	if n >= limit {
		*more += w
		return false
	}
	*more += w - 1
	return true
}
