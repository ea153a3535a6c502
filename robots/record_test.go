package robots

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// paceOf words the pace g asks for at now: "20s (line 27)", or "none".
func paceOf(g *Group, now time.Time) string {
	iv, line, _, ok := g.PaceLine(now)
	if !ok {
		return "none"
	}
	return fmt.Sprintf("%v (line %d)", iv, line)
}

// TestExtended1996_Records pins the 1996 extended standard's record ("one
// or more User-agent: directives followed by one or more other
// directives", "The Format") as the scope of the extension lines, while
// Allow and Disallow keep RFC 9309 section 2.1 grouping, in which an
// extension line does not end a group (section 2.2.4).
func TestExtended1996_Records(t *testing.T) {
	now := time.Date(2026, 1, 1, 1, 30, 0, 0, time.UTC)
	for _, c := range []struct {
		name, body string
		pace       map[string]string // agent -> paceOf
		denied     map[string]string // agent -> a path its group disallows
	}{
		{"a user-agent line after an extension line starts a record",
			"User-agent: spbot\nCrawl-delay: 2000\nUser-agent: *\nDisallow: /x\n",
			map[string]string{"spbot": "33m20s (line 2)", "crawl": "none", "*": "none"},
			map[string]string{"spbot": "/x", "crawl": "/x"}},
		{"consecutive user-agent lines share one record",
			"User-agent: a\nUser-agent: b\nCrawl-delay: 5\nDisallow: /x\n",
			map[string]string{"a": "5s (line 3)", "b": "5s (line 3)", "c": "none"},
			map[string]string{"a": "/x", "b": "/x"}},
		{"an extension line after the rules stays in its record",
			"User-agent: a\nDisallow: /x\nCrawl-delay: 5\nUser-agent: b\nDisallow: /y\n",
			map[string]string{"a": "5s (line 3)", "b": "none"},
			map[string]string{"a": "/x", "b": "/y"}},
		{"Sitemap and Host between user-agent lines end no record",
			"User-agent: a\nSitemap: http://h/s.xml\nHost: h\nUser-agent: b\nCrawl-delay: 3\n",
			map[string]string{"a": "3s (line 5)", "b": "3s (line 5)"}, nil},
		{"a Comment ends the user-agent lines of its record",
			"User-agent: a\nComment: hello\nUser-agent: b\nCrawl-delay: 3\nDisallow: /x\n",
			map[string]string{"a": "none", "b": "3s (line 4)"},
			map[string]string{"a": "/x", "b": "/x"}},
		{"an unknown directive ends the user-agent lines of its record",
			"User-agent: a\nNoindex: /n\nUser-agent: b\nFoo: bar\nUser-agent: c\nCrawl-delay: 3\n",
			map[string]string{"a": "none", "b": "none", "c": "3s (line 6)"}, nil},
		{"a line that is no key: value line ends nothing",
			"User-agent: a\nthis is not a directive\nUser-agent: b\nCrawl-delay: 3\n",
			map[string]string{"a": "3s (line 4)", "b": "3s (line 4)"}, nil},
		{"records naming one agent merge: the slower Crawl-delay wins",
			"User-agent: a\nCrawl-delay: 5\nUser-agent: b\nCrawl-delay: 1\nUser-agent: a\nCrawl-delay: 10\nUser-agent: *\nDisallow: /x\n",
			map[string]string{"a": "10s (line 6)", "b": "1s (line 4)", "z": "none"},
			map[string]string{"a": "/x", "b": "/x", "z": "/x"}},
		{"records naming one agent merge across groups",
			"User-agent: a\nCrawl-delay: 30\nUser-agent: *\nDisallow: /x\n\nUser-agent: a\nDisallow: /y\nCrawl-delay: 2\n",
			map[string]string{"a": "30s (line 2)", "z": "none"},
			map[string]string{"a": "/y", "z": "/x"}},
		{"an agent no line names gets the records naming *",
			"User-agent: a\nCrawl-delay: 5\nUser-agent: *\nCrawl-delay: 20\nDisallow: /x\n",
			map[string]string{"a": "5s (line 2)", "z": "20s (line 4)"},
			map[string]string{"a": "/x", "z": "/x"}},
		{"an agent with a record of its own does not fall back to *",
			"User-agent: a\nDisallow: /p\n\nUser-agent: *\nCrawl-delay: 20\n",
			map[string]string{"a": "none", "z": "20s (line 5)"},
			map[string]string{"a": "/p"}},
		{"records naming * merge",
			"User-agent: *\nCrawl-delay: 5\nUser-agent: a\nCrawl-delay: 1\nUser-agent: *\nCrawl-delay: 10\nDisallow: /x\n",
			map[string]string{"a": "1s (line 4)", "z": "10s (line 6)"},
			map[string]string{"a": "/x", "z": "/x"}},
		{"Request-rate is scoped to its record",
			"User-agent: a\nRequest-rate: 1/10m\nUser-agent: *\nDisallow: /x\n",
			map[string]string{"a": "10m0s (line 2)", "z": "none"}, nil},
		{"a windowed Request-rate is scoped to its record",
			"User-agent: *\nRequest-rate: 1/1m 0100-0200\nUser-agent: a\nRequest-rate: 1/1h\nDisallow: /x\n",
			map[string]string{"a": "1h0m0s (line 4)", "z": "1m0s (line 2)"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := Parse([]byte(c.body))
			for agent, want := range c.pace {
				if got := paceOf(r.Group(agent), now); got != want {
					t.Errorf("%s: pace %s, want %s", agent, got, want)
				}
			}
			for agent, path := range c.denied {
				if r.Allowed(agent, path).Allowed {
					t.Errorf("%s: %s allowed; its RFC 9309 group disallows it", agent, path)
				}
			}
		})
	}
}

// TestExtended1996_RecordsScopeVisitTimeCommentVersion: Visit-time,
// Comment and Robot-version belong to their record, as Crawl-delay does.
func TestExtended1996_RecordsScopeVisitTimeCommentVersion(t *testing.T) {
	r := Parse([]byte("User-agent: night\nVisit-time: 0100-0200\nComment: slow down\nRobot-version: 2.0\nUser-agent: *\nDisallow: /x\n"))
	noon := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	if r.Group("night").VisitAllowed(noon) {
		t.Error("night: visit allowed at noon outside its window")
	}
	if !r.Group("day").VisitAllowed(noon) || len(r.Group("day").VisitTimes()) != 0 {
		t.Error("day: got night's Visit-time")
	}
	if got := r.Group("night").Comments(); !slices.Equal(got, []string{"slow down"}) {
		t.Errorf("night comments %q", got)
	}
	if got := r.Group("day").Comments(); got != nil {
		t.Errorf("day got night's comments %q", got)
	}
	if _, ok := r.Group("day").RobotVersion(); ok {
		t.Error("day got night's Robot-version")
	}
	if v, _ := r.Group("night").RobotVersion(); v != "2.0" {
		t.Errorf("night Robot-version %q", v)
	}
}

// TestExtended1996_RecordsConflictWarning: two records naming one agent
// with different Crawl-delays give the slower, and a warning with both
// line numbers.
func TestExtended1996_RecordsConflictWarning(t *testing.T) {
	r := Parse([]byte("User-agent: a\nCrawl-delay: 5\nUser-agent: b\nCrawl-delay: 1\nUser-agent: a\nCrawl-delay: 10\nUser-agent: *\nDisallow: /x\n"))
	g := r.Group("a")
	_, conflicts := g.PaceRecords()
	want := Warning{Line: 2, Text: "Crawl-delay: 5", Message: `records for "a" give different Crawl-delays; the slower, line 6 (Crawl-delay: 10), is kept`}
	if len(conflicts) != 1 || conflicts[0] != want {
		t.Errorf("conflicts %v, want %v", conflicts, want)
	}
	if !slices.Contains(g.Warnings(), want) {
		t.Errorf("Group.Warnings %v lacks %v", g.Warnings(), want)
	}
	if _, c := r.Group("b").PaceRecords(); len(c) != 0 {
		t.Errorf("b: conflicts %v", c)
	}
	// Equal delays do not conflict; a record's own several lines keep
	// the longest, as before, without a warning.
	r = Parse([]byte("User-agent: a\nCrawl-delay: 5\nUser-agent: b\nCrawl-delay: 1\nUser-agent: a\nCrawl-delay: 5\nCrawl-delay: 7\n"))
	if _, c := r.Group("a").PaceRecords(); len(c) != 1 || c[0].Line != 2 {
		t.Errorf("5, then 5 and 7: conflicts %v, want one about line 2", c)
	}
}

// TestPaceRecords pins the records a group's pace is read from and the
// user-agent lines of its access group, with their line numbers, as
// explain shows them.
func TestPaceRecords(t *testing.T) {
	r := Parse([]byte("User-agent: *\nDisallow: /a\n\nUser-agent: spbot\nCrawl-delay: 2000\n\nUser-agent: *\nCrawl-delay: 20\n"))
	star := r.Group("crawl")
	if got, want := star.AgentLines(), []Line{{1, "User-agent: *"}, {4, "User-agent: spbot"}, {7, "User-agent: *"}}; !slices.EqualFunc(got, want, func(a, b Line) bool { return a == b }) {
		t.Errorf("AgentLines %v, want %v", got, want)
	}
	recs, _ := star.PaceRecords()
	if len(recs) != 2 || recs[0].Agents[0] != (Line{1, "User-agent: *"}) || len(recs[0].Pace) != 0 ||
		recs[1].Agents[0] != (Line{7, "User-agent: *"}) || !slices.Equal(recs[1].Pace, []Line{{8, "Crawl-delay: 20"}}) {
		t.Errorf("crawl's records %+v", recs)
	}
	if r.Names("crawl") || !r.Names("spbot") || !r.Names("SPBot/2.1") {
		t.Error("Names")
	}
	recs, _ = r.Group("spbot").PaceRecords()
	if len(recs) != 1 || !slices.Equal(recs[0].Agents, []Line{{4, "User-agent: spbot"}}) || !slices.Equal(recs[0].Pace, []Line{{5, "Crawl-delay: 2000"}}) {
		t.Errorf("spbot's records %+v", recs)
	}
	// A group as written (Robots.Groups) reads every record of its lines.
	gs := r.Groups()
	if recs, _ := gs[1].PaceRecords(); len(recs) != 2 {
		t.Errorf("Groups()[1]: %d records, want 2", len(recs))
	}
}

// TestGroupNamed_Records: a name with digits gets the pace of the records
// naming it, as a product token does.
func TestGroupNamed_Records(t *testing.T) {
	r := Parse([]byte("User-agent: MJ12bot\nCrawl-delay: 30\nUser-agent: 360Spider\nCrawl-delay: 7\nUser-agent: *\nDisallow: /x\n\nUser-agent: 360Spider\nCrawl-delay: 9\n"))
	now := time.Now()
	for name, want := range map[string]string{"MJ12bot": "30s (line 2)", "MJ99bot": "none", "360Spider": "9s (line 9)", "crawl": "none"} {
		if got := paceOf(r.GroupNamed(name), now); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	if !r.GroupNamed("MJ12bot").Allowed("/y").Allowed || r.GroupNamed("MJ12bot").Allowed("/x").Allowed {
		t.Error("MJ12bot: access rules are its RFC 9309 group's")
	}
	if r.Names("MJ99bot") || !r.Names("360Spider") {
		t.Error("Names with digits")
	}
}

// TestRealFiles_Pace pins the pace of real files per agent: r-bloggers.com
// (reconstructed; spbot's Crawl-delay: 2000 is its own, "*" asks for
// 20 s) and github.com (baidu's crawl-delay: 1 is baidu's alone), with
// the access rules RFC 9309 gives.
func TestRealFiles_Pace(t *testing.T) {
	now := time.Date(2026, 1, 1, 14, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		file   string
		pace   map[string]string
		denied map[string][]string
		open   map[string][]string
	}{
		{"r-bloggers.com.txt",
			map[string]string{"crawl": "20s (line 27)", "Googlebot": "20s (line 27)", "spbot": "33m20s (line 24)",
				"SemrushBot": "1m0s (line 21)", "MJ12bot": "none", "*": "20s (line 27)"},
			map[string][]string{"crawl": {"/wp-admin/x", "/search/r"}, "MJ12bot": {"/"}},
			map[string][]string{"crawl": {"/2024/01/post/", "/wp-admin/admin-ajax.php"}, "spbot": {"/wp-admin/x"}}},
		{"github.com.txt",
			map[string]string{"crawl": "none", "Googlebot": "none", "baidu": "1s (line 4)", "Baiduspider": "none"},
			map[string][]string{"crawl": {"/owner/repo/pulse", "/gist/x"}, "baidu": {"/owner/repo/pulse", "/owner/repo/blame/main/x"}},
			map[string][]string{"crawl": {"/owner/repo", "/owner?tab=achievements&achievement=x"}, "baidu": {"/owner/repo"}}},
	} {
		r := Parse(readTestdata(t, c.file))
		for agent, want := range c.pace {
			if got := paceOf(r.Group(agent), now); got != want {
				t.Errorf("%s %s: pace %s, want %s", c.file, agent, got, want)
			}
		}
		for agent, paths := range c.denied {
			for _, p := range paths {
				if r.Allowed(agent, p).Allowed {
					t.Errorf("%s %s: %s allowed", c.file, agent, p)
				}
			}
		}
		for agent, paths := range c.open {
			for _, p := range paths {
				if v := r.Allowed(agent, p); !v.Allowed {
					t.Errorf("%s %s: %s disallowed (%v)", c.file, agent, p, v)
				}
			}
		}
		if len(r.Warnings()) != 0 {
			t.Errorf("%s: warnings %v", c.file, r.Warnings())
		}
	}
}

// TestExtended1996_ExampleFilePace: in the 1996 extended standard's own
// example every record is an RFC 9309 group of its own, so each agent
// keeps the pace of its group.
func TestExtended1996_ExampleFilePace(t *testing.T) {
	r := Parse(readTestdata(t, "extended-1996.txt"))
	at := time.Date(2026, 1, 1, 14, 0, 0, 0, time.UTC)
	for agent, want := range map[string]string{"fredsbot": "none", "alfred": "none", "hackerbot": "30m0s (line 61)",
		"suckemdry": "none", "vacuumweb": "10m0s (line 86)", "spiderbot": "10m0s (line 86)", "anybot": "none"} {
		if got := paceOf(r.Group(agent), at); got != want {
			t.Errorf("%s: %s, want %s", agent, got, want)
		}
	}
}

// TestRecordViews_Concurrent: the views of a split group, made on first
// use, are one per agent whatever the goroutines asking, and each check
// after the first two allocates nothing.
func TestRecordViews_Concurrent(t *testing.T) {
	r := Parse(readTestdata(t, "r-bloggers.com.txt"))
	var wg sync.WaitGroup
	got := make([]*Group, 8)
	for i := range got {
		wg.Go(func() {
			got[i] = r.Group(string([]byte("spbot"))) // a string of its own: no answer remembered by address
		})
	}
	wg.Wait()
	for _, g := range got {
		if g != got[0] {
			t.Fatal("two views of one agent")
		}
	}
	g := r.Group("SemrushBot")
	g.Allowed("/a")
	g.Allowed("/a")
	if n := testing.AllocsPerRun(100, func() { g.Allowed("/wp-admin/x") }); n != 0 {
		t.Errorf("%v allocations per check", n)
	}
	if r.Footprint() <= len(r.Body()) {
		t.Error("Footprint does not count the views")
	}
}
