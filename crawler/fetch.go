package crawler

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gocolly/colly/v2"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/pageenc"
	"github.com/crawlproject/crawl/robots"
	"github.com/crawlproject/crawl/robotscache"
	"github.com/crawlproject/crawl/scheduler"
	"github.com/crawlproject/crawl/wire"
)

// job is one lease being fetched: what colly's callbacks learn about it.
type job struct {
	lease      *scheduler.Lease
	ex         *wire.Exchange
	verdict    robots.Verdict
	links      outlinks
	requisites outlinks // with fetch.requisites: images, scripts, style sheets and icons
	sheets     []string // the style sheets among the requisites, noted where enc is not UTF-8
	parsing    int64    // bytes of the parse budget held while colly parses the page
	treeErr    error    // why colly made no document tree of the page (its links were read from its tags)
	robots     pageRobots
	// nofollowed are the links of a page whose robots <meta> or
	// X-Robots-Tag asks not to follow them; relNofollowed those marked
	// rel="nofollow", with politeness.obey_rel_nofollow on.
	nofollowed, relNofollowed outlinks
	// linksRead: the page is a 2xx HTML page, whose links are read.
	linksRead bool
	base      *url.URL     // the page's <base href>, if any
	enc       pageEncoding // the encoding the page is read in
	// superseded: the answer's body was cut and the page is fetched
	// once more; this copy is logged, not archived nor followed.
	superseded bool
}

func (c *crawl) handle(ctx context.Context, l *scheduler.Lease) error {
	if l.Kind == scheduler.KindRobots {
		return c.handleRobots(ctx, l)
	}
	return c.handleFetch(ctx, l)
}

// handleRobots fetches a host's robots.txt and hands its pace to the
// scheduler, or reports the host unreachable for a later retry.
func (c *crawl) handleRobots(ctx context.Context, l *scheduler.Lease) error {
	st, fresh := c.robots.Cached(l.Authority, time.Now())
	var err error
	if st == nil || !fresh {
		// Not known, or expired: fetch it now. A fresh copy (persisted by
		// an earlier run) is applied without a request.
		st, err = c.robots.Refresh(ctx, l.Authority)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// Not sent (the host is parked or backing off): try again later.
		return c.sched.Finish(l, scheduler.Result{Requeue: true})
	}
	rec := st.Record()
	if !st.Good() {
		c.sched.RulesFailed(l.Authority, rec.Expires)
		c.events.emit(robotsFailedEvent(l.Authority, rec, c.sched.Host(l.Authority)))
		return c.finishObserved(l, scheduler.Result{})
	}
	c.sched.SetRules(l.Authority, st.Rules(c.cfg.Agent.Token))
	hs := c.sched.Host(l.Authority)
	c.events.emit(Event{Kind: EventRobots, Host: l.Authority, URL: rec.URL, Status: rec.Status, Reason: rec.Outcome,
		Pace: hs.Interval, PaceRule: hs.PaceSource, Comments: st.Group().Comments(), Detail: describeRobots(st, hs)})
	if c.cfg.Seeds.Sitemaps {
		for _, sm := range st.Robots().Sitemaps() {
			c.add(scheduler.Candidate{URL: sm, Parent: rec.URL, Kind: scheduler.KindSitemap})
		}
	}
	return c.finishObserved(l, scheduler.Result{})
}

// finishObserved ends a lease and records the state its host is left in:
// parked or deferred by the rules just applied, backing off or deferred by
// the answer just received, or dropped. The progress watcher polls host
// states only every progressEvery and not after the last lease, so a host
// deferred as the crawl drains would otherwise have no event.
func (c *crawl) finishObserved(l *scheduler.Lease, r scheduler.Result) error {
	err := c.sched.Finish(l, r)
	if err == nil {
		c.events.observe(c.sched.Host(l.Authority), c.opts.Ephemeral)
	}
	return err
}

// robotsFailedEvent narrates a failed robots.txt fetch once the scheduler
// took it in (hs is the host's status after RulesFailed): when the next
// attempt really happens, which is the later of the robots cache's retry
// time and the host's back-off or pace, or that the host was given up.
func robotsFailedEvent(auth string, rec robotscache.Record, hs scheduler.HostStatus) Event {
	e := Event{Kind: EventRobots, Host: auth, URL: rec.URL, Status: rec.Status, Reason: robotscache.OutcomeUnreachable}
	head := fmt.Sprintf("robots.txt unreachable (%s): nothing is fetched from %s", rec.Failure(), auth)
	if hs.State == scheduler.StateDropped {
		e.Detail = fmt.Sprintf("%s; giving up on the host for this run (%s); its URLs stay queued", head, hs.DropReason)
		return e
	}
	next := hs.NextAllowed
	if next.Before(rec.Expires) {
		next = rec.Expires
	}
	e.Until = next
	e.Detail = fmt.Sprintf("%s; next attempt at %s", head, next.UTC().Format("15:04:05.0"))
	return e
}

// handleFetch checks a URL against its host's robots.txt and fetches it with
// colly through the polite transport.
func (c *crawl) handleFetch(ctx context.Context, l *scheduler.Lease) error {
	now := time.Now()
	st, fresh := c.robots.Cached(l.Authority, now)
	if st != nil && !fresh {
		// A copy that expired while the page waited out the pace it set
		// still decides this page: with a cache TTL shorter than the pace,
		// refetching it here would take the page's turn every time, and
		// no page would ever be fetched.
		fresh = now.Before(st.Record().Expires.Add(c.sched.Host(l.Authority).Interval))
	}
	if st == nil || !fresh {
		c.sched.ExpireRules(l.Authority)
		return c.sched.Finish(l, scheduler.Result{Requeue: true})
	}
	if !st.Good() {
		return c.finishSkip(l, scheduler.ReasonRobotsUnreachable, "robots.txt unreachable: "+st.Record().Failure(), "", 0)
	}
	v := st.Group().Allowed(l.URL)
	if !v.Allowed {
		return c.finishSkip(l, scheduler.ReasonRobotsDisallowed, st.Refusal(v, c.cfg.Agent.Token), v.Rule, v.Line)
	}
	j := &job{lease: l, verdict: v}
	id, ex := c.tr.Track()
	defer c.tr.Untrack(id)
	j.ex = ex
	cctx := colly.NewContext()
	cctx.Put("job", j)
	hdr := http.Header{}
	hdr.Set(wire.JobHeader, id)
	err := c.col.Request(http.MethodGet, l.URL, nil, cctx, hdr)
	c.parse.give(j.parsing)
	if j.treeErr != nil {
		c.log.Warn("page made no document tree; its links were read from its tags", "url", l.URL, "err", j.treeErr)
	}
	if ex.Start.IsZero() || ex.Stopped {
		// Not sent, or aborted because the crawl is stopping: the lease
		// stays unfinished, so the URL stays in the durable frontier for
		// the next run, and nothing is held against the host.
		return c.notSent(ctx, l, err)
	}
	// A body the server ended early is fetched once more, if an attempt
	// is left (politeness.max_failures counts attempts).
	retry := ex.EndedEarly != "" && l.Attempt == 0 && c.cfg.Politeness.MaxFailures > 1
	if ex.EndedEarly != "" {
		ex.EndedEarly = endedEarlyNote(ex.EndedEarly, retry)
	}
	res := scheduler.Result{Status: ex.Status, Duration: ex.Duration, Err: ex.Err, Retry: retry}
	if ex.Header != nil {
		res.RetryAfter = ex.Header.Get("Retry-After")
	}
	// A body cut by the deadline or a broken connection is fetched once
	// more: only the last copy is archived and has its links followed.
	j.superseded = scheduler.Classify(ex.Status, ex.Err) == scheduler.OutcomeCut && c.sched.Retried(l, res)
	if err := c.record(j); err != nil {
		return err // the lease stays unfinished: the URL stays queued
	}
	if !j.superseded {
		c.follow(j)
	}
	return c.finishObserved(l, res)
}

// notSent handles a lease whose request never left: the host became parked
// or backed off after the lease was issued, the context ended, or the URL
// could not be requested at all.
func (c *crawl) notSent(ctx context.Context, l *scheduler.Lease, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, scheduler.ErrStore) {
		return c.fail(WroteFrontier, err) // the request start was not recorded
	}
	var wait *scheduler.WaitError
	if errors.As(err, &wait) {
		return c.finishObserved(l, scheduler.Result{Requeue: true})
	}
	if errors.Is(err, wire.ErrNotPermitted) {
		return c.finishSkip(l, scheduler.ReasonRobotsDisallowed, err.Error(), "", 0)
	}
	detail := "not requested"
	if err != nil {
		detail = err.Error()
	}
	return c.finishSkip(l, scheduler.ReasonInvalidURL, detail, "", 0)
}

func (c *crawl) finishSkip(l *scheduler.Lease, reason scheduler.Reason, detail, rule string, line int) error {
	s := scheduler.Skip{URL: l.URL, Parent: l.Parent, Authority: l.Authority, Reason: reason, Detail: detail, Rule: rule, Line: line, Time: time.Now()}
	c.recordSkip(s)
	return c.sched.Finish(l, scheduler.Result{Skip: &s})
}

// record writes the archive records of a fetch, then its crawl log line.
// If either write fails, the failure (a *WriteError) is returned: the
// crawl stops with the URL still queued (a failed archive write leaves no
// log line; a failed log line leaves the records, and the page is fetched
// again by the next run, as a page in flight at a kill -9 is).
func (c *crawl) record(j *job) error {
	l, ex := j.lease, j.ex
	if !j.superseded && c.arch != nil && ex.RawResponse != nil { // a superseded copy: a later one is archived
		if err := c.archive(ex, c.fetchMetadata(j), false); err != nil {
			return err
		}
	}
	e := crawlEntry(ex, l.URL, l.Authority, l.Kind.String())
	e.Depth, e.Parent, e.RobotsRule, e.RobotsLine = l.Depth, l.Parent, j.verdict.Rule, j.verdict.Line
	if l.Attempt > 0 {
		e.Attempt = l.Attempt + 1
	}
	if j.linksRead && l.Kind == scheduler.KindPage && !j.superseded {
		e.Nofollow = j.robots.nofollow // only where it held links back
	}
	if j.superseded {
		e.Note = joinNote(e.Note, "the body was cut: this copy is not archived and its links are not followed; the page is fetched once more")
	}
	if err := c.logs.crawl.write(e); err != nil {
		// Not logged: the lease stays unfinished and the URL queued.
		return c.fail(WroteLog, err)
	}
	_, failed := c.tally.logged(e)
	c.history.failing.note(e, c.started, failed)
	c.events.emit(Event{Time: ex.Start, Kind: EventFetch, Host: l.Authority, URL: l.URL, Status: ex.Status,
		Pace: time.Duration(ex.PaceSeconds * float64(time.Second)), PaceRule: ex.PaceRule, Rule: j.verdict.Rule, Line: j.verdict.Line,
		Detail: describeFetch(e)})
	return nil
}

// fetchMetadata is the metadata record of a page's fetch: the pace and
// what set it, the depth, the robots rule that allowed it, the page that
// led to it, its outlinks and those not followed, and the robots
// directives that spoke to the crawl.
func (c *crawl) fetchMetadata(j *job) []archive.Field {
	l, ex := j.lease, j.ex
	meta := []archive.Field{
		{Name: "pace", Value: fmt.Sprintf("%gs", ex.PaceSeconds)},
		{Name: "pace-source", Value: ex.PaceRule},
		{Name: "depth", Value: fmt.Sprint(l.Depth)},
	}
	if j.verdict.Line > 0 {
		meta = append(meta, archive.Field{Name: "robots-rule", Value: fmt.Sprintf("line %d: %s", j.verdict.Line, j.verdict.Rule)})
	}
	if l.Parent != "" {
		meta = append(meta, archive.Field{Name: "via", Value: l.Parent})
	}
	if j.treeErr != nil {
		meta = append(meta, archive.Field{Name: "outlinks-from", Value: "the page's tags: it made no document tree (" + j.treeErr.Error() + ")"})
	}
	for _, link := range j.links.urls {
		meta = append(meta, archive.Field{Name: "outlink", Value: link})
	}
	for what, o := range j.notFollowed() {
		first := o.first
		if m := c.cfg.Scope.MaxURLLength; m > 0 {
			first = cutForLog(first, m)
		}
		meta = append(meta, archive.Field{Name: "outlinks-not-followed", Value: fmt.Sprintf("%d %s past the %d distinct URLs followed (scope.max_links_per_page, repeats counted), the first to %s",
			o.dropped, what, c.cfg.Scope.MaxLinks, first)})
	}
	return append(meta, j.robotsFields()...)
}

// archive writes one exchange to the WARC files. A response whose body
// read failed is archived as far as it arrived, with its WARC-Truncated
// reason. A failed write (a full disk) leaves none of the exchange's
// records and stops the crawl: archive returns it as a *WriteError. A
// mirror copy that failed is logged, and the crawl goes on: the WARC
// holds the records.
func (c *crawl) archive(ex *wire.Exchange, meta []archive.Field, isRobots bool) error {
	if c.arch == nil || ex.RawResponse == nil {
		return nil // not archiving, or no response arrived
	}
	err := c.arch.WriteExchange(ex.Archived(meta, isRobots))
	switch {
	case errors.Is(err, archive.ErrMirror):
		c.log.Warn("mirror copy not written (the WARC records were)", "url", ex.URL, "err", err)
	case err != nil:
		return c.fail(WroteArchive, err)
	}
	return nil
}

// endedEarlyNote says what the crawl makes of a body the server ended
// early (what says where): the first time it may have been a passing fault
// (a back end restarting, a proxy's idle timeout), so the page is fetched
// once more (retry); a second time the server sends what it always sends,
// and the part received is the page.
func endedEarlyNote(what string, retry bool) string {
	if retry {
		return what + ": the part received is archived (WARC-Truncated: disconnect) and its links read, " +
			"and the page is fetched once more in case that was a passing fault"
	}
	return what + ": the part received is taken as the page (archived with WARC-Truncated: disconnect, its links read) " +
		"and not fetched again, as a server that ends a body early sends the same each time"
}

// follow offers the URLs a fetch led to: a redirect target (checked and
// paced as a new URL of its own host), links, requisites (a style sheet's
// too) and sitemap entries.
func (c *crawl) follow(j *job) {
	l, ex := j.lease, j.ex
	if ex.Status >= 300 && ex.Status < 400 && ex.Header != nil {
		if loc := ex.Header.Get("Location"); loc != "" {
			target, err := resolve(l.URL, loc)
			if err != nil {
				// Offered as written: the scheduler refuses it as an
				// invalid URL, and the skip log says so, as it does for a
				// mailto: or bad-port target.
				target = pageenc.CleanRef(loc)
			}
			// The target keeps the depth (and, for a sitemap, the nesting
			// level) of the URL that redirected, and counts one more hop:
			// the scheduler cuts the chain after scheduler.MaxRedirects.
			// A seed's redirect on its own host (to its slash form, say)
			// is still the page the operator named: the scheduler exempts
			// it, like the seed, from max_url_length and max_path_repeats.
			c.add(scheduler.Candidate{URL: target, Parent: l.URL, Depth: l.Depth, Kind: l.Kind, Redirects: l.Redirects + 1, SeedRedirect: l.Seed})
		}
		return
	}
	if ex.Status < 200 || ex.Status >= 300 {
		return
	}
	switch l.Kind {
	case scheduler.KindPage:
		for _, link := range j.links.urls {
			c.add(scheduler.Candidate{URL: link, Parent: l.URL, Depth: l.Depth + 1, Kind: scheduler.KindPage})
		}
		c.offerRequisites(j, l.Depth+1)
		// Offered only to be reported: a URL not seen yet is held, and
		// logged as not followed if nothing brings it (unfollowed.go);
		// one already seen is left alone. One detail serves all the
		// page's links, in the log and in the held set.
		unfollowed := func(links []string, why string) {
			for _, link := range links {
				c.add(scheduler.Candidate{URL: link, Parent: l.URL, Depth: l.Depth + 1, Kind: scheduler.KindPage, Nofollow: why})
			}
		}
		if len(j.nofollowed.urls) > 0 {
			unfollowed(j.nofollowed.urls, fmt.Sprintf("the link on %s is not followed: the page asks robots not to follow its links (%s)", l.URL, j.robots.nofollow))
		}
		if len(j.relNofollowed.urls) > 0 {
			unfollowed(j.relNofollowed.urls, fmt.Sprintf(`the link on %s is not followed: it is marked rel="nofollow", which politeness.obey_rel_nofollow obeys`, l.URL))
		}
		for what, o := range j.notFollowed() {
			c.skipLinksPast(l, o.first, fmt.Sprintf("%d %s of the page lead past the %d distinct URLs followed (scope.max_links_per_page): this one, the first, and %d more (repeats counted) are not followed",
				o.dropped, what, c.cfg.Scope.MaxLinks, o.dropped-1))
		}
	case scheduler.KindRequisite:
		c.followSheet(j)
	case scheduler.KindSitemap:
		found, err := parseSitemap(sitemapContent(ex.Header, ex.Body), l.URL)
		if err != nil {
			// The URLs read before the error are followed.
			c.log.Warn("sitemap read in part", "url", l.URL, "urls", len(found.pages)+len(found.sitemaps), "err", err)
		}
		if found.firstMore != "" {
			c.skipLinksPast(l, found.firstMore, fmt.Sprintf("the sitemap lists more than the %d URLs sitemaps.org allows in one: it is read no further, and this one and any after it are not followed",
				maxSitemapURLs))
		}
		for _, m := range found.sitemaps {
			// One level deeper than the index: the scheduler skips
			// sitemaps nested beyond scheduler.MaxSitemapNesting.
			c.add(scheduler.Candidate{URL: m, Parent: l.URL, Depth: l.Depth + 1, Kind: scheduler.KindSitemap})
		}
		for _, p := range found.pages {
			c.add(scheduler.Candidate{URL: p, Parent: l.URL, Kind: scheduler.KindPage})
		}
		c.events.emit(Event{Kind: EventSitemap, Host: l.Authority, URL: l.URL,
			Detail: fmt.Sprintf("sitemap %s lists %d pages and %d sitemaps", l.URL, len(found.pages), len(found.sitemaps))})
	}
}

// skipLinksPast logs one max-links skip, for the first of the URLs that
// the page or sitemap of l listed past its limit; detail counts the rest,
// which are not logged one by one (a trap's page can list 400,000).
func (c *crawl) skipLinksPast(l *scheduler.Lease, first, detail string) {
	sk := scheduler.Skip{URL: first, Parent: l.URL, Authority: l.Authority, Reason: scheduler.ReasonMaxLinks, Detail: detail}
	if u, err := scheduler.Canonicalize(first, nil); err == nil {
		sk.URL, sk.Authority = u.String(), scheduler.Authority(u)
	}
	c.recordSkip(sk)
}

// notFollowed yields the page's links, then its requisites, where some
// were dropped past scope.max_links_per_page, each with the word for them.
func (j *job) notFollowed() iter.Seq2[string, *outlinks] {
	return func(yield func(string, *outlinks) bool) {
		if j.links.dropped > 0 && !yield("links", &j.links) {
			return
		}
		if j.requisites.dropped > 0 {
			yield("requisites", &j.requisites)
		}
	}
}

// resolve returns the URL a redirect's Location ref leads to from base,
// read as a browser reads it (WHATWG URL Standard, basic URL parser, as
// pageenc.CleanRef does for a link): the spaces and controls around it and
// every tab, LF and CR inside it are removed, and in an http(s) reference
// each "\" before the query is a "/". RFC 3986 alone refused the first
// and read "\new\page.html" as another URL (%5C).
func resolve(base, ref string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	u, err := absolute(b, pageenc.CleanRef(ref))
	if err != nil {
		return "", err
	}
	return u.String(), nil
}

// absolute makes a clean reference (pageenc.CleanRef) absolute against
// base: in the frontier's form, which escapes only what a URI may not hold
// raw (net/url's own would escape "/it's a" as "/it%27s%20a", past a
// robots.txt rule written with the "'"), or, for a URL the frontier does
// not take, as net/url reads it, so that the scheduler logs why (a bad
// port, another scheme).
func absolute(base *url.URL, ref string) (*url.URL, error) {
	if c, err := scheduler.Canonicalize(ref, base); err == nil {
		return c, nil
	}
	return base.Parse(ref)
}

// crawlEntry is the crawl.jsonl line of a request to u on host: what the
// transport saw of it in ex (time, status, size, pace, content type,
// redirect target, error). The caller adds what its lease knows.
func crawlEntry(ex *wire.Exchange, u, host, kind string) crawllog.CrawlEntry {
	e := crawllog.CrawlEntry{Time: ex.Start.UTC(), URL: u, Host: host, Kind: kind, Status: ex.Status,
		Bytes: int64(len(ex.Body)), DurationMS: float64(ex.Duration) / float64(time.Millisecond),
		PaceSeconds: ex.PaceSeconds, PaceRule: ex.PaceRule, Truncated: ex.Truncated()}
	if ex.Header != nil {
		e.ContentType = cutForLog(ex.Header.Get("Content-Type"), maxLoggedValue)
		if ex.Status >= 300 && ex.Status < 400 {
			e.Redirect = cutForLog(ex.Header.Get("Location"), maxLoggedValue)
		}
	}
	if ex.Err != nil {
		e.Error = cutForLog(ex.Err.Error(), maxLoggedValue)
	}
	e.Note = cutForLog(exchangeNote(ex), maxLoggedValue)
	return e
}

// exchangeNote is the crawl log's note on an answer read all the same: a
// response head repaired before it was parsed, a body the server ended
// early; "" for an answer read as it came.
func exchangeNote(ex *wire.Exchange) string {
	var parts []string
	if len(ex.HeadRepairs) > 0 {
		parts = append(parts, "response head repaired before parsing, archived as received (the metadata record lists each change): "+
			strings.Join(ex.HeadRepairs, "; "))
	}
	if ex.EndedEarly != "" {
		parts = append(parts, ex.EndedEarly)
	}
	return strings.Join(parts, "; ")
}

// joinNote appends more to a crawl log note.
func joinNote(note, more string) string {
	if note == "" {
		return more
	}
	return note + "; " + more
}

// maxLoggedValue is the most of a value a server chose (a Content-Type, a
// Location, an error quoting its bytes) a log line keeps: one of 900 KB
// made a 900 KB line per request.
const maxLoggedValue = 2048

// onRobotsFetch archives and logs each robots.txt request (and redirect
// hop); an archive write that fails stops the crawl, and the request is
// not logged.
func (c *crawl) onRobotsFetch(e crawllog.RobotsEntry, ex *wire.Exchange) {
	if !ex.Start.IsZero() {
		if err := c.archive(ex, []archive.Field{{Name: "robots-outcome", Value: e.Outcome}, {Name: "pace-source", Value: ex.PaceRule}}, true); err != nil {
			return
		}
	}
	e.Error = cutForLog(e.Error, maxLoggedValue)
	c.writeLine(c.logs.robots, e)
	if ex.Start.IsZero() {
		return
	}
	ce := crawlEntry(ex, e.URL, scheduler.Authority(mustURL(e.URL)), scheduler.KindRobots.String())
	c.writeLine(c.logs.crawl, ce)
	c.tally.logged(ce)
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		return &url.URL{}
	}
	return u
}
