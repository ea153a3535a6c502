package crawler

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"github.com/gocolly/colly/v2"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/pageenc"
	"github.com/crawlproject/crawl/scheduler"
)

// newCollector is the one place colly is configured. Every field is set
// after colly.NewCollector, because NewCollector applies COLLY_* environment
// variables last: nothing in the environment can re-enable colly's own
// robots handling, follow redirects, lift the body cap or change the
// User-Agent. Pacing, robots.txt, the deadline and the body cap are enforced
// in the polite transport, which colly cannot bypass: it is colly's only
// way to the network.
func newCollector(tr http.RoundTripper, cfg config.Config, budget *parseBudget) *colly.Collector {
	c := colly.NewCollector()
	c.SetClient(&http.Client{
		Transport: tr,
		// Redirects are not followed inside a request: each target goes
		// back to the scheduler as a new URL, checked against its own
		// host's robots.txt and paced by its own host.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	})
	pinSettings(c, cfg)
	token := strings.ToLower(cfg.Agent.Token)
	c.OnResponse(onResponse(token, budget))
	onPageElements(c, token, cfg)
	c.OnError(onTreeError(token, cfg))
	return c
}

// pinSettings sets every field of colly's own: no robots handling, revisits,
// limits, filters, cache or charset detection of its own, and the body
// cap and User-Agent the transport enforces anyway.
func pinSettings(c *colly.Collector, cfg config.Config) {
	c.IgnoreRobotsTxt = true // the robots layer decides, before colly and again in the transport
	c.AllowURLRevisit = true // the scheduler's frontier dedupes, durably
	c.Async = false
	c.MaxDepth = 0
	c.MaxRequests = 0
	c.AllowedDomains = nil
	c.DisallowedDomains = nil
	c.URLFilters = nil
	c.DisallowedURLFilters = nil
	c.CacheDir = ""
	c.TraceHTTP = false
	c.DetectCharset = false
	c.ParseHTTPErrorResponse = true
	c.MaxBodySize = int(cfg.Fetch.MaxBody)
	c.UserAgent = cfg.UserAgentHeader()
	c.Headers = nil
}

// onResponse runs after the body is read and before colly parses it: it
// notes the page's X-Robots-Tag, decodes an HTML page as a browser reads
// it, and takes its size from the parse budget; the worker gives the
// bytes back when the request is done (handleFetch).
func onResponse(token string, budget *parseBudget) colly.ResponseCallback {
	return func(r *colly.Response) {
		j, _ := r.Ctx.GetAny("job").(*job)
		if j == nil {
			return
		}
		if r.Headers != nil {
			j.robots.noteHeader(*r.Headers, token)
		}
		if parsedAsHTML(r) {
			// Read as a browser reads it: decoded from the encoding a
			// <meta>, a byte order mark or the bytes themselves name
			// (colly has decoded a page whose Content-Type names one).
			ct := r.Headers.Get("Content-Type")
			j.enc = pageenc.Of(r.Body, ct)
			if !strings.Contains(strings.ToLower(ct), "charset") {
				r.Body = j.enc.Decode(r.Body)
			}
			j.parsing = budget.take(int64(len(r.Body)))
			j.linksRead = ok2xx(r.StatusCode)
		}
	}
}

// onPageElements reads a page's <base href>, robots <meta> elements,
// links and, with fetch.requisites, requisites.
func onPageElements(c *colly.Collector, token string, cfg config.Config) {
	c.OnHTML("base[href]", func(e *colly.HTMLElement) {
		jobOf(e).noteBase(e.Request.URL, e.Attr("href"))
	})
	c.OnHTML("meta[name]", func(e *colly.HTMLElement) {
		jobOf(e).robots.noteMeta(e.Attr("name"), e.Attr("content"), token)
	})
	c.OnHTML(pageLinkSelector, func(e *colly.HTMLElement) {
		j := jobOf(e)
		if j == nil || !ok2xx(e.Response.StatusCode) {
			return
		}
		if ref, ok := pageRef(e.Name, e.Attr); ok {
			j.noteLink(e.Request.URL, ref, e.Attr("rel"), cfg)
		}
	})
	if cfg.Fetch.Requisites {
		// colly builds the text of every element a selector matches, and
		// [style] matches whole styled containers (<body style>): the
		// requisites are found from the page's <head>, which the HTML
		// parser always makes, in the document order colly would give.
		c.OnHTML("head", func(e *colly.HTMLElement) {
			j := jobOf(e)
			if j == nil || !ok2xx(e.Response.StatusCode) {
				return
			}
			documentOf(e.DOM).Find(requisiteSelector).Each(func(_ int, s *goquery.Selection) {
				name := goquery.NodeName(s)
				var text string
				if name == "style" {
					text = s.Text()
				}
				j.noteRequisite(e.Request.URL, name, func(k string) string { return s.AttrOr(k, "") }, text, cfg.Scope.MaxLinks)
			})
		})
	}
}

// documentOf is the whole document sel belongs to.
func documentOf(sel *goquery.Selection) *goquery.Document {
	n := sel.Nodes[0]
	for n.Parent != nil {
		n = n.Parent
	}
	return goquery.NewDocumentFromNode(n)
}

// onTreeError reads the links of a page colly cannot make a document
// tree of (x/net/html refuses elements nested over 512 deep, which sloppy
// pages with unclosed tags reach) from its tags instead: it had no links
// at all, and nothing said so.
func onTreeError(token string, cfg config.Config) colly.ErrorCallback {
	return func(r *colly.Response, err error) {
		j, _ := r.Ctx.GetAny("job").(*job)
		if j == nil || !ok2xx(r.StatusCode) || len(r.Body) == 0 || !parsedAsHTML(r) || j.linksNoted() {
			return
		}
		j.treeErr = err
		j.readTags(r.Request.URL, r.Body, token, cfg)
	}
}

// linksNoted reports whether any link or requisite of the page was taken.
func (j *job) linksNoted() bool {
	return len(j.links.urls)+len(j.requisites.urls)+len(j.nofollowed.urls)+len(j.relNofollowed.urls) > 0
}

func jobOf(e *colly.HTMLElement) *job {
	j, _ := e.Request.Ctx.GetAny("job").(*job)
	if j == nil {
		return &job{}
	}
	return j
}

func ok2xx(code int) bool { return code >= 200 && code < 300 }

// noteBase takes the page's first <base href>.
func (j *job) noteBase(page *url.URL, href string) {
	if j.base != nil {
		return
	}
	if b, err := page.Parse(pageenc.CleanRef(href)); err == nil {
		j.base = b
	}
}

// noteLink takes a link to another page (see pageRef) with its rel
// attribute: a link to follow, or one the page or the link asks not to
// follow. The page's
// robots <meta> elements are read before its links (colly runs each
// callback over the whole page in turn, readTags reads them first).
func (j *job) noteLink(page *url.URL, href, rel string, cfg config.Config) {
	u := j.resolve(page, href)
	switch {
	case u == "":
	case j.robots.nofollow != "":
		j.nofollowed.add(u, cfg.Scope.MaxLinks)
	case cfg.Politeness.ObeyRelNofollow && relNofollow(rel):
		j.relNofollowed.add(u, cfg.Scope.MaxLinks)
	default:
		j.links.add(u, cfg.Scope.MaxLinks)
	}
}

// noteRequisite takes the references to a page's requisites that the
// element tag holds (see requisiteRefs), and those of the CSS in it (see
// styleRefs); attr reads its attributes, text is a <style> element's
// text.
func (j *job) noteRequisite(page *url.URL, tag string, attr func(string) string, text string, max int) {
	sheet := sheetLink(tag, attr)
	for i, ref := range requisiteRefs(tag, attr) {
		// A style sheet's <link> gives its href first.
		j.noteRequisiteURL(page, ref, sheet && i == 0, max)
	}
	for _, r := range styleRefs(tag, attr, text) {
		j.noteRequisiteURL(page, r.URL, r.Import, max)
	}
}

// outlinks are the links, or the requisites, found in a page, in document
// order. One page of a trap can hold hundreds of thousands of them, each a
// frontier entry and, once a page limit is reached, a skip log line, so
// only the first max distinct URLs are kept, told apart as the frontier
// tells them (job.resolve gives the frontier's form: "/a#1" and "/a#2"
// are one URL), and repeats of a kept URL are kept too (the frontier
// counts them as duplicate links).
type outlinks struct {
	urls     []string
	distinct map[string]bool
	dropped  int    // links found to URLs past the first max (each repeat counted)
	first    string // the URL of the first of them
}

// add keeps u, a URL as job.resolve gives it, if it is among the first
// max (0: no limit) distinct URLs.
func (o *outlinks) add(u string, max int) {
	if max == 0 {
		o.urls = append(o.urls, u)
		return
	}
	if o.distinct == nil {
		o.distinct = map[string]bool{}
	}
	if !o.distinct[u] && len(o.distinct) == max {
		if o.dropped == 0 {
			o.first = u
		}
		o.dropped++
		return
	}
	o.distinct[u] = true
	o.urls = append(o.urls, u)
}

// resolve makes ref absolute against the page's <base href> or its URL,
// read as a browser reads it (pageenc.CleanRef); "" for references
// that lead nowhere to fetch (fragments, javascript:, mailto:).
func (j *job) resolve(page *url.URL, ref string) string {
	ref = j.enc.EncodeQuery(pageenc.CleanRef(ref))
	if ref == "" || ref[0] == '#' {
		return ""
	}
	base := page
	if j.base != nil {
		base = j.base
	}
	u, err := absolute(base, ref)
	if err != nil {
		// Not even a URI (an escape such as "%zz" in its path, a broken
		// IPv6 host): offered as written, made absolute as text, unless
		// it names another scheme, so that the skip log says why the URL
		// was not fetched rather than nothing at all.
		if s := pageenc.RefScheme(ref); s == "" || strings.EqualFold(s, "http") || strings.EqualFold(s, "https") {
			return scheduler.ResolveText(ref, base)
		}
		return ""
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "" // leads nowhere to fetch
	}
	return u.String()
}
