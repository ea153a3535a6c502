package report

import (
	"sort"
	"strconv"
	"strings"
)

// A robots.txt body of up to fullRobotsLines lines is shown whole. Of a
// longer one, the first headRobotsLines lines are shown, then only the
// lines that decided something, each with robotsContext lines either
// side, and gaps for the rest: a hostile file of thousands of rules that
// decided nothing made each host's section hundreds of KB (a report of
// 600 such hosts was 127 MB). No more than maxRobotsLines lines are shown.
const (
	fullRobotsLines = 300
	headRobotsLines = 100
	robotsContext   = 1
	maxRobotsLines  = 1500
)

// maxListed bounds the example URLs listed under a robots.txt line.
const maxListed = 8

// robotsLine is one line of a host's robots.txt as shown in the report.
type robotsLine struct {
	N          int
	Gap        int    // lines not shown between the previous line shown and this one
	GapDecided int    // of those, the lines that decided something
	ID         string // anchor, unique in the page
	Text       string
	Kind       string // CSS class: comment, note, agent, allow, disallow, pace, sitemap, other, blank
	Decided    bool   // some URL or the host's pace was decided by this line
	Pace       []string
	Lists      []urlList
}

// urlList is a capped list of URLs that one line decided the same way.
type urlList struct {
	Label string // "allowed", "blocked", ...
	Class string
	Count int
	URLs  []string
	More  int
}

// lineAnchor returns the anchor of line n of the robots.txt of the host
// whose section anchor is hostID.
func lineAnchor(hostID string, n int) string { return hostID + "-L" + strconv.Itoa(n) }

// lineKind classifies a robots.txt line for highlighting.
func lineKind(text string) string {
	t := strings.TrimSpace(text)
	if t == "" {
		return "blank"
	}
	if strings.HasPrefix(t, "#") {
		return "comment"
	}
	key, _, ok := strings.Cut(t, ":")
	if !ok {
		return "other"
	}
	switch strings.ToLower(strings.TrimSpace(key)) {
	case "comment":
		return "note"
	case "user-agent", "robot-version":
		return "agent"
	case "allow":
		return "allow"
	case "disallow":
		return "disallow"
	case "crawl-delay", "request-rate", "visit-time":
		return "pace"
	case "sitemap":
		return "sitemap"
	default:
		return "other"
	}
}

// lineRefs returns the numbers N written as "line N" in rule, such as
// "crawl-delay 2s (line 3)".
func lineRefs(rule string) []int {
	var out []int
	for rest := rule; ; {
		i := strings.Index(rest, "line ")
		if i < 0 {
			return out
		}
		if i > 0 && isWordByte(rest[i-1]) {
			rest = rest[i+5:]
			continue
		}
		rest = rest[i+5:]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if j > 0 && (j == len(rest) || !isWordByte(rest[j])) {
			if n, err := strconv.Atoi(rest[:j]); err == nil && n > 0 {
				out = append(out, n)
			}
		}
		rest = rest[j:]
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// paceLines maps line numbers cited by pace rules to the rules citing them.
func paceLines(rules []string) map[int][]string {
	out := make(map[int][]string)
	for _, r := range rules {
		for _, n := range lineRefs(r) {
			if !contains(out[n], r) {
				out[n] = append(out[n], r)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// skipLabel names the list a skip reason puts URLs into under a line.
func skipLabel(reason string) (label, class string) {
	switch reason {
	case "robots-disallowed":
		return "blocked", "blocked"
	case "visit-time-deferred":
		return "deferred to a Visit-time window", "deferred"
	default:
		return reason, "other"
	}
}

// buildRobotsLines splits body into lines and attaches to each the URLs it
// allowed (fetched pages citing it), the URLs it blocked or held back
// (skips citing it) and the pace rules citing it.
// visitKeys holds the digits (see visitKey) of the applying group's
// Visit-time windows, whose lines are marked as deciding when to visit.
func buildRobotsLines(hostID, authority, body string, reqs []request, skips []skip, paceRules []string, visitKeys map[string]bool) (lines []robotsLine, omitted omission, dangling []int) {
	allowed := allowedTally{authority: authority}
	for _, r := range reqs {
		allowed.add(r)
	}
	return robotsLinesOf(hostID, authority, body, allowed.lines, skips, paceRules, visitKeys)
}

// maxAllowedLines bounds the robots.txt lines an allowedTally lists pages
// under: a file of thousands of rules, each allowing one page, would
// otherwise keep a list per page.
const maxAllowedLines = 4 * maxRobotsLines

// allowedTally collects, per robots.txt line, the pages of one host it
// allowed (fetched pages citing it), taken in time order: how many, and
// the first maxListed, as the line lists them.
type allowedTally struct {
	authority string
	lines     map[int]*urlList
}

func (t *allowedTally) add(r request) {
	if r.RobotsLine <= 0 || r.Kind == "robots" {
		return
	}
	l := t.lines[r.RobotsLine]
	if l == nil {
		if len(t.lines) >= maxAllowedLines {
			return
		}
		if t.lines == nil {
			t.lines = make(map[int]*urlList)
		}
		l = &urlList{Label: "allowed", Class: "allowed"}
		t.lines[r.RobotsLine] = l
	}
	l.Count++
	if listed(len(l.URLs), maxListed, 1, &l.More) {
		l.URLs = append(l.URLs, pathOf(r.URL, t.authority))
	}
}

// robotsLinesOf is buildRobotsLines given the pages each line allowed
// (allowedTally.lines).
func robotsLinesOf(hostID, authority, body string, allowed map[int]*urlList, skips []skip, paceRules []string, visitKeys map[string]bool) (lines []robotsLine, omitted omission, dangling []int) {
	// Lines end at CR LF, LF or a lone CR, as robots.Parse numbers them.
	raw := strings.Split(strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\r", "\n"), "\n")
	if len(raw) > 0 && raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1]
	}
	lines = make([]robotsLine, len(raw))
	for i, t := range raw {
		lines[i] = robotsLine{N: i + 1, Text: t, Kind: lineKind(t)}
	}
	lists := make(map[int]map[string]*urlList)
	danglingSet := make(map[int]bool)
	add := func(n int, label, class, u string, w int) {
		if n < 1 || n > len(lines) {
			danglingSet[n] = true
			return
		}
		if lists[n] == nil {
			lists[n] = make(map[string]*urlList)
		}
		l := lists[n][label]
		if l == nil {
			l = &urlList{Label: label, Class: class}
			lists[n][label] = l
		}
		l.Count += w
		if listed(len(l.URLs), maxListed, w, &l.More) {
			l.URLs = append(l.URLs, pathOf(u, authority))
		}
	}
	for n, l := range allowed {
		if n > len(lines) {
			danglingSet[n] = true
			continue
		}
		lists[n] = map[string]*urlList{"allowed": l}
	}
	for _, s := range skips {
		if s.Line > 0 {
			label, class := skipLabel(s.Reason)
			add(s.Line, label, class, s.URL, weight(s))
		}
	}
	for n, rules := range paceLines(paceRules) {
		if n < 1 || n > len(lines) {
			danglingSet[n] = true
			continue
		}
		lines[n-1].Pace = rules
		lines[n-1].Decided = true
	}
	for i := range lines {
		if l := &lines[i]; l.Kind == "pace" && visitKeys[visitKey(l.Text)] {
			l.Decided = true
			l.Pace = append(l.Pace, "Visit-time: requests only while this UTC window is open")
		}
	}
	for n, byLabel := range lists {
		l := &lines[n-1]
		l.Decided = true
		for _, v := range byLabel {
			l.Lists = append(l.Lists, *v)
		}
		sort.Slice(l.Lists, func(i, j int) bool { return l.Lists[i].Label < l.Lists[j].Label })
	}
	for n := range danglingSet {
		dangling = append(dangling, n)
	}
	sort.Ints(dangling)
	lines, omitted = elideRobotsLines(lines)
	for i := range lines { // only the lines shown need an anchor
		lines[i].ID = lineAnchor(hostID, lines[i].N)
	}
	return lines, omitted, dangling
}

// elideRobotsLines returns the lines of a body to show (see
// fullRobotsLines), each with the lines left out before it (and how many
// of those decided something), and the lines left out after the last one
// shown. Past maxRobotsLines, the lines that allowed fetched pages or set
// the pace go first (one such line often decides every request), then the
// other deciding lines, then the lines around them, then the head.
func elideRobotsLines(all []robotsLine) (shown []robotsLine, tail omission) {
	if len(all) <= fullRobotsLines {
		return all, omission{}
	}
	keep := make([]bool, len(all))
	budget := maxRobotsLines
	pick := func(i int) {
		if i >= 0 && i < len(all) && !keep[i] && budget > 0 {
			keep[i] = true
			budget--
		}
	}
	for i := range all {
		if all[i].allowedOrPaced() {
			pick(i)
		}
	}
	for i := range all {
		if all[i].Decided {
			pick(i)
		}
	}
	for i := range all {
		if all[i].Decided {
			for j := i - robotsContext; j <= i+robotsContext; j++ {
				pick(j)
			}
		}
	}
	for i := range headRobotsLines {
		pick(i)
	}
	var left omission
	for i, l := range all {
		if !keep[i] {
			left.add(l)
			continue
		}
		l.Gap, l.GapDecided = left.Lines, left.Decided
		shown = append(shown, l)
		left = omission{}
	}
	return shown, left
}

// allowedOrPaced reports whether fetched pages cite l, or a pace rule does.
func (l *robotsLine) allowedOrPaced() bool {
	if len(l.Pace) > 0 {
		return true
	}
	for _, u := range l.Lists {
		if u.Label == "allowed" {
			return true
		}
	}
	return false
}

// omission counts lines left out of a listing, and those of them that decided
// something.
type omission struct{ Lines, Decided int }

func (g *omission) add(l robotsLine) {
	g.Lines++
	if l.Decided {
		g.Decided++
	}
}

// visitKey returns the digits of a Visit-time line's value ("0600-0845"
// and "0600 0845" both give "06000845"), or "" for any other line.
func visitKey(text string) string {
	key, value, ok := strings.Cut(strings.TrimSpace(text), ":")
	if !ok || !strings.EqualFold(strings.TrimSpace(key), "visit-time") {
		return ""
	}
	value, _, _ = strings.Cut(value, "#")
	return digits(value)
}

// digits keeps only the ASCII digits of s.
func digits(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
