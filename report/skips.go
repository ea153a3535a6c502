package report

import (
	"sort"
	"strings"
)

// reasonID is the anchor of a skip reason's group.
func reasonID(reason string) string {
	var b strings.Builder
	b.WriteString("skip-")
	for _, r := range reason {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// reasonMeaning explains a skip reason in plain words.
func reasonMeaning(reason string) string {
	switch reason {
	case "robots-disallowed":
		return "The host's robots.txt disallows these URLs for our agent."
	case "robots-unreachable":
		return "The host's robots.txt could not be fetched (5xx or network error), so the whole host counts as disallowed (RFC 9309 2.3.1.4)."
	case "visit-time-deferred":
		return "The host asks for visits only inside its Visit-time windows, and the next window opens later than the crawl may wait."
	case "crawl-delay-too-long":
		return "The host's Crawl-delay or Request-rate asks for more time between requests than the crawl allows."
	case "pace-too-long":
		return "The crawl's own pace for the host (min_delay, default_delay, or a multiple of a slow response's fetch time) is longer than the crawl may wait (max_wait); the host's robots.txt did not ask for it. Its URLs stay queued for the next run."
	case "backoff-deferred":
		return "The host asked the crawl to come back later (Retry-After, or a back-off after failures) than the crawl may wait; its URLs stay queued for the next run."
	case "redirect-limit":
		return "The URL was reached through too many redirects in a row (more than 10), as in a redirect loop or a session-id trap."
	case "sitemap-nesting":
		return "A sitemap index listed another index deeper than the crawl follows (an index may list an index once)."
	case "out-of-scope":
		return "The URL lies outside the crawl's scope."
	case "max-depth":
		return "The URL is deeper than the configured maximum link depth."
	case "duplicate":
		return "The URL was already seen."
	case "host-failing":
		return "The host failed at the connection level (no answer, refused, reset, timed out) on several URLs in a row, or never answered at all, so this run stopped asking it; its URLs stay queued for the next run. HTTP status codes never give a host up."
	case "max-pages":
		return "The crawl reached its page limit."
	case "url-too-long":
		return "The URL is longer than the crawl takes (scope.max_url_length), as a trap's URLs grow to be; the log keeps its start."
	case "path-repeats":
		return "The URL's path repeats the same segments too many times in a row (scope.max_path_repeats), as /a/a/a/: a trap of relative links that add a segment at every page."
	case "max-links":
		return "A page had more links than the crawl follows from one page (scope.max_links_per_page), or a sitemap more than the 50,000 URLs sitemaps.org allows; one line names the first link not followed and counts the rest."
	case "nofollow":
		return "The crawl found these URLs only in links it may not follow: on pages that ask robots not to follow their links (a robots <meta> element or X-Robots-Tag header saying nofollow or none), or marked rel=\"nofollow\" with politeness.obey_rel_nofollow on."
	case "invalid-url":
		return "The link is not a URL the crawler can fetch."
	case "fetch-failed":
		return "Every attempt failed (fetch.retries more after the first; a body cut by fetch.timeout once more); the line gives the attempts and the last error."
	default:
		return "Reason recorded by the crawler."
	}
}

// skipGroups groups all skips by reason, most frequent first. counted are
// the summary's per-reason totals, which may include skips (duplicates, say)
// that were counted but not logged one by one; a group's count is the larger
// of the two.
func skipGroups(skips []skip, counted map[string]int, byHost map[string]*hostView) []skipGroup {
	groups := make(map[string]*skipGroup)
	group := func(reason string) *skipGroup {
		g := groups[reason]
		if g == nil {
			g = &skipGroup{Reason: reason, Meaning: reasonMeaning(reason), ID: reasonID(reason)}
			groups[reason] = g
		}
		return g
	}
	for _, k := range skips {
		g := group(k.Reason)
		w := weight(k)
		g.Count += w
		if !listed(len(g.Examples), maxExamples, w, &g.More) {
			continue
		}
		h := hostOf(k.Host, k.URL)
		ex := skipExample{URL: k.URL, Detail: k.Detail, Rule: k.Rule, Host: h}
		if hv := byHost[h]; hv != nil && hv.Section {
			ex.HostID = hv.ID
			if k.Line > 0 && hv.Robots.Known {
				ex.Line, ex.LineN = hv.Robots.anchor(hv.ID, k.Line), k.Line
			}
		}
		g.Examples = append(g.Examples, ex)
	}
	for reason, n := range counted {
		if g := group(reason); n > g.Count {
			g.More += n - g.Count
			g.Count = n
		}
	}
	out := make([]skipGroup, 0, len(groups))
	for _, g := range groups {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].Count > out[j].Count || out[i].Count == out[j].Count && out[i].Reason < out[j].Reason
	})
	return out
}
