package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"golang.org/x/term"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawler"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/report"
	"github.com/crawlproject/crawl/scheduler"
	"github.com/crawlproject/crawl/wacz"
)

// maxSeedErrorsShown is how many bad seed lines are printed one by one (a
// binary or a wrong file given as --seed would print thousands).
const maxSeedErrorsShown = 20

// runCrawl reads the seeds, runs the crawl and prints the summary. The
// seed file is read as the crawl runs (crawler.Options.SeedStream), up to
// its first usable seed before it starts: a list of millions of lines
// starts at once and is never held whole. A dry run reads it whole.
func runCrawl(ctx context.Context, cfg config.Config, stdout, stderr io.Writer) error {
	f, err := openSeedFile(cfg.Seed)
	if err != nil {
		return err
	}
	defer f.Close()
	stream := crawler.NewSeedReader(f, cfg.Scope.MaxURLLength)
	bad := &badSeeds{file: cfg.Seed, w: stderr}
	if cfg.DryRun {
		seeds, err := readAllSeeds(cfg, stream, bad)
		bad.end()
		if err != nil {
			return err
		}
		return runDryRun(ctx, cfg, seeds, stdout, stderr)
	}
	first, err := firstSeed(cfg, stream, bad)
	if err != nil {
		bad.end()
		return err
	}
	progress := progressWriter(cfg, stderr)
	logTo := stderr
	if progress != nil {
		logTo = clearLine{stderr}
	}
	bad.hold()
	logger := newLogger(cfg, logTo)
	// net/http writes to the log package's logger (a server's unasked-for
	// bytes on an idle connection, for one), which went to stderr as raw
	// lines, breaking --log-format json: it goes through ours while the
	// crawl runs, and where it went before once it ends (tests run
	// several crawls in one process, each logging to its own buffer).
	defer func(l *slog.Logger, w io.Writer, flags int) {
		slog.SetDefault(l)
		log.SetOutput(w)
		log.SetFlags(flags)
	}(slog.Default(), log.Writer(), log.Flags())
	slog.SetDefault(logger)
	opts := crawler.Options{Seeds: []string{first}, SeedStream: stream, BadSeed: bad.report, Logger: logger, Progress: progress}
	sum, err := crawler.Run(ctx, cfg, opts)
	bad.end()
	return reportRun(ctx, cfg, sum, err, stdout)
}

// firstSeed reads stream up to its first usable seed, reporting the bad
// lines before it; a file without one is a usage error.
func firstSeed(cfg config.Config, stream *crawler.SeedReader, bad *badSeeds) (string, error) {
	for {
		seed, b, err := stream.Next()
		switch {
		case errors.Is(err, io.EOF):
			return "", usagef("seed file %s has no usable URL", cfg.Seed)
		case err != nil:
			return "", usagef("seed file %s: %v", cfg.Seed, err)
		case b != nil:
			bad.report(b)
		default:
			return seed, nil
		}
	}
}

// readAllSeeds reads every seed of stream, reporting the bad lines; a
// file without a usable seed is a usage error.
func readAllSeeds(cfg config.Config, stream *crawler.SeedReader, bad *badSeeds) ([]string, error) {
	first, err := firstSeed(cfg, stream, bad)
	if err != nil {
		return nil, err
	}
	seeds := []string{first}
	for {
		seed, b, err := stream.Next()
		switch {
		case errors.Is(err, io.EOF):
			return seeds, nil
		case err != nil:
			return nil, usagef("seed file %s: %v", cfg.Seed, err)
		case b != nil:
			bad.report(b)
		default:
			seeds = append(seeds, seed)
		}
	}
}

// badSeeds prints the bad lines of a seed file: the first
// maxSeedErrorsShown one by one, then (end) how many more there were.
// Those met before hold is called are printed at once; those met after it,
// by the goroutine that reads the seed list while the crawl runs and logs,
// are printed by end, so that nothing else writes to stderr meanwhile.
// Safe for concurrent use.
type badSeeds struct {
	file    string
	w       io.Writer
	mu      sync.Mutex
	n       int
	holding bool
	held    []string
}

func (b *badSeeds) report(e *crawler.SeedError) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.n < maxSeedErrorsShown {
		line := fmt.Sprintf("crawl: %s: %v (skipped)\n", b.file, e)
		if b.holding {
			b.held = append(b.held, line)
		} else {
			io.WriteString(b.w, line)
		}
	}
	b.n++
}

// hold makes report keep the lines for end to print.
func (b *badSeeds) hold() {
	b.mu.Lock()
	b.holding = true
	b.mu.Unlock()
}

// end prints the lines held and how many bad lines were not shown, if
// any.
func (b *badSeeds) end() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, l := range b.held {
		io.WriteString(b.w, l)
	}
	b.held = nil
	if more := b.n - maxSeedErrorsShown; more > 0 {
		fmt.Fprintf(b.w, "crawl: %s: %d more bad lines not shown (skipped)\n", b.file, more)
	}
}

// reportRun prints the summary and maps the crawl's outcome to an error.
func reportRun(ctx context.Context, cfg config.Config, sum *crawllog.Summary, err error, stdout io.Writer) error {
	if uerr := outDirError(cfg, err); uerr != nil {
		return uerr
	}
	if sum != nil {
		sum.Print(stdout)
		if werr := report.Write(cfg.Out); werr != nil {
			fmt.Fprintf(stdout, "\nreport not written: %v\n", werr)
		} else {
			fmt.Fprintf(stdout, "\nReport: %s/report.html\n", cfg.Out)
		}
	}
	if ctx.Err() != nil {
		return &interruptedError{msg: fmt.Sprintf("crawl: interrupted; the frontier is saved in %s. Run the same command again to continue.", cfg.Out)}
	}
	if err == nil && cfg.Archive.WACZ {
		err = packWACZ(cfg, stdout)
	}
	if err == nil && sum != nil && sum.ExitCode == crawler.ExitHostsGivenUp {
		return &givenUpError{hosts: sum.Totals.DroppedHosts}
	}
	var we *crawler.WriteError
	if errors.As(err, &we) {
		return &writeFailedError{we}
	}
	return err
}

// writeFailedError is the one line a crawl stopped by a failed write ends
// with (exit 1): what could not be written, the file, the error, and that
// running the same command again once there is room loses nothing.
type writeFailedError struct{ we *crawler.WriteError }

func (e *writeFailedError) Error() string {
	where := e.we.Err.Error()
	var pe *os.PathError
	if errors.As(e.we.Err, &pe) {
		where = pe.Path + ": " + pe.Err.Error()
	}
	return fmt.Sprintf("%s write failed: %s; the crawl stopped, and what was not written is still queued: free space and run the same command again",
		e.we.What, where)
}

func (e *writeFailedError) Unwrap() error { return e.we }

// packWACZ writes the WACZ of a crawl that ended (archive.wacz): the whole
// crawl of cfg.Out so far, replacing the one an earlier run wrote.
func packWACZ(cfg config.Config, stdout io.Writer) error {
	res, err := wacz.Write(cfg.Out, wacz.Options{Software: waczSoftware()})
	if err != nil {
		return fmt.Errorf("%w (the crawl's own files are complete: \"crawl wacz %s\" tries again)", err, cfg.Out)
	}
	_, err = fmt.Fprintf(stdout, "WACZ: %s (%d pages, %s)\n", res.Path, res.Pages, byteSize(res.Bytes))
	return err
}

// outDirError returns the usage error (exit 2) for err when cfg.Out
// cannot be used: it is not a usable output dir (crawler.ErrOutDir), or
// another crawl or dry run holds its frontier; nil otherwise.
func outDirError(cfg config.Config, err error) error {
	var od *crawler.ErrOutDir
	if errors.As(err, &od) {
		return &usageError{err}
	}
	if !errors.Is(err, scheduler.ErrStoreLocked) {
		return nil
	}
	who := "its frontier is locked"
	if pid, ok := frontierHolder(filepath.Join(cfg.Out, crawler.FrontierFile)); ok {
		who = fmt.Sprintf("pid %d", pid)
	}
	return usagef("output dir %s is in use by another crawl (%s); wait for it to finish or choose another --out", cfg.Out, who)
}

// frontierHolder returns the process that has the frontier file open, found
// through /proc/<pid>/fd where there is one (Linux); ok is false elsewhere or
// when no readable process holds it.
func frontierHolder(path string) (pid int, ok bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return 0, false
	}
	want, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return 0, false
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	for _, p := range procs {
		n, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		fds, err := os.ReadDir(filepath.Join("/proc", p.Name(), "fd"))
		if err != nil {
			continue
		}
		for _, fd := range fds {
			if t, err := os.Readlink(filepath.Join("/proc", p.Name(), "fd", fd.Name())); err == nil && t == want {
				return n, true
			}
		}
	}
	return 0, false
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.Log.Level))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// progressWriter returns where the live progress line goes: stderr when it
// is a terminal (or log.progress is always), nowhere otherwise.
func progressWriter(cfg config.Config, stderr io.Writer) io.Writer {
	switch cfg.Log.Progress {
	case "never":
		return nil
	case "always":
		return stderr
	}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return stderr
	}
	return nil
}

// clearLine erases the live progress line before each log record, so the
// two never run into each other on a terminal.
type clearLine struct{ w io.Writer }

func (c clearLine) Write(p []byte) (int, error) {
	if _, err := io.WriteString(c.w, "\r\033[K"); err != nil {
		return 0, err
	}
	return c.w.Write(p)
}
