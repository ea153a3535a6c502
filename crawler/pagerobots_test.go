package crawler

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/internal/wiretest"
	"github.com/crawlproject/crawl/scheduler"
)

// HTML 4.01, appendix B.4.1.2 (Robots and the META element): "The content
// of the ROBOTS META tag contains directives separated by commas. The
// currently defined directives are [NO]INDEX and [NO]FOLLOW. ... ALL
// = INDEX, FOLLOW; NONE = NOINDEX, NOFOLLOW". The name "robots" speaks
// to every robot; a robot's own name to that robot only.
func TestMetaRobotsDirectives(t *testing.T) {
	for _, c := range []struct {
		name, content string
		speaks        bool
		nofollow      bool
	}{
		{"robots", "noindex, nofollow", true, true},
		{"ROBOTS", "NOINDEX,NOFOLLOW", true, true},
		{" Robots ", "none", true, true},
		{"robots", "index, follow", true, false},
		{"robots", "all", true, false},
		{"robots", "noindex nofollow", true, true}, // spaces instead of commas
		{"robots", "noindex;nofollow", true, true},
		{"robots", "noindex,\u00a0nofollow", true, true}, // &nbsp;
		{"robots", "nofollow\u00a0", true, true},
		{"robots", "noindex\vnofollow", true, true},
		{"robots", "noindex\u3000nofollow", true, true},
		{"robots", "follow, nofollow", true, true}, // the more restrictive holds
		{"robots", "nofollowers", true, false},     // a word, not a substring
		{"robots", "nonesuch", true, false},
		// A value of none belongs to its directive: no image preview.
		{"robots", "max-image-preview: none", true, false},
		{"robots", "index, follow, max-image-preview:none, max-snippet: -1", true, false},
		{"robots", "max-image-preview: large, nofollow", true, true},
		{"robots", "noindex nofollow max-snippet:-1", true, true},
		{"robots", "nofollow max-image-preview:large", true, true},
		{"robots", "none max-snippet:50", true, true},
		{"robots", "max-image-preview: none max-snippet: 20", true, false},
		{"robots", "max-snippet:", true, false},
		{"robots", "noindex : nofollow", true, true},
		{"robots", "noindex;nofollow", true, true},
		{"robots", "noindex,\u00a0nofollow", true, true}, // &nbsp;
		{"robots", "nofollow\u00a0", true, true},
		{"robots", "noindex\vnofollow", true, true},
		{"robots", "noindex\u3000nofollow", true, true},
		{"crawl", "nofollow", true, true}, // our own token
		{"Crawl", "NoFollow", true, true},
		{"googlebot", "nofollow", false, false}, // another robot's
		{"description", "none of this is nofollow", false, false},
	} {
		d, ok := metaRobotsDirectives(c.name, c.content, "crawl")
		if ok != c.speaks || asksNofollow(d) != c.nofollow {
			t.Errorf("<meta name=%q content=%q>: speaks %v, nofollow %v (%q); want %v, %v", c.name, c.content, ok, asksNofollow(d), d, c.speaks, c.nofollow)
		}
	}
}

// The X-Robots-Tag header carries the robots meta directives in HTTP: "any
// directive that can be used in a robots meta tag can also be specified as
// an X-Robots-Tag", several headers or a comma-separated list, and "the
// X-Robots-Tag may optionally specify a user-agent before the directives
// ... Directives specified without a user-agent are valid for all
// crawlers" (X-Robots-Tag: otherbot: noindex, nofollow).
func TestXRobotsTagDirectives(t *testing.T) {
	for _, c := range []struct {
		value string
		want  []string
	}{
		{"nofollow", []string{"nofollow"}},
		{"noindex, NOFOLLOW", []string{"noindex", "nofollow"}},
		{"none", []string{"none"}},
		{"crawl: nofollow", []string{"nofollow"}},
		{"CRAWL: noindex, nofollow", []string{"noindex", "nofollow"}},
		{"googlebot: nofollow", nil},
		{"otherbot: noindex, nofollow", nil},
		{"noarchive, otherbot: nofollow", []string{"noarchive"}},
		{"otherbot: nofollow, crawl: noarchive", []string{"noarchive"}},
		// Valued directives are not robot names, and a date's colons are not
		// either; a valued directive stays one, so its value is no directive.
		{"unavailable_after: 25 Jun 2010 15:00:00 PST", []string{"unavailable_after:25", "jun", "2010", "15:00:00", "pst"}},
		{"unavailable_after: Friday, 25-Jun-10 15:00:00 PST, nofollow", []string{"unavailable_after:friday", "25-jun-10", "15:00:00", "pst", "nofollow"}},
		// Spaces instead of commas, with valued directives among them.
		{"noindex nofollow max-snippet:0", []string{"noindex", "nofollow", "max-snippet:0"}},
		{"max-snippet : 20 none", []string{"max-snippet:20", "none"}},
		{"max-snippet: 20, nofollow", []string{"max-snippet:20", "nofollow"}},
		{"max-image-preview: none", []string{"max-image-preview:none"}},
		{"crawl: max-image-preview: none, follow", []string{"max-image-preview:none", "follow"}},
		// A robot's name after a semicolon or a space, and stray colons.
		{"otherbot: noindex; crawl: nofollow", []string{"nofollow"}},
		{"noindex; crawl: nofollow", []string{"noindex", "nofollow"}},
		{"noindex crawl: nofollow", []string{"noindex", "nofollow"}},
		{"noindex otherbot: nofollow", []string{"noindex"}},
		{"noindex : nofollow", []string{"noindex", "nofollow"}},
		{"crawl : nofollow", []string{"nofollow"}},
		{"crawl :nofollow", []string{"nofollow"}},
		{"otherbot :nofollow", nil},
		{"noindex:nofollow", []string{"noindex", "nofollow"}},
		{"unavailable_after: 25 Jun 2010 15:00:00 PST nofollow", []string{"unavailable_after:25", "jun", "2010", "15:00:00", "pst", "nofollow"}},
		{"crawl:", nil},
		{"", nil},
	} {
		got := xRobotsTagDirectives(c.value, "crawl")
		if !slices.Equal(got, c.want) {
			t.Errorf("X-Robots-Tag: %s: %q; want %q", c.value, got, c.want)
		}
	}
}

func TestRelNofollow(t *testing.T) {
	for rel, want := range map[string]bool{
		"nofollow": true, "NoFollow": true, "noopener nofollow": true, "ugc\tnofollow sponsored": true,
		"": false, "nofollowed": false, "external": false, "no follow": false,
	} {
		if relNofollow(rel) != want {
			t.Errorf("rel=%q: nofollow %v, want %v", rel, !want, want)
		}
	}
}

// A hostile page can repeat its robots directives without end: the first
// maxPageRobotsSources are recorded, cut to maxPageRobotsText octets with
// their length and the word that asked nofollow, and the rest counted;
// the first that asks nofollow is the one named, and recorded even when
// it comes past the limit.
func TestPageRobotsBounded(t *testing.T) {
	var p pageRobots
	h := http.Header{}
	h.Add("X-Robots-Tag", "otherbot: nofollow") // not for us: not recorded
	h.Add("X-Robots-Tag", "noarchive")
	p.noteHeader(h, "crawl")
	for i := range 20 {
		p.noteMeta("robots", fmt.Sprintf("noindex %d", i), "crawl")
	}
	long := "noindex, " + strings.Repeat("x", 60000) + ", nofollow"
	p.noteMeta("robots", long, "crawl")
	p.noteMeta("robots", "none", "crawl")
	if len(p.sources) != maxPageRobotsSources+1 || p.more != 14 || p.sources[0] != "X-Robots-Tag: noarchive" {
		t.Fatalf("%d sources (first %q), %d more; want %d, X-Robots-Tag: noarchive first, 14 more", len(p.sources), p.sources[0], p.more, maxPageRobotsSources+1)
	}
	want := fmt.Sprintf(" [%d octets; it says nofollow]", len(`<meta name="robots" content="`+long+`">`))
	if !strings.HasPrefix(p.nofollow, `<meta name="robots" content="noindex, xxx`) || !strings.HasSuffix(p.nofollow, want) ||
		len(p.nofollow) > maxPageRobotsText || p.sources[maxPageRobotsSources] != p.nofollow {
		t.Errorf("nofollow named %q (%d octets); want the long meta, cut to at most %d octets, ending %q, and recorded last", p.nofollow, len(p.nofollow), maxPageRobotsText, want)
	}
}

// TestPageNofollowHonoured: a page whose robots <meta> or X-Robots-Tag
// header asks robots (all of them, or this crawler by its token) not to
// follow its links has none of them followed, while the page itself is
// fetched and archived. A directive for another robot is not ours. A link
// marked rel="nofollow" is followed by default (HTML: "the current
// document's original author or publisher does not endorse the referenced
// document") and not with politeness.obey_rel_nofollow. Each URL linked
// only from such pages is logged once as nofollow, with the page and the
// directive, when the run ends; a URL already seen is not logged, nor is
// a URL linked again from a page that may be followed, which is fetched,
// whichever of the two pages came first. A link to another host is out of
// scope, as from any page, and that host is no host of the crawl. A PDF
// sent with X-Robots-Tag: nofollow has no links held back, and a page
// whose only robots directive is max-image-preview: none has its links
// followed.
func TestPageNofollowHonoured(t *testing.T) {
	t.Parallel()
	for _, obeyRel := range []bool{false, true} {
		t.Run(fmt.Sprintf("obey_rel_nofollow=%v", obeyRel), func(t *testing.T) {
			h := newTestHost(t)
			h.robotsText("User-agent: *\nCrawl-delay: 0.01\n")
			h.html("/", "/meta", "/header", "/agent-header", "/other-header", "/agent-meta", "/rel", "/late", "/manual.pdf", "/preview")
			page := func(path, head string, header string, body string) {
				h.pages[path] = func(w http.ResponseWriter, _ *http.Request) {
					w.Header().Set("Content-Type", "text/html")
					if header != "" {
						w.Header().Add("X-Robots-Tag", header)
					}
					fmt.Fprintf(w, "<!doctype html><html><head>%s</head><body>%s</body></html>", head, body)
				}
			}
			page("/meta", `<meta name="robots" content="noindex, nofollow">`, "", `<a href="/from-meta">x</a> <a href="/">home</a> <a href="/shared">s</a> <a href="/from-meta">again</a> <a href="http://other.invalid/x">elsewhere</a>`)
			page("/preview", `<meta name="robots" content="index, follow, max-image-preview: none">`, "max-image-preview: none", `<a href="/from-preview">x</a>`)
			h.pages["/manual.pdf"] = func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/pdf")
				w.Header().Set("X-Robots-Tag", "noindex, nofollow")
				fmt.Fprint(w, "%PDF-1.4\n")
			}
			page("/header", "", "noarchive, nofollow", `<a href="/from-header">x</a>`)
			page("/agent-header", "", "testbot: none", `<a href="/from-agent-header">x</a>`)
			page("/other-header", "", "otherbot: nofollow", `<a href="/from-other-header">x</a>`)
			page("/agent-meta", `<meta name="googlebot" content="index"><meta name="TESTBOT" content="NOFOLLOW">`, "", `<a href="/from-agent-meta">x</a>`)
			page("/rel", "", "", `<a rel="nofollow ugc" href="/from-rel">x</a> <a href="/plain">y</a>`)
			h.html("/late", "/shared")
			for _, p := range []string{"/from-meta", "/from-header", "/from-agent-header", "/from-other-header", "/from-agent-meta", "/from-rel", "/plain", "/shared", "/from-preview"} {
				h.html(p)
			}
			cfg := testConfig(t)
			cfg.Politeness.ObeyRelNofollow = obeyRel
			sum := crawlFor(t, cfg, h.URL("/"))

			got := map[string]bool{}
			for _, p := range h.paths() {
				got[p] = true
			}
			want := map[string]bool{
				"/meta": true, "/header": true, "/agent-header": true, "/agent-meta": true, "/rel": true,
				"/from-meta": false, "/from-header": false, "/from-agent-header": false, "/from-agent-meta": false,
				"/from-other-header": true, "/plain": true, "/shared": true, "/from-rel": !obeyRel, "/from-preview": true,
			}
			for p, w := range want {
				if got[p] != w {
					t.Errorf("%s requested: %v, want %v", p, got[p], w)
				}
			}

			wantSkips := map[string]string{
				"/from-meta":         `the link on ` + h.URL("/meta") + ` is not followed: the page asks robots not to follow its links (<meta name="robots" content="noindex, nofollow">)`,
				"/from-header":       `the link on ` + h.URL("/header") + ` is not followed: the page asks robots not to follow its links (X-Robots-Tag: noarchive, nofollow)`,
				"/from-agent-header": `the link on ` + h.URL("/agent-header") + ` is not followed: the page asks robots not to follow its links (X-Robots-Tag: testbot: none)`,
				"/from-agent-meta":   `the link on ` + h.URL("/agent-meta") + ` is not followed: the page asks robots not to follow its links (<meta name="TESTBOT" content="NOFOLLOW">)`,
			}
			if obeyRel {
				wantSkips["/from-rel"] = `the link on ` + h.URL("/rel") + ` is not followed: it is marked rel="nofollow", which politeness.obey_rel_nofollow obeys`
			}
			skips := skipsFor(t, cfg, scheduler.ReasonNofollow)
			for _, s := range skips {
				path := strings.TrimPrefix(s.URL, h.srv.URL)
				w, ok := wantSkips[path]
				if !ok {
					t.Errorf("unexpected nofollow skip %+v", s)
					continue
				}
				if s.Detail != w || s.Host != h.srv.URL || !strings.HasPrefix(s.Parent, h.srv.URL) {
					t.Errorf("skip %+v;\nwant detail %q", s, w)
				}
				delete(wantSkips, path)
			}
			for p := range wantSkips {
				t.Errorf("no nofollow skip for %s (logged once though linked twice)", p)
			}

			all := readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile))
			for i := 1; i < len(all); i++ {
				if all[i].Time.Before(all[i-1].Time) {
					t.Errorf("skips.jsonl goes back in time at line %d: %+v after %+v", i+1, all[i], all[i-1])
				}
			}
			if n := sum.SkipReasons["nofollow"]; n != len(skips) {
				t.Errorf("summary counts %d nofollow skips, the log has %d", n, len(skips))
			}
			if out := skipsFor(t, cfg, scheduler.ReasonOutOfScope); len(out) != 1 || out[0].URL != "http://other.invalid/x" {
				t.Errorf("out-of-scope skips %+v; want the other host's link once", out)
			}
			for _, hs := range sum.Hosts {
				if hs.Host != h.srv.URL {
					t.Errorf("summary lists host %s, which the crawl only declined a link to", hs.Host)
				}
			}
			var nofollowed []string
			for _, e := range readJSONL[crawllog.CrawlEntry](t, cfg.Out+"/crawl.jsonl") {
				if e.Nofollow != "" {
					nofollowed = append(nofollowed, strings.TrimPrefix(e.URL, h.srv.URL)+" "+e.Nofollow)
				}
			}
			slices.Sort(nofollowed)
			if w := []string{
				`/agent-header X-Robots-Tag: testbot: none`,
				`/agent-meta <meta name="TESTBOT" content="NOFOLLOW">`,
				`/header X-Robots-Tag: noarchive, nofollow`,
				`/meta <meta name="robots" content="noindex, nofollow">`,
			}; !slices.Equal(nofollowed, w) {
				t.Errorf("crawl.jsonl nofollow fields %q; want %q", nofollowed, w)
			}

			meta := ""
			for _, r := range wiretest.WARCRecords(t, cfg.Out) {
				if r.Type() == "metadata" && r.Get("WARC-Target-URI") == h.URL("/meta") {
					meta = string(r.Block)
				}
			}
			for _, w := range []string{
				"robots-directive: <meta name=\"robots\" content=\"noindex, nofollow\">\r\n",
				"outlinks-not-followed: 5 links: the page asks robots not to follow them (<meta name=\"robots\" content=\"noindex, nofollow\">)\r\n",
			} {
				if !strings.Contains(meta, w) {
					t.Errorf("/meta's metadata record lacks %q:\n%s", w, meta)
				}
			}
			if strings.Contains(meta, "outlink: ") {
				t.Errorf("/meta's metadata record lists outlinks it did not follow:\n%s", meta)
			}
		})
	}
}

// TestNofollowLoggedOncePerCrawl: a URL linked only from nofollow pages is
// logged once for the crawl of an output directory, though a later run
// fetches another nofollow page that links it, and the summary counts it
// once.
func TestNofollowLoggedOncePerCrawl(t *testing.T) {
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.01\n")
	for _, p := range []string{"/nf1", "/nf2"} {
		h.pages[p] = func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprint(w, `<html><head><meta name="robots" content="nofollow"></head><body><a href="/x">x</a></body></html>`)
		}
	}
	h.html("/x")
	cfg := testConfig(t)
	crawlFor(t, cfg, h.URL("/nf1"))
	sum := crawlFor(t, cfg, h.URL("/nf1"), h.URL("/nf2"))
	got := h.paths()
	slices.Sort(got)
	if want := []string{"/nf1", "/nf2", "/robots.txt"}; !slices.Equal(got, want) {
		t.Errorf("requested %q, want %q", got, want)
	}
	skips := skipsFor(t, cfg, scheduler.ReasonNofollow)
	if len(skips) != 1 || skips[0].URL != h.URL("/x") || skips[0].Parent != h.URL("/nf1") {
		t.Errorf("nofollow skips %+v; want /x once, from /nf1", skips)
	}
	if sum.SkipReasons["nofollow"] != 1 || sum.Totals.Skipped != 1 {
		t.Errorf("summary: nofollow %d, skipped %d; want 1 and 1", sum.SkipReasons["nofollow"], sum.Totals.Skipped)
	}
}

// TestNofollowWaitsForTheCrawlToFinish: a crawl interrupted after a
// nofollow page logs that page's links as queued (a page still queued may
// bring them) and keeps them for the run that continues it
// (UnfollowedFile); that run fetches /shared through the page /late, logs
// only /x, the link nothing brought, for good, counts it once, and
// removes the file.
func TestNofollowWaitsForTheCrawlToFinish(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.05\n")
	h.html("/", "/nf", "/late")
	h.pages["/nf"] = func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `<html><head><meta name="robots" content="nofollow"></head><body><a href="/x">x</a> <a href="/shared">s</a></body></html>`)
	}
	h.html("/late", "/shared")
	h.html("/x")
	h.html("/shared")
	cfg := testConfig(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := Run(ctx, cfg, Options{Seeds: []string{h.URL("/")}, Events: func(e Event) {
		if e.Kind == EventFetch && e.URL == h.URL("/nf") {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v, want it interrupted", err)
	}
	for _, s := range skipsFor(t, cfg, scheduler.ReasonNofollow) {
		if !s.Queued || !strings.Contains(s.Detail, "the crawl is unfinished") {
			t.Errorf("the interrupted run logged %+v as final; want it queued, saying why: the next run may still bring it", s)
		}
	}
	if _, err := os.Stat(filepath.Join(cfg.Out, UnfollowedFile)); err != nil {
		t.Fatalf("the interrupted run kept no links for the next: %v", err)
	}
	sum := crawlFor(t, cfg, h.URL("/"))
	if got := h.paths(); !slices.Contains(got, "/shared") || slices.Contains(got, "/x") {
		t.Errorf("requested %q; want /shared (linked by /late) and not /x", got)
	}
	var skips []crawllog.SkipEntry
	for _, s := range skipsFor(t, cfg, scheduler.ReasonNofollow) {
		if !s.Queued {
			skips = append(skips, s)
		}
	}
	if len(skips) != 1 || skips[0].URL != h.URL("/x") || skips[0].Parent != h.URL("/nf") {
		t.Errorf("final nofollow skips %+v; want /x only, from /nf", skips)
	}
	if sum.SkipReasons["nofollow"] != 1 {
		t.Errorf("summary counts %d nofollow skips, want 1", sum.SkipReasons["nofollow"])
	}
	if _, err := os.Stat(filepath.Join(cfg.Out, UnfollowedFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s left after the crawl finished: %v", UnfollowedFile, err)
	}
}

// TestNofollowAfterAnotherRefusal: a URL one run logged for another
// reason (max-depth, linked too deep from /a) is not logged again as
// nofollow by the run that finishes the crawl; /y, linked only from the
// nofollow page, is, queued by the interrupted run and for good by the
// next, and counted once.
func TestNofollowAfterAnotherRefusal(t *testing.T) {
	t.Parallel()
	h := newTestHost(t)
	h.robotsText("User-agent: *\nCrawl-delay: 0.05\n")
	h.html("/", "/nf", "/a")
	h.pages["/nf"] = func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `<html><head><meta name="robots" content="nofollow"></head><body><a href="/x">x</a> <a href="/y">y</a></body></html>`)
	}
	h.html("/a", "/x")
	cfg := testConfig(t)
	cfg.Scope.MaxDepth = 1
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := Run(ctx, cfg, Options{Seeds: []string{h.URL("/")}, Events: func(e Event) {
		if e.Kind == EventFetch && e.URL == h.URL("/a") {
			cancel()
		}
	}}); !errors.Is(err, context.Canceled) {
		t.Fatalf("first run: %v, want it interrupted", err)
	}
	sum := crawlFor(t, cfg, h.URL("/"))
	var got []string
	for _, s := range readJSONL[crawllog.SkipEntry](t, filepath.Join(cfg.Out, crawllog.SkipLogFile)) {
		l := strings.TrimPrefix(s.URL, h.srv.URL) + " " + s.Reason
		if s.Queued {
			l += " (queued)"
		}
		got = append(got, l)
	}
	if want := []string{"/x max-depth", "/y nofollow (queued)", "/y nofollow"}; !slices.Equal(got, want) {
		t.Errorf("skips %q, want %q", got, want)
	}
	if sum.Totals.Skipped != 2 {
		t.Errorf("summary counts %d skipped, want 2", sum.Totals.Skipped)
	}
}

// TestNofollowShownWhileHostsWait: a crawl that ends with a host deferred
// (its Visit-time window closed for hours) is not finished, but its
// summary still shows the links not followed, logged as queued, and keeps
// them for the run that finishes.
func TestNofollowShownWhileHostsWait(t *testing.T) {
	now := time.Now().UTC()
	open := newTestHost(t)
	open.robotsText("User-agent: *\nCrawl-delay: 0.01\n")
	open.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `<html><head><meta name="robots" content="nofollow"></head><body><a href="/x">x</a></body></html>`)
	}
	closed := newTestHost(t)
	closed.robotsText("User-agent: *\nVisit-time: " + clockAt(now.Add(3*time.Hour)) + "-" + clockAt(now.Add(4*time.Hour)) + "\n")
	closed.html("/")
	cfg := testConfig(t)
	cfg.Politeness.MaxWait = time.Second
	sum := crawlFor(t, cfg, open.URL("/"), closed.URL("/"))
	skips := skipsFor(t, cfg, scheduler.ReasonNofollow)
	if len(skips) != 1 || skips[0].URL != open.URL("/x") || !skips[0].Queued {
		t.Errorf("nofollow skips %+v; want /x, queued", skips)
	}
	if sum.SkipReasons["nofollow"] != 1 {
		t.Errorf("summary counts %d nofollow skips; want 1", sum.SkipReasons["nofollow"])
	}
	if _, err := os.Stat(filepath.Join(cfg.Out, UnfollowedFile)); err != nil {
		t.Errorf("the link is not kept for the run that finishes: %v", err)
	}
}

// asksNofollow reports whether directives ask not to follow the page's
// links.
func asksNofollow(directives []string) bool {
	_, ok := nofollowWord(directives)
	return ok
}
