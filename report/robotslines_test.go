package report

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestLineRefs(t *testing.T) {
	tests := []struct {
		rule string
		want []int
	}{
		{"crawl-delay 2s (line 3)", []int{3}},
		{"request-rate 1/2s 20:00-21:59 (line 12), visit-time (line 4)", []int{12, 4}},
		{"default 10s (1996 rule of thumb)", nil},
		{"deadline 4", nil},
		{"line 7x", nil},
		{"line 0", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := lineRefs(tt.rule); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("lineRefs(%q) = %v, want %v", tt.rule, got, tt.want)
		}
	}
}

func TestLineKind(t *testing.T) {
	tests := map[string]string{
		"":                          "blank",
		"# note":                    "comment",
		"User-agent: *":             "agent",
		"user-AGENT : crawl":        "agent",
		"Disallow: /x":              "disallow",
		"Allow: /":                  "allow",
		"Crawl-delay: 1":            "pace",
		"Request-rate: 1/2s":        "pace",
		"Visit-time: 0600-0845":     "pace",
		"Comment: be gentle":        "note",
		"Sitemap: http://h/s.xml":   "sitemap",
		"Host: example.org":         "other",
		"this line has no colon at": "other",
	}
	for in, want := range tests {
		if got := lineKind(in); got != want {
			t.Errorf("lineKind(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBuildRobotsLines(t *testing.T) {
	body := "User-agent: *\r\nCrawl-delay: 2\r\nVisit-time: 0600 0845\r\nDisallow: /a\r\nAllow: /a/b\r\n"
	reqs := []request{
		{URL: "http://h/a/b", Kind: "page", RobotsLine: 5},
		{URL: "http://h/robots.txt", Kind: "robots", RobotsLine: 5}, // robots.txt itself is never "allowed by" a line
	}
	var skips []skip
	for i := range maxListed + 3 {
		skips = append(skips, skip{URL: "http://h/a/" + string(rune('c'+i)), Reason: "robots-disallowed", Line: 4})
	}
	skips = append(skips, skip{URL: "http://h/z", Reason: "robots-disallowed", Line: 40})
	lines, omitted, dangling := buildRobotsLines("host-1", "http://h", body, reqs, skips,
		[]string{"crawl-delay 2s (line 2)"}, map[string]bool{"06000845": true})
	if len(lines) != 5 || omitted != (omission{}) {
		t.Fatalf("%d lines, %+v omitted", len(lines), omitted)
	}
	if !reflect.DeepEqual(dangling, []int{40}) {
		t.Errorf("dangling = %v, want [40]", dangling)
	}
	if lines[0].Decided || lines[0].ID != "host-1-L1" || lines[0].Text != "User-agent: *" {
		t.Errorf("line 1 = %+v", lines[0])
	}
	if !lines[1].Decided || len(lines[1].Pace) != 1 {
		t.Errorf("Crawl-delay line not marked as setting the pace: %+v", lines[1])
	}
	if !lines[2].Decided {
		t.Errorf("Visit-time line in force not marked: %+v", lines[2])
	}
	l4 := lines[3]
	if len(l4.Lists) != 1 || l4.Lists[0].Label != "blocked" || l4.Lists[0].Count != maxListed+3 ||
		len(l4.Lists[0].URLs) != maxListed || l4.Lists[0].More != 3 || l4.Lists[0].URLs[0] != "/a/c" {
		t.Errorf("line 4 lists = %+v", l4.Lists)
	}
	l5 := lines[4]
	if len(l5.Lists) != 1 || l5.Lists[0].Label != "allowed" || l5.Lists[0].Count != 1 {
		t.Errorf("line 5 lists = %+v", l5.Lists)
	}
}

func TestBuildRobotsLinesShowsShortBodiesWhole(t *testing.T) {
	body := strings.Repeat("Disallow: /x\n", fullRobotsLines)
	lines, omitted, _ := buildRobotsLines("h", "", body, nil, nil, nil, nil)
	if len(lines) != fullRobotsLines || omitted != (omission{}) {
		t.Errorf("%d lines shown, %+v omitted; want all %d", len(lines), omitted, fullRobotsLines)
	}
	for i, l := range lines {
		if l.N != i+1 || l.Gap != 0 {
			t.Fatalf("line %d shown as %d with gap %d", i+1, l.N, l.Gap)
		}
	}
}

// TestBuildRobotsLinesElidesWhatDecidedNothing: of a long body, the head
// is shown, then each line that decided something with one line either
// side, and gaps count what was left out, so a deciding line far down a
// large file is shown (and linked) and a hostile file of rules that
// decided nothing stays small.
func TestBuildRobotsLinesElidesWhatDecidedNothing(t *testing.T) {
	const n = 5000
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := 2; i <= n; i++ {
		fmt.Fprintf(&b, "Disallow: /r%d\n", i)
	}
	skips := []skip{{URL: "http://h.test/r2000/x", Reason: "robots-disallowed", Line: 2000}, {URL: "http://h.test/r4999/x", Reason: "robots-disallowed", Line: 4999}}
	lines, omitted, dangling := buildRobotsLines("h", "http://h.test", b.String(), nil, skips, nil, nil)
	var got []int
	gaps := map[int]int{}
	for _, l := range lines {
		got = append(got, l.N)
		if l.Gap > 0 {
			gaps[l.N] = l.Gap
		}
	}
	want := []int{}
	for i := 1; i <= headRobotsLines; i++ {
		want = append(want, i)
	}
	want = append(want, 1999, 2000, 2001, 4998, 4999, 5000)
	if !slices.Equal(got, want) {
		t.Errorf("lines shown %v, want %v", got, want)
	}
	if gaps[1999] != 1999-headRobotsLines-1 || gaps[4998] != 4998-2001-1 || len(gaps) != 2 {
		t.Errorf("gaps %v; want %d before 1999 and %d before 4998", gaps, 1999-headRobotsLines-1, 4998-2001-1)
	}
	if omitted != (omission{}) || len(dangling) != 0 {
		t.Errorf("omitted %+v, dangling %v; want none", omitted, dangling)
	}
	for _, l := range lines {
		if (l.N == 2000 || l.N == 4999) && (!l.Decided || len(l.Lists) != 1 || l.Lists[0].Label != "blocked") {
			t.Errorf("line %d: %+v; want it marked as blocking its URL", l.N, l)
		}
	}
}

// TestBuildRobotsLinesCapsWhatIsShown: a body whose every line decided
// something shows maxRobotsLines of them and counts the rest, and says
// they decided something.
func TestBuildRobotsLinesCapsWhatIsShown(t *testing.T) {
	const n = maxRobotsLines + 7
	var b strings.Builder
	var skips []skip
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "Disallow: /r%d\n", i)
		skips = append(skips, skip{URL: fmt.Sprintf("http://h.test/r%d", i), Reason: "robots-disallowed", Line: i})
	}
	lines, omitted, _ := buildRobotsLines("h", "http://h.test", b.String(), nil, skips, nil, nil)
	if len(lines) != maxRobotsLines || omitted != (omission{7, 7}) || lines[len(lines)-1].N != maxRobotsLines {
		t.Errorf("%d lines shown (last %d), %+v omitted; want %d and 7 deciding", len(lines), lines[len(lines)-1].N, omitted, maxRobotsLines)
	}
}

// TestBuildRobotsLinesDecidingLinesFirst: past maxRobotsLines, the lines
// that decided something are shown before the lines around them and the
// head, so a file with 600 deciding lines in 2501 shows every one of them,
// its last line included.
func TestBuildRobotsLinesDecidingLinesFirst(t *testing.T) {
	var b strings.Builder
	var skips []skip
	b.WriteString("User-agent: *\n")
	for i := 2; i <= 100; i++ {
		b.WriteString("# head\n")
	}
	for i := range 600 {
		n := 100 + 4*i + 2 // the Disallow line's number
		fmt.Fprintf(&b, "# f\nDisallow: /d%d$\n# f\n# f\n", i)
		skips = append(skips, skip{URL: fmt.Sprintf("http://h.test/d%d", i), Reason: "robots-disallowed", Line: n})
	}
	b.WriteString("Allow: /\n") // line 2501
	reqs := []request{{URL: "http://h.test/page", Kind: "page", RobotsLine: 2501}}
	lines, omitted, dangling := buildRobotsLines("h", "http://h.test", b.String(), reqs, skips, nil, nil)
	shown := map[int]bool{}
	for _, l := range lines {
		shown[l.N] = true
	}
	for _, s := range skips {
		if !shown[s.Line] {
			t.Errorf("deciding line %d not shown", s.Line)
		}
	}
	if !shown[2501] || len(lines) != maxRobotsLines || len(dangling) != 0 || omitted.Decided != 0 {
		t.Errorf("line 2501 shown %v, %d lines, dangling %v, omitted %+v", shown[2501], len(lines), dangling, omitted)
	}
	gaps, decidedInGaps := 0, 0
	for _, l := range lines {
		gaps += l.Gap
		decidedInGaps += l.GapDecided
	}
	if gaps+omitted.Lines != 2501-maxRobotsLines || decidedInGaps != 0 {
		t.Errorf("gaps count %d lines (+%d after), %d deciding; want %d in all, none deciding", gaps, omitted.Lines, decidedInGaps, 2501-maxRobotsLines)
	}
}

// TestBuildRobotsLinesAllowingLinesFirst: with more deciding lines than
// can be listed, a line that allowed the fetched pages, or set the pace,
// is listed before lines that blocked one URL each.
func TestBuildRobotsLinesAllowingLinesFirst(t *testing.T) {
	var b strings.Builder
	var skips []skip
	b.WriteString("User-agent: *\nCrawl-delay: 2\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "Disallow: /d%d$\n", i)
		skips = append(skips, skip{URL: fmt.Sprintf("http://h.test/d%d", i), Reason: "robots-disallowed", Line: i + 3})
	}
	b.WriteString("Allow: /\n") // line 2003
	reqs := []request{{URL: "http://h.test/page", Kind: "page", RobotsLine: 2003}}
	lines, omitted, _ := buildRobotsLines("h", "http://h.test", b.String(), reqs, skips, []string{"crawl-delay 2s (line 2)"}, nil)
	shown := map[int]bool{}
	for _, l := range lines {
		shown[l.N] = true
	}
	if !shown[2003] || !shown[2] {
		t.Errorf("Allow: / (line 2003) shown %v, Crawl-delay (line 2) shown %v; want both", shown[2003], shown[2])
	}
	if len(lines) != maxRobotsLines || omitted.Decided+countGapDecided(lines) != 2002-maxRobotsLines {
		t.Errorf("%d lines, %+v omitted after", len(lines), omitted)
	}
}

func countGapDecided(lines []robotsLine) int {
	n := 0
	for _, l := range lines {
		n += l.GapDecided
	}
	return n
}

// TestRobotsViewLinksOnlyShownLines: skip examples and request rows link
// to a robots.txt line only if the listing shows it, however far down the
// file: a line past the number of lines shown keeps its link if it is
// listed.
func TestRobotsViewLinksOnlyShownLines(t *testing.T) {
	body := "User-agent: *\n" + strings.Repeat("# filler\n", 348) + "Disallow: /blocked\n" + strings.Repeat("# filler\n", 49) + "Allow: /\n"
	skips := []skip{{URL: "http://h.test/blocked/x", Reason: "robots-disallowed", Line: 350}}
	rv := robotsViewFor("host-1", "http://h.test", &robotsSummary{Outcome: "parsed", Body: body}, nil, skips, nil, nil)
	if got := rv.anchor("host-1", 350); got != "host-1-L350" {
		t.Errorf("anchor of the deciding line 350: %q", got)
	}
	if got := rv.anchor("host-1", 200); got != "" {
		t.Errorf("anchor of line 200, which is not shown: %q", got)
	}
	if got := rv.anchor("host-1", 401); got != "" {
		t.Errorf("anchor of line 401, past the body: %q", got)
	}
}

// TestBuildRobotsLinesLoneCR: a lone CR ends a line, as robots.Parse
// numbers lines (RFC 9309 2.2, "NL = %x0D / %x0A / %x0D.0A"), so a skip citing
// line 2 of such a file finds it.
func TestBuildRobotsLinesLoneCR(t *testing.T) {
	skips := []skip{{URL: "http://h.test/x", Reason: "robots-disallowed", Line: 2}}
	lines, _, dangling := buildRobotsLines("h", "http://h.test", "User-agent: *\rDisallow: /x\r", nil, skips, nil, nil)
	if len(lines) != 2 || lines[1].Text != "Disallow: /x" || !lines[1].Decided || len(dangling) != 0 {
		t.Errorf("lines %+v, dangling %v", lines, dangling)
	}
}
