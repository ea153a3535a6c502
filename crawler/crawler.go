package crawler

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/redisfrontier"
	"github.com/crawlproject/crawl/robotscache"
	"github.com/crawlproject/crawl/scheduler"
	"github.com/crawlproject/crawl/wire"
)

// FrontierFile is the embedded frontier store inside the output directory.
const FrontierFile = "frontier.db"

// ArchiveDir is the directory of the WARC files, the CDXJ index and the
// mirror inside the output directory.
const ArchiveDir = "archive"

// Options are the parts of a crawl that are not configuration.
type Options struct {
	// Seeds are the seed URLs (see ReadSeeds).
	Seeds []string
	// SeedStream, if set, holds more seeds, read and offered as the crawl
	// runs, after Seeds: a seed list of millions of lines starts at once
	// and is never held whole. The crawl does not end before it is read.
	SeedStream *SeedReader
	// BadSeed, if set, is called with each bad line of SeedStream, from
	// the goroutine that reads it.
	BadSeed func(*SeedError)
	// Logger receives diagnostic logs; nil discards them.
	Logger *slog.Logger
	// Progress receives the live progress line; nil shows none.
	Progress io.Writer
	// Events, if set, is called for each decision worth narrating. It is
	// called from several goroutines, one call at a time.
	Events func(Event)
	// HostNotes, if set, label hosts in the summary and the report (the
	// demo names each site and its lesson), keyed by authority.
	HostNotes map[string]HostNote
	// Ephemeral marks a crawl of sites that end with the run (crawl demo):
	// running it again cannot continue it, so its messages, summary and
	// report do not suggest that.
	Ephemeral bool

	// wrapArchive and wrapStore, if set, stand between the crawl and its
	// archive writer or frontier store, and openedLogs is handed its logs
	// once open: tests make writes fail.
	wrapArchive func(archiver) archiver
	wrapStore   func(scheduler.Store) scheduler.Store
	openedLogs  func(*logs)
}

// A HostNote is a short label and a sentence shown with a host.
type HostNote struct {
	Label string
	Note  string
}

// An ErrOutDir is an output directory that cannot be used.
type ErrOutDir struct {
	Dir string
	Err error
}

func (e *ErrOutDir) Error() string { return fmt.Sprintf("crawler: output dir %s: %v", e.Dir, e.Err) }
func (e *ErrOutDir) Unwrap() error { return e.Err }

// crawl is one running crawl: the scheduler, the robots layer, colly, the
// archive and the logs, wired together.
type crawl struct {
	cfg    config.Config
	opts   Options
	log    *slog.Logger
	sched  frontier
	tr     *wire.Transport
	robots *robotscache.Cache
	col    *colly.Collector
	parse  *parseBudget // bytes of HTML parsed at once (newCollector)
	arch   archiver
	logs   *logs
	stop   stopper // the first failed write, which stops the crawl
	tally  *tally
	events *eventSink
	logged *loggedOnceSet // URLs whose repeatable skip this run logged (history.refused: earlier runs)
	listed *loggedOnceSet // the seeds listed so far, to log a seed listed twice
	// queuedLogged are the URLs this run logged as left queued, with
	// their reason (queuedKey; history.queued: earlier runs).
	queuedLogged *loggedOnceSet
	held         heldLinks // links out of the seed hosts' scope while seeds are still read
	feed         feedPace  // how far the seed list is read ahead of the crawl
	// unfollowed holds the links not followed (nofollow) until they are
	// settled: logged, at the end of a run, if nothing else brought them.
	unfollowed unfollowed
	// sheetEnvs holds the encoding of the page or sheet that referred to
	// a style sheet not fetched yet, where that is not UTF-8.
	sheetEnvs sheetEnvs

	// store is what the frontier is kept in, closed after it; nil when
	// closing the frontier closes all it holds.
	store scheduler.Store

	started time.Time  // this run's start
	history *history   // what earlier runs of cfg.Out did
	runs    *jsonlFile // runs.jsonl, open for this run's end line
}

// Run crawls from opts.Seeds with cfg until the frontier is drained, every
// remaining host is deferred, or ctx is cancelled. It writes the archive and
// the logs in cfg.Out and returns the summary (also written as summary.json).
// Re-running with the same cfg.Out resumes. When ctx is cancelled the state
// is saved and Run returns the summary with Interrupted set and ctx's error.
// The first write to the archive, a log or the frontier that fails stops
// the crawl as a cancelled ctx does, and Run returns it as a *WriteError.
func Run(ctx context.Context, cfg config.Config, opts Options) (*crawllog.Summary, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	c, err := start(cfg, opts)
	if err != nil {
		return nil, err
	}
	run, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	c.stop.arm(cancel)
	c.addSeeds(opts.Seeds)
	feedErr := c.feedSeeds(run, opts.SeedStream)
	// colly takes the context of its requests from a field, not from
	// Request: setting it here makes a cancelled crawl abort the requests
	// in flight at once instead of waiting out fetch.timeout.
	c.col.Context = run
	runErr := c.loop(run)
	if runErr == nil {
		runErr = c.failure()
	}
	if err := feedErr(); runErr == nil {
		runErr = err
	}
	c.settleUnfollowed(opts.Ephemeral || ctx.Err() == nil && runErr == nil && c.sched.Stats().Queued == 0)
	sum := c.finish(ctx.Err() != nil)
	c.close()
	if ctx.Err() != nil {
		return sum, ctx.Err()
	}
	if err := c.failure(); err != nil {
		return sum, err
	}
	return sum, runErr
}

func start(cfg config.Config, opts Options) (*crawl, error) {
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, &ErrOutDir{Dir: cfg.Out, Err: err}
	}
	probe := filepath.Join(cfg.Out, ".write-test")
	if err := os.WriteFile(probe, nil, 0o644); err != nil {
		return nil, &ErrOutDir{Dir: cfg.Out, Err: errors.New("not writable")}
	}
	os.Remove(probe)
	log := opts.Logger
	if log == nil {
		log = discardLogger()
	}
	c := &crawl{cfg: cfg, opts: opts, log: log, tally: newTally(), logged: newLoggedOnceSet(maxLoggedOnce),
		listed: newLoggedOnceSet(maxListedSeeds), queuedLogged: newLoggedOnceSet(maxLoggedOnce)}
	c.events = &eventSink{fn: opts.Events, log: log}
	// process names this process among those sharing frontier.url, in
	// its WARC file names; "" for the embedded frontier.
	var process string
	if cfg.Frontier.URL != "" {
		process = redisfrontier.NewProcessID()
	}
	// opened holds the closers of what is open so far; a failure closes
	// them, last opened first.
	var opened []func() error
	var err error
	fail := func(err error) (*crawl, error) {
		for i := len(opened) - 1; i >= 0; i-- {
			opened[i]()
		}
		return nil, err
	}
	if cfg.Frontier.URL == "" {
		store, err := openStore(cfg, opts)
		if err != nil {
			return nil, err
		}
		c.store = store
		opened = append(opened, store.Close)
	}
	// Read after the frontier is open: its lock keeps another run of the
	// directory from appending to the logs meanwhile.
	if c.history, err = readHistory(cfg.Out); err != nil {
		return fail(err)
	}
	c.tally.refetch = c.history.tally.refetch
	if err := c.unfollowed.load(cfg.Out); err != nil {
		return fail(err)
	}
	if c.runs, c.started, err = beginRun(cfg.Out, crawllog.ModeCrawl); err != nil {
		return fail(err)
	}
	opened = append(opened, c.runs.close)
	robotsStore, err := c.openFrontier(process)
	if err != nil {
		return fail(err)
	}
	opened = append(opened, c.sched.Close)
	if c.logs, err = openLogs(cfg.Out); err != nil {
		return fail(err)
	}
	opened = append(opened, c.logs.close)
	if opts.openedLogs != nil {
		opts.openedLogs(c.logs)
	}
	if cfg.Archive.WARC {
		w, err := openArchive(cfg, process)
		if err != nil {
			return fail(err)
		}
		c.arch = w
		if opts.wrapArchive != nil {
			c.arch = opts.wrapArchive(w)
		}
	}
	c.tr, c.robots = newPoliteStack(cfg, c.sched, robotsStore, c.hostBusy, c.onRobotsFetch)
	c.robots.Warn = c.log.Warn
	c.parse = newParseBudget(maxParseBytes)
	c.col = newCollector(c.tr, cfg, c.parse)
	c.applyCachedRules(time.Now())
	return c, nil
}

// openFrontier opens the crawl's frontier: the embedded scheduler over
// c.store, or, with frontier.url set, the frontier shared through Redis
// as process. It returns the store of the robots cache's copies of
// robots.txt: c.store, or the shared copies in Redis.
func (c *crawl) openFrontier(process string) (robotscache.Store, error) {
	sc := schedulerConfig(c.cfg, c.onSchedulerSkip)
	if c.cfg.Frontier.URL == "" {
		s, err := scheduler.Open(sc, c.store)
		if err != nil {
			return nil, fmt.Errorf("crawler: open scheduler: %w", err)
		}
		c.sched = s
		return c.store, nil
	}
	f, err := redisfrontier.Open(context.Background(), redisfrontier.Options{URL: c.cfg.Frontier.URL, ProcessID: process,
		Out: c.cfg.Out, Config: sc, Logger: c.log})
	if err != nil {
		return nil, fmt.Errorf("crawler: open frontier: %w", err)
	}
	c.sched = f
	return f.RobotsStore(), nil
}

// embeddedOnly refuses a dry run whose frontier.url is set: a dry run
// paces through the embedded frontier of --out. The URL is named redacted.
func embeddedOnly(cfg config.Config) error {
	if cfg.Frontier.URL == "" {
		return nil
	}
	return fmt.Errorf("crawler: frontier.url %s: a dry run paces through the embedded frontier of --out; leave frontier.url empty",
		config.RedactURL(cfg.Frontier.URL))
}

// openStore opens the embedded frontier's store, cfg.Out's frontier.db,
// wrapped by opts.wrapStore when a test sets it.
func openStore(cfg config.Config, opts Options) (scheduler.Store, error) {
	bolt, err := scheduler.OpenBolt(filepath.Join(cfg.Out, FrontierFile))
	if err != nil {
		return nil, fmt.Errorf("crawler: open frontier: %w", err)
	}
	if opts.wrapStore != nil {
		return opts.wrapStore(bolt), nil
	}
	return bolt, nil
}

// applyCachedRules gives the scheduler the rules of every host whose
// robots.txt a previous run read and which are still fresh at now: a
// resumed crawl then paces and names each host's pace by its robots.txt
// from the start, also a host with nothing left to do, which is never
// offered a robots.txt lease (it used to report "previous run's interval"
// as what set its pace). The restart floor stays in force.
func (c *crawl) applyCachedRules(now time.Time) {
	for _, hs := range c.sched.Hosts() {
		if st, fresh := c.robots.Cached(hs.Authority, now); st != nil && fresh && st.Good() {
			c.sched.SetRules(hs.Authority, st.Rules(c.cfg.Agent.Token))
		}
	}
}

func (c *crawl) hostBusy(authority string) bool {
	h := c.sched.Host(authority)
	return h.Queued > 0 || h.InFlight > 0
}

// loop runs the workers and the progress line until the frontier drains or
// ctx ends, and joins every goroutine before returning. A worker's error
// stops the others (a failed write is already a WriteError, which stops
// the crawl itself).
func (c *crawl) loop(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, c.cfg.Fetch.Workers)
	for range c.cfg.Fetch.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.worker(ctx); err != nil {
				errs <- err
				cancel()
			}
		}()
	}
	stopProgress := c.startProgress(ctx)
	wg.Wait()
	stopProgress()
	close(errs)
	return <-errs
}

func (c *crawl) worker(ctx context.Context) error {
	for {
		lease, err := c.sched.Next(ctx)
		if errors.Is(err, scheduler.ErrDrained) || ctx.Err() != nil {
			return nil
		}
		if errors.Is(err, scheduler.ErrStore) {
			return c.fail(WroteFrontier, err)
		}
		if err != nil {
			return fmt.Errorf("crawler: next URL: %w", err)
		}
		err = c.handle(ctx, lease)
		c.feed.handled.Add(1)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
	}
}

// addSeeds offers the seeds. A seed listed again (as written or in another
// form of the same URL) is logged as a duplicate, as README promises; a
// seed already in the frontier from an earlier run of this output
// directory is not, or every resume would log the whole seed list.
func (c *crawl) addSeeds(seeds []string) {
	for _, s := range seeds {
		c.addSeed(s)
	}
}

// addSeed offers one seed (see addSeeds).
func (c *crawl) addSeed(s string) {
	if u, err := scheduler.Canonicalize(s, nil); err == nil {
		key := u.String()
		if !c.listed.add(key) {
			c.recordSkip(scheduler.Skip{URL: key, Authority: scheduler.Authority(u), Reason: scheduler.ReasonDuplicate,
				Detail: "seed listed more than once"})
			return
		}
	}
	c.add(scheduler.Candidate{URL: s, Depth: 0, Kind: scheduler.KindPage, Seed: true})
}

// add offers a candidate to the scheduler and logs a skip if it is refused.
func (c *crawl) add(cand scheduler.Candidate) {
	skip, err := c.sched.Add(cand)
	if err != nil {
		// A link the frontier did not take would be lost: the crawl stops,
		// and the page that led to it stays queued.
		c.fail(WroteFrontier, err)
		return
	}
	if skip == nil {
		if cand.Seed {
			c.feed.queued.Add(1)
		}
		return
	}
	if skip.Reason == scheduler.ReasonDuplicate && cand.Nofollow != "" {
		return // a link not followed, to a URL already seen: nothing changes
	}
	if skip.Reason == scheduler.ReasonNofollow {
		c.holdUnfollowed(*skip)
		return
	}
	if skip.Reason == scheduler.ReasonOutOfScope && c.held.hold(cand, skip.URL) {
		return // offered again once every seed host is known
	}
	if skip.Reason == scheduler.ReasonDuplicate && !cand.Seed && cand.Kind != scheduler.KindSitemap {
		// Links to pages already seen are counted, not logged: a site's
		// navigation would otherwise fill the skip log.
		c.tally.duplicate()
		return
	}
	if skip.Reason == scheduler.ReasonDuplicate && cand.Seed {
		return // a seed already in the frontier from an earlier run
	}
	if loggedOnce(skip.Reason) && !c.firstLog(skip.URL) {
		return
	}
	c.recordSkip(*skip)
}

// firstLog reports whether a skip of u for a reason logged once is the
// first for the crawl of the output directory: no earlier run logged u (as
// it is logged: cut to scope.max_url_length), and this run has not (two
// long URLs that share their first octets are told apart).
func (c *crawl) firstLog(u string) bool {
	logged := u
	if m := c.cfg.Scope.MaxURLLength; m > 0 && len(u) > m {
		logged = cutForLog(u, m)
	}
	return !c.history.refused.has(logged) && c.logged.add(u)
}

// loggedOnce reports whether a skip for reason is logged once for the
// crawl of the output directory: the frontier does not remember the URLs
// it refuses for these reasons, so the same link on every page would be
// refused, and logged, again.
func loggedOnce(reason scheduler.Reason) bool {
	switch reason {
	case scheduler.ReasonOutOfScope, scheduler.ReasonMaxDepth, scheduler.ReasonMaxPages, scheduler.ReasonInvalidURL, scheduler.ReasonURLTooLong,
		scheduler.ReasonPathRepeats, scheduler.ReasonNofollow:
		return true
	}
	return false
}

// onSchedulerSkip records a skip the scheduler found: among them, the
// URLs of the hosts a drained frontier defers or gave up for the run,
// which stay queued and are logged once each (firstQueued).
func (c *crawl) onSchedulerSkip(s scheduler.Skip) { c.noteSkip(s, true) }

func (c *crawl) recordSkip(s scheduler.Skip) { c.noteSkip(s, false) }

// noteSkip logs, counts and narrates s; left is set for the URLs a drained
// frontier leaves queued.
func (c *crawl) noteSkip(s scheduler.Skip, left bool) {
	if s.Time.IsZero() {
		s.Time = time.Now()
	}
	if !s.Queued {
		c.tally.refetch.forget(s.URL)
	}
	if m := c.cfg.Scope.MaxURLLength; m > 0 && len(s.URL) > m {
		// A trap's URLs can be as long as the page that links them, and
		// so would the log line be.
		s.URL = cutForLog(s.URL, m)
		s.Detail += fmt.Sprintf("; URL logged cut to its first %d octets", len(s.URL))
	}
	if !left || !s.Queued || c.firstQueued(s) {
		c.writeLine(c.logs.skips, crawllog.SkipEntry{Time: s.Time.UTC(), URL: s.URL, Host: s.Authority, Reason: string(s.Reason),
			Detail: s.Detail, Rule: s.Rule, Line: s.Line, Parent: s.Parent, Queued: s.Queued, Attempts: s.Attempts, LastError: s.LastError})
	}
	c.tally.skip(s.Authority, string(s.Reason))
	c.events.emit(Event{Time: s.Time, Kind: EventSkip, Host: s.Authority, URL: s.URL, Reason: string(s.Reason), Rule: s.Rule, Line: s.Line, Detail: s.Detail})
}

// firstQueued reports whether s, a URL a drained frontier leaves queued
// (its host deferred, or given up for the run), is left queued for its
// reason for the first time, by this run or an earlier one (its URL as
// logged): only then is it logged. A crawl resumed again and again while
// a host is deferred would otherwise log its queued URLs again at every
// run. The others are counted in the run's share (RunEntry.QueuedAgain).
func (c *crawl) firstQueued(s scheduler.Skip) bool {
	key := queuedKey(string(s.Reason), s.URL)
	if !c.history.queued.has(key) && c.queuedLogged.add(key) {
		return true
	}
	c.tally.mu.Lock()
	c.tally.queuedAgain++
	c.tally.mu.Unlock()
	return false
}

// queuedKey is what tells a URL left queued for a reason from another.
func queuedKey(reason, u string) string { return reason + " " + u }

// close closes the archive, the logs and the frontier; a failure of any
// is recorded as the crawl's failed write (the first one counts).
func (c *crawl) close() {
	// Idle keep-alive connections each hold a read and a write goroutine
	// of net/http: closing them joins those before Run returns.
	c.tr.CloseIdle()
	if c.arch != nil {
		if err := c.arch.Close(); err != nil {
			c.fail(WroteArchive, err)
		}
	}
	c.unfollowed.close()
	if err := c.logs.close(); err != nil {
		c.fail(WroteLog, err)
	}
	err := c.sched.Close()
	if c.store != nil {
		err = errors.Join(err, c.store.Close())
	}
	if err != nil {
		c.fail(WroteFrontier, err)
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }

// openArchive opens the WARC writer of cfg.Out, its files named for
// process (see archiveOptions).
func openArchive(cfg config.Config, process string) (*archive.Writer, error) {
	w, err := archive.Open(archiveOptions(cfg, process))
	if err != nil {
		return nil, fmt.Errorf("crawler: open archive: %w", err)
	}
	return w, nil
}
