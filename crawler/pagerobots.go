package crawler

import (
	"fmt"
	"net/http"
	"strings"
	"unicode"

	"github.com/crawlproject/crawl/archive"
)

// Besides robots.txt, a site speaks to robots from each page: the robots
// <meta> element (HTML 4.01, appendix B.4.1.2: "NOINDEX, NOFOLLOW", with ALL
// and NONE for both at once; name="robots" is for every robot, a robot's own
// name for that robot only) and the X-Robots-Tag response header, which
// carries the same directives for pages and for files that have no <meta>,
// optionally after a robot's name ("X-Robots-Tag: otherbot: nofollow").
//
// The crawler acts on nofollow (and none): it follows none of the page's
// links. noindex, noarchive, nosnippet and the rest say what a search engine
// may show; they are recorded in the page's metadata record, where a replay
// tool can find them, and not acted on. Where directives disagree ("follow"
// in one place, "nofollow" in another) the more restrictive one holds.

// maxPageRobotsSources is how many of a page's robots <meta> elements and
// X-Robots-Tag values are recorded; maxPageRobotsText is the most of one
// that is kept. A hostile page can repeat them without end.
const (
	maxPageRobotsSources = 8
	maxPageRobotsText    = 256
)

// pageRobots is what one page's robots <meta> elements and X-Robots-Tag
// headers say to this crawler.
type pageRobots struct {
	// nofollow is the first of them that asks not to follow the page's
	// links, as written; "" if none does.
	nofollow string
	// sources are those that speak to this crawler, as written, in the
	// order read (headers first); more counts the ones past
	// maxPageRobotsSources.
	sources []string
	more    int
}

// noteHeader takes the response's X-Robots-Tag values that speak to token.
func (p *pageRobots) noteHeader(h http.Header, token string) {
	for _, v := range h.Values("X-Robots-Tag") {
		p.note("X-Robots-Tag: "+strings.TrimSpace(v), xRobotsTagDirectives(v, token))
	}
}

// noteMeta takes a <meta name content> that speaks to token.
func (p *pageRobots) noteMeta(name, content, token string) {
	if d, ok := metaRobotsDirectives(name, content, token); ok {
		p.note(`<meta name="`+strings.TrimSpace(name)+`" content="`+content+`">`, d)
	}
}

// note records source if it holds any directive, and whether it asks not
// to follow the page's links. A source longer than maxPageRobotsText is
// kept cut, with its length and the word that asked nofollow, if one did.
// The first source that asks nofollow is recorded even past
// maxPageRobotsSources: it is the one that decided.
func (p *pageRobots) note(source string, directives []string) {
	if len(directives) == 0 {
		return
	}
	word, decides := nofollowWord(directives)
	decides = decides && p.nofollow == ""
	if len(source) > maxPageRobotsText {
		tail := fmt.Sprintf(" [%d octets", len(source))
		if word != "" {
			tail += "; it says " + word
		}
		tail += "]"
		source = cutForLog(source, maxPageRobotsText-len(tail)) + tail
	}
	if decides {
		p.nofollow = source
	}
	if len(p.sources) >= maxPageRobotsSources && !decides {
		p.more++
		return
	}
	p.sources = append(p.sources, source)
}

// metaRobotsDirectives returns the directives of a <meta name content> and
// true when name is "robots" or the crawler's token (both compared without
// case); see directives.
func metaRobotsDirectives(name, content, token string) ([]string, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	if name != "robots" && name != token {
		return nil, false
	}
	return directives(content, token, false), true
}

// xRobotsTagDirectives returns the directives of one X-Robots-Tag value that
// speak to token. A directive list may start with a robot's name and a
// colon ("otherbot: noindex, nofollow"); the name holds for the directives
// after it in the value, up to the next name. Names are compared without
// case; directives with no name before them are for every robot.
func xRobotsTagDirectives(value, token string) []string {
	return directives(value, token, true)
}

// directives reads a directive list into lower-case directives for token:
// split at commas, and at the semicolons and spaces some pages use
// instead. A directive that takes a value keeps it ("max-image-preview:
// none" is max-image-preview:none, not a none); a stray colon between two
// directives ("noindex : nofollow") separates them. With names, a word
// before a colon that is no directive names the robot the directives
// after it are for.
func directives(list, token string, names bool) []string {
	var out []string
	forUs := true
	add := func(d string) {
		if forUs && d != "" {
			out = append(out, d)
		}
	}
	for _, t := range directiveTokens(list) {
		for t != "" {
			name, rest, ok := strings.Cut(t, ":")
			switch {
			case ok && knownDirective(name):
				add(name)
				t = rest
				continue
			case ok && names && !valuedDirective(name) && robotName(name):
				forUs = name == token
				t = rest
				continue
			}
			add(t)
			break
		}
	}
	return out
}

// directiveTokens splits a directive list at commas, semicolons and white
// space (Unicode's: a page may write &nbsp;) into lower-case words, each
// word ending in a colon ("max-snippet:", "otherbot:") joined with the
// word after it, a word starting with one with the word before it, and a
// lone colon with the words on both sides.
func directiveTokens(list string) []string {
	words := strings.FieldsFunc(strings.ToLower(list), func(r rune) bool {
		return r == ',' || r == ';' || unicode.IsSpace(r)
	})
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w != ":" && w[0] == ':' && len(out) > 0:
			// "crawl :nofollow"
			out[len(out)-1] += w
			continue
		case w == ":" && len(out) > 0 && i+1 < len(words):
			out[len(out)-1] += ":" + words[i+1]
			i++
			continue
		case w == ":":
			continue
		}
		for strings.HasSuffix(w, ":") && i+1 < len(words) && words[i+1] != ":" {
			w += words[i+1]
			i++
		}
		out = append(out, w)
	}
	return out
}

// valuedDirective reports whether name is a directive written with a value
// after a colon.
func valuedDirective(name string) bool {
	switch name {
	case "unavailable_after", "max-snippet", "max-image-preview", "max-video-preview":
		return true
	}
	return false
}

// knownDirective reports whether name is a directive without a value: the
// robots meta element's, and those search engines added.
func knownDirective(name string) bool {
	switch name {
	case "all", "none", "index", "noindex", "follow", "nofollow", "noarchive", "nocache", "nosnippet",
		"noimageindex", "notranslate", "noodp", "noydir", "indexifembedded":
		return true
	}
	return false
}

// robotName reports whether the word before a colon in an X-Robots-Tag
// value can name a robot: letters, digits, '-' and '_', starting with a
// letter (so a time, "15:00", is none).
func robotName(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// nofollowWord returns the first of directives that asks not to follow
// the page's links: "nofollow", or "none" (HTML 4.01: NOINDEX, NOFOLLOW).
func nofollowWord(directives []string) (string, bool) {
	for _, d := range directives {
		if d == "nofollow" || d == "none" {
			return d, true
		}
	}
	return "", false
}

// relNofollow reports whether a link's rel attribute, a set of
// space-separated keywords, holds nofollow.
func relNofollow(rel string) bool {
	for _, k := range strings.Fields(rel) {
		if strings.EqualFold(k, "nofollow") {
			return true
		}
	}
	return false
}

// robotsFields are the metadata record's fields for what the page told
// robots: each robots <meta> element and X-Robots-Tag value that speaks to
// this crawler, and the links not followed because of them or of their
// own rel="nofollow".
func (j *job) robotsFields() []archive.Field {
	var f []archive.Field
	for _, s := range j.robots.sources {
		f = append(f, archive.Field{Name: "robots-directive", Value: s})
	}
	if j.robots.more > 0 {
		f = append(f, archive.Field{Name: "robots-directive", Value: fmt.Sprintf("%d more not recorded", j.robots.more)})
	}
	if n := len(j.nofollowed.urls) + j.nofollowed.dropped; n > 0 {
		f = append(f, archive.Field{Name: "outlinks-not-followed", Value: fmt.Sprintf("%s: the page asks robots not to follow them (%s)", linkCount(n), j.robots.nofollow)})
	}
	if n := len(j.relNofollowed.urls) + j.relNofollowed.dropped; n > 0 {
		f = append(f, archive.Field{Name: "outlinks-not-followed", Value: fmt.Sprintf(`%s marked rel="nofollow" (politeness.obey_rel_nofollow)`, linkCount(n))})
	}
	return f
}

// linkCount is "1 link" or "n links".
func linkCount(n int) string {
	if n == 1 {
		return "1 link"
	}
	return fmt.Sprintf("%d links", n)
}
