package demo

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// policyHost names the hidden host that the redirecting robots.txt points to.
const policyHost = "robots-policy"

// sharedRobotsPath is where the policy host serves the redirected robots.txt.
const sharedRobotsPath = "/robots/shared.txt"

// sharedRobots is the body the policy host serves at sharedRobotsPath.
const sharedRobots = `# Shared robots.txt, reached through a redirect from another host.
User-agent: *
Disallow: /private/
`

// A siteSpec describes one demo site before its port is known.
type siteSpec struct {
	name   string
	lesson string
	build  func(auth map[string]string) built // auth maps site names to authorities
}

// built is a siteSpec bound to the authorities of all sites.
type built struct {
	handler        http.Handler
	robots         string
	robotsStatus   int
	robotsLocation string
}

// staticBuilt wraps a staticSite answering robots.txt with 200.
func staticBuilt(robots string, pages map[string]page) built {
	return built{handler: staticSite{robots: robots, pages: pages, r: newRenderer()}, robots: robots, robotsStatus: http.StatusOK}
}

// answeringBuilt is staticBuilt with some requests answered by answer
// instead, which reports whether it answered; the site serves the rest.
func answeringBuilt(robots string, pages map[string]page, answer func(s staticSite, w http.ResponseWriter, r *http.Request) bool) built {
	s := staticSite{robots: robots, pages: pages, r: newRenderer()}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !answer(s, w, r) {
			s.ServeHTTP(w, r)
		}
	})
	return built{handler: h, robots: robots, robotsStatus: http.StatusOK}
}

// chain returns pages /, and n more pages p1..pn linked in a line, each
// linking home; extra links are added to the home page.
func chain(title string, n int, extra ...string) map[string]page {
	pages := make(map[string]page, n+1)
	home := page{title: title, text: "The home page of the " + title + " demo site."}
	for i := 1; i <= n; i++ {
		path := fmt.Sprintf("/p%d", i)
		home.links = append(home.links, path)
		p := page{title: fmt.Sprintf("%s, page %d", title, i), text: "A small page.", links: []string{"/"}}
		if i < n {
			p.links = append(p.links, fmt.Sprintf("/p%d", i+1))
		}
		pages[path] = p
	}
	home.links = append(home.links, extra...)
	pages["/"] = home
	return pages
}

// siteSpecs returns the demo sites in narration order. now fixes the UTC
// windows; token is the crawler's product token.
func siteSpecs(now time.Time, token string) []siteSpec {
	return []siteSpec{
		crawlDelaySite(),
		requestRateSite(windowAround(now, -time.Hour, time.Hour)),
		visitTimeOpenSite(windowAround(now, -2*time.Hour, 2*time.Hour)),
		visitTimeClosedSite(windowAround(now, 3*time.Hour, 5*time.Hour)),
		wildcardsSite(),
		robots503Site(),
		robotsRedirectSite(),
		retryAfterSite(),
		trapSite(),
		nofollowSite(),
		commentsSite(token),
	}
}

// crawlDelaySite is the crawl-delay site, paced by Crawl-delay: 1.
func crawlDelaySite() siteSpec {
	return siteSpec{
		name:   "crawl-delay",
		lesson: "Crawl-delay: 1 asks for at least one second between two requests to this host, so its six pages take about six seconds.",
		build: func(a map[string]string) built {
			return staticBuilt("# Please leave a second between requests.\nUser-agent: *\nCrawl-delay: 1\nDisallow:\n",
				chain("Crawl-delay", 5, a["comments"]+"/"))
		},
	}
}

// requestRateSite is the request-rate site, paced by Request-rate: 1/2s in
// rateNow, a window around now, and 1/10s the rest of the day.
func requestRateSite(rateNow robots.Window) siteSpec {
	rateElse := complement(rateNow)
	return siteSpec{
		name: "request-rate",
		lesson: fmt.Sprintf("Request-rate: 1/2s applies from %s to %s UTC, which covers now, so the crawler leaves two seconds between requests here; the stricter 1/10s applies the rest of the day.",
			rateNow.FromClock(), rateNow.ToClock()),
		build: func(a map[string]string) built {
			robots := fmt.Sprintf("# Faster during our quiet hours, slower otherwise (times are UTC).\nUser-agent: *\nRequest-rate: 1/2s %s\nRequest-rate: 1/10s %s\nDisallow:\n",
				hhmm(rateNow), hhmm(rateElse))
			return staticBuilt(robots, chain("Request-rate", 3))
		},
	}
}

// visitTimeOpenSite is the visit-time-open site, to be visited only in its
// Visit-time window visitOpen, open now.
func visitTimeOpenSite(visitOpen robots.Window) siteSpec {
	return siteSpec{
		name: "visit-time-open",
		lesson: fmt.Sprintf("Visit-time: %s (UTC) is open now, so the crawler may visit, but only inside that window.",
			hhmm(visitOpen)),
		build: func(a map[string]string) built {
			robots := fmt.Sprintf("# Robots welcome during these hours only (UTC).\nUser-agent: *\nVisit-time: %s\nDisallow:\n", hhmm(visitOpen))
			return staticBuilt(robots, chain("Visit-time open", 2))
		},
	}
}

// visitTimeClosedSite is the visit-time-closed site, to be visited only in
// its Visit-time window visitClosed, closed now.
func visitTimeClosedSite(visitClosed robots.Window) siteSpec {
	return siteSpec{
		name: "visit-time-closed",
		lesson: fmt.Sprintf("Visit-time: %s (UTC) is closed now, so the crawler must not fetch any page before %s UTC: it parks the host, and defers it when that is longer than it may wait.",
			hhmm(visitClosed), visitClosed.FromClock()),
		build: func(a map[string]string) built {
			robots := fmt.Sprintf("# Robots welcome during these hours only (UTC).\nUser-agent: *\nVisit-time: %s\nDisallow:\n", hhmm(visitClosed))
			return staticBuilt(robots, chain("Visit-time closed", 2))
		},
	}
}

// wildcardsSite is the wildcards site, ruled by RFC 9309 longest match with
// "*" and "$".
func wildcardsSite() siteSpec {
	return siteSpec{
		name:   "wildcards",
		lesson: "Disallow: /shop/*? keeps the crawler out of shop URLs with a query, but the longer Allow: /shop/*?page=1$ wins for the first page, and Disallow: /*.pdf$ blocks URLs that end in .pdf and nothing else.",
		build: func(a map[string]string) built {
			robots := "# Longest match wins; \"*\" matches any characters, \"$\" anchors the end.\nUser-agent: *\nDisallow: /shop/*?\nAllow: /shop/*?page=1$\nDisallow: /*.pdf$\n"
			shopLinks := []string{"/shop/shoes?page=1", "/shop/shoes?page=2", "/shop/shoes?sort=price", "/"}
			pages := map[string]page{
				"/": {title: "Wildcards", text: "A shop with filters and a manual.", links: []string{
					"/shop/", "/files/manual.pdf", "/files/manual.pdf.html", a["trap"] + "/"}},
				"/shop/":                 {title: "Shop", text: "Shoes, sorted and paged.", links: shopLinks},
				"/shop/shoes?page=1":     {title: "Shoes, page 1", text: "Allowed by the longer Allow rule.", links: shopLinks},
				"/shop/shoes?page=2":     {title: "Shoes, page 2", text: "Blocked by Disallow: /shop/*?.", links: shopLinks},
				"/shop/shoes?sort=price": {title: "Shoes by price", text: "Blocked by Disallow: /shop/*?.", links: shopLinks},
				"/files/manual.pdf":      {title: "Manual (PDF)"},
				"/files/manual.pdf.html": {title: "Manual (HTML)", text: "Allowed: the URL does not end in .pdf.", links: []string{"/"}},
			}
			return staticBuilt(robots, pages)
		},
	}
}

// robots503Site is the robots-503 site, whose robots.txt answers 503: the
// whole site is disallowed.
func robots503Site() siteSpec {
	return siteSpec{
		name:   "robots-503",
		lesson: "robots.txt answers 503 Service Unavailable, so RFC 9309 says to treat the whole site as disallowed: the crawler must not request a single page.",
		build: func(a map[string]string) built {
			s := staticSite{pages: chain("Robots 503", 2), r: newRenderer()}
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					http.Error(w, "service unavailable", http.StatusServiceUnavailable)
					return
				}
				s.servePage(w, r)
			})
			return built{handler: h, robotsStatus: http.StatusServiceUnavailable}
		},
	}
}

// robotsRedirectSite is the robots-redirect site, whose robots.txt
// redirects to the policy host, whose rules apply to it.
func robotsRedirectSite() siteSpec {
	return siteSpec{
		name:   "robots-redirect",
		lesson: "robots.txt redirects to another host; RFC 9309 says to follow the redirect and apply the rules found there to this host, so /private/ here stays unvisited.",
		build: func(a map[string]string) built {
			loc := a[policyHost] + sharedRobotsPath
			s := staticSite{pages: map[string]page{
				"/":               {title: "Robots redirect", text: "Our robots.txt lives elsewhere.", links: []string{"/public", "/private/secret"}},
				"/public":         {title: "Public", text: "Anyone may read this.", links: []string{"/"}},
				"/private/secret": {title: "Secret", text: "Disallowed by the redirected robots.txt.", links: []string{"/"}},
			}, r: newRenderer()}
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					http.Redirect(w, r, loc, http.StatusMovedPermanently)
					return
				}
				s.servePage(w, r)
			})
			return built{handler: h, robots: sharedRobots, robotsStatus: http.StatusMovedPermanently, robotsLocation: loc}
		},
	}
}

// retryAfterSite is the retry-after site, whose /busy answers 429 with
// Retry-After: 2 the first time.
func retryAfterSite() siteSpec {
	return siteSpec{
		name:   "retry-after",
		lesson: "The page /busy answers 429 Too Many Requests with Retry-After: 2 the first time, so the crawler waits at least two seconds before asking this host again, and then gets the page.",
		build: func(a map[string]string) built {
			var mu sync.Mutex
			busy := true
			return answeringBuilt("User-agent: *\nDisallow:\n", map[string]page{
				"/":      {title: "Retry-After", text: "One page is busy at first.", links: []string{"/busy", "/after"}},
				"/busy":  {title: "Busy", text: "Thank you for waiting.", links: []string{"/"}},
				"/after": {title: "After", text: "A calm page.", links: []string{"/"}},
			}, func(_ staticSite, w http.ResponseWriter, r *http.Request) bool {
				if r.URL.Path != "/busy" {
					return false
				}
				mu.Lock()
				first := busy
				busy = false
				mu.Unlock()
				if first {
					w.Header().Set("Retry-After", "2")
					http.Error(w, "too many requests, come back in two seconds", http.StatusTooManyRequests)
				}
				return first
			})
		},
	}
}

// trapSite is the trap site, with two crawler traps: an endless calendar
// its robots.txt disallows, and a gallery of relative links that the
// path-repeats rule stops.
func trapSite() siteSpec {
	return siteSpec{
		name: "trap",
		lesson: "An endless calendar under /calendar/ links to ever later months and days, and Disallow: /calendar/ keeps an obedient crawler out of a trap that has no last page; " +
			"the gallery, which robots.txt leaves open, answers any path under /gallery/ with a relative link to photos/, so the crawler stops at the third photos/ in a row (path-repeats).",
		build: func(a map[string]string) built {
			return answeringBuilt("# The calendar never ends; robots, please stay out.\nUser-agent: *\nDisallow: /calendar/\n", map[string]page{
				"/":      {title: "Trap", text: "An events site with an endless calendar.", links: []string{"/calendar/2026/11/", "/gallery/", "/about"}},
				"/about": {title: "About", text: "We list events.", links: []string{"/", a["wildcards"] + "/"}},
			}, func(s staticSite, w http.ResponseWriter, r *http.Request) bool {
				switch {
				case strings.HasPrefix(r.URL.Path, "/calendar/"):
					s.r.write(w, http.StatusOK, calendarPage(r.URL.Path))
				case strings.HasPrefix(r.URL.Path, "/gallery/"):
					s.r.write(w, http.StatusOK, galleryPage())
				default:
					return false
				}
				return true
			})
		},
	}
}

// nofollowSite is the nofollow site, whose pages ask robots not to follow
// their links (meta robots, X-Robots-Tag), and with a rel="nofollow" link
// that is followed.
func nofollowSite() siteSpec {
	return siteSpec{
		name: "nofollow",
		lesson: `The members page carries <meta name="robots" content="nofollow"> and the archive page the header X-Robots-Tag: nofollow, so the crawler follows none of their links and the pages only they lead to are never requested, ` +
			`while the guestbook's link marked rel="nofollow" is followed, since that keyword only says the site does not vouch for the page linked.`,
		build: func(a map[string]string) built {
			robots := "# Our pages say themselves which links robots may follow.\nUser-agent: *\nDisallow:\n"
			return staticBuilt(robots, map[string]page{
				"/": {title: "Nofollow", text: "A club with a members list, an archive and a guestbook.",
					links: []string{"/members", "/archive", "/guestbook"}},
				"/members": {title: "Members", text: "The members list is not for robots to walk through.", robotsMeta: "nofollow",
					links: []string{"/members/list", "/"}},
				"/members/list": {title: "Members list", text: "Never requested: only a nofollow page links here."},
				"/archive": {title: "Archive", text: "Old news; robots may keep this page but not walk the archive.", xRobotsTag: "nofollow",
					links: []string{"/archive/2019", "/"}},
				"/archive/2019": {title: "2019", text: "Never requested: only a nofollow page links here."},
				"/guestbook": {title: "Guestbook", text: "Visitors leave links here.", links: []string{"/"},
					nofollowLinks: []string{"/guestbook/visitor"}},
				"/guestbook/visitor": {title: "A visitor's page", text: "Linked with rel=\"nofollow\", and fetched."},
			})
		},
	}
}

// commentsSite is the comments site, with Comment: lines for the crawler's
// operator in the group for token.
func commentsSite(token string) siteSpec {
	return siteSpec{
		name:   "comments",
		lesson: "Comment: lines in the group for our agent carry a message to the crawler's operator, which the 1996 standard asks robots to pass on, so they appear in the report.",
		build: func(a map[string]string) built {
			robots := fmt.Sprintf("# Ordinary comments are for whoever reads this file.\nUser-agent: *\nDisallow: /\n\nUser-agent: %s\nComment: We are a small volunteer site; please crawl gently.\nComment: Write to webmaster@example.org before crawling more than 100 pages.\nDisallow: /drafts/\n", token)
			pages := chain("Comments", 2, "/drafts/next-post", a["crawl-delay"]+"/")
			pages["/drafts/next-post"] = page{title: "Draft", text: "Not ready yet.", links: []string{"/"}}
			return staticBuilt(robots, pages)
		},
	}
}

// policyHandler serves the hidden host that the redirecting robots.txt
// points to: only sharedRobotsPath exists there.
func policyHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == sharedRobotsPath {
			writeRobots(w, sharedRobots)
			return
		}
		http.NotFound(w, r)
	})
}
