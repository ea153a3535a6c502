package robots

import (
	"slices"
	"testing"
	"time"
)

func at(hh, mm int) time.Time { return time.Date(2026, 11, 21, hh, mm, 0, 0, time.UTC) }

func TestStandard1994_Examples(t *testing.T) {
	t.Run("a", func(t *testing.T) {
		runVerdicts(t, Parse(readTestdata(t, "standard-1994-a.txt")), []verdictCase{
			{"infinite virtual URL space", "anybot", "/cyberworld/map/index.html", false, 4},
			{"tmp", "anybot", "/tmp/x", false, 5},
			{"elsewhere", "anybot", "/index.html", true, 0},
		})
	})
	t.Run("b", func(t *testing.T) {
		runVerdicts(t, Parse(readTestdata(t, "standard-1994-b.txt")), []verdictCase{
			{"others kept out", "anybot", "/cyberworld/map/x", false, 4},
			{"cybermapper knows where to go", "cybermapper", "/cyberworld/map/x", true, 0},
		})
	})
	t.Run("c", func(t *testing.T) {
		runVerdicts(t, Parse(readTestdata(t, "standard-1994-c.txt")), []verdictCase{
			{"go away", "anybot", "/", false, 3},
			{"go away deep", "anybot", "/a/b", false, 3},
		})
	})
	t.Run("help", func(t *testing.T) {
		r := Parse([]byte("User-agent: a\nDisallow: /help\n\nUser-agent: b\nDisallow: /help/\n"))
		runVerdicts(t, r, []verdictCase{
			{"/help disallows /help.html", "a", "/help.html", false, 2},
			{"/help disallows /help/index.html", "a", "/help/index.html", false, 2},
			{"/help/ disallows /help/index.html", "b", "/help/index.html", false, 5},
			{"/help/ allows /help.html", "b", "/help.html", true, 0},
		})
	})
}

// TestKoster1996_3_2_2_MatchTable covers the match table of section 3.2.2 of
// the 1996 draft, which RFC 9309 keeps.
func TestKoster1996_3_2_2_MatchTable(t *testing.T) {
	rows := []struct {
		record, path string
		match        bool
	}{
		{"/tmp", "/tmp", true},
		{"/tmp", "/tmp.html", true},
		{"/tmp", "/tmp/a.html", true},
		{"/tmp/", "/tmp", false},
		{"/tmp/", "/tmp/", true},
		{"/tmp/", "/tmp/a.html", true},
		{"/a%3cd.html", "/a%3cd.html", true},
		{"/a%3Cd.html", "/a%3cd.html", true},
		{"/a%3cd.html", "/a%3Cd.html", true},
		{"/a%2fb.html", "/a%2fb.html", true},
		{"/a%2fb.html", "/a%2Fb.html", true},
		{"/a%2fb.html", "/a/b.html", false},
		{"/%7ejoe/index.html", "/~joe/index.html", true},
		{"/~joe/index.html", "/%7Ejoe/index.html", true},
	}
	for _, row := range rows {
		got := !allowedFor("User-agent: *\nDisallow: "+row.record+"\n", "bot", row.path)
		if got != row.match {
			t.Errorf("record %q, URL path %q: match = %v, want %v", row.record, row.path, got, row.match)
		}
	}
}

func TestKoster1996_3_2_AllowExample(t *testing.T) {
	runVerdicts(t, Parse(readTestdata(t, "koster-1996.txt")), []verdictCase{
		{"allow", "webcrawler", "/tmp/ok.html", true, 3},
		{"disallow tmp", "infoseek", "/tmp/other.html", false, 4},
		{"disallow user foo", "infoseek", "/user/foo/x", false, 5},
		{"other user", "infoseek", "/user/bar", true, 0},
	})
}

func TestExtended1996_Examples(t *testing.T) {
	r := Parse(readTestdata(t, "extended-1996.txt"))
	runVerdicts(t, r, []verdictCase{
		// fredsbot, pandabot, chives: version 1.0 rule set.
		{"fredsbot index", "fredsbot", "/index.html", true, 0},
		{"pandabot products", "pandabot", "/products.html", true, 0},
		{"chives overview", "chives", "/overview.html", true, 0},
		{"fredsbot thankyou", "fredsbot", "/thankyou.html", true, 0},
		{"fredsbot images", "fredsbot", "/images/logo.gif", false, 9},
		{"chives order", "chives", "/order.shtml", false, 10},
		{"pandabot blackhole", "pandabot", "/blackhole/info8.html", false, 12},
		// popularsite
		{"popularsite info99", "popularsite", "/blackhole/info99.gif", false, 27},
		{"popularsite blackhole index", "popularsite", "/blackhole/index.html", true, 0},
		{"popularsite info97", "popularsite", "/blackhole/info97.html", true, 0},
		// alfred, newchives, oscarbot (read by longest match, see doc.go)
		{"alfred images index", "alfred", "/images/index.html", true, 41},
		{"newchives other image", "newchives", "/images/logo.png", false, 49},
		{"oscarbot any index", "oscarbot", "/products/index.html", true, 40},
		{"alfred blackhole index", "alfred", "/blackhole/index.html", true, 42},
		{"alfred info99", "alfred", "/blackhole/info99.html", false, 50},
		{"alfred info8", "alfred", "/blackhole/info8.html", false, 51},
		{"alfred cgi", "alfred", "/order.cgi", false, 46},
		{"alfred gif", "alfred", "/a/b.gif", false, 47},
		{"alfred nothing else", "alfred", "/products.html", false, 44},
		{"deviation: longest match lets Allow /blackhole/info* beat *.shtml", "alfred", "/blackhole/info98.shtml", true, 43},
		// hackerbot
		{"hackerbot index", "hackerbot", "/a/index.html", true, 62},
		{"hackerbot nothing else", "hackerbot", "/a/page.html", false, 63},
		// suckemdry
		{"suckemdry html", "suckemdry", "/a/page.html", true, 72},
		{"suckemdry gif", "suckemdry", "/a/page.gif", false, 73},
		// vacuumweb, spanwebbot, spiderbot
		{"vacuumweb html", "vacuumweb", "/x.html", true, 91},
		{"spiderbot gif", "spiderbot", "/x.gif", false, 92},
		// everyone else
		{"go away", "otherbot", "/index.html", false, 99},
	})

	t.Run("hackerbot Request-rate 1/30m", func(t *testing.T) {
		g := r.Group("hackerbot")
		iv, src, ok := g.Pace(at(12, 0))
		if !ok || iv != 30*time.Minute || src != "line 61: Request-rate: 1/30m" {
			t.Errorf("Pace = %v %q %v, want 30m from line 61", iv, src, ok)
		}
		if v, ok := g.RobotVersion(); !ok || v != "2.0" {
			t.Errorf("RobotVersion = %q %v", v, ok)
		}
	})
	t.Run("suckemdry Visit-time 0600-0845", func(t *testing.T) {
		g := r.Group("suckemdry")
		if got := g.VisitTimes(); len(got) != 1 || got[0] != (Window{From: 360, To: 525, Line: 74, Text: "Visit-time: 0600-0845"}) {
			t.Fatalf("VisitTimes = %v", got)
		}
		for _, c := range []struct {
			now  time.Time
			ok   bool
			next time.Time
		}{
			{at(5, 59), false, at(6, 0)},
			{at(6, 0), true, at(6, 0)},
			{at(8, 45), true, at(8, 45)},
			{at(8, 46), false, at(6, 0).Add(24 * time.Hour)},
			{at(23, 0), false, at(6, 0).Add(24 * time.Hour)},
		} {
			if got := g.VisitAllowed(c.now); got != c.ok {
				t.Errorf("VisitAllowed(%v) = %v", c.now, got)
			}
			if got := g.NextVisit(c.now); !got.Equal(c.next) {
				t.Errorf("NextVisit(%v) = %v, want %v", c.now, got, c.next)
			}
		}
	})
	t.Run("vacuumweb windowed Request-rate and Comment", func(t *testing.T) {
		g := r.Group("spanwebbot")
		for _, c := range []struct {
			now  time.Time
			want time.Duration
			line int
		}{
			{at(13, 0), 10 * time.Minute, 83},
			{at(16, 59), 10 * time.Minute, 83},
			{at(17, 0), 20 * time.Minute, 84},
			{at(2, 30), 20 * time.Minute, 84},
			{at(4, 59), 20 * time.Minute, 84},
			{at(5, 0), 12 * time.Second, 85},
			{at(12, 59), 12 * time.Second, 85},
		} {
			iv, _, ok := g.Pace(c.now)
			if !ok || iv != c.want {
				t.Errorf("Pace(%v) = %v %v, want %v", c.now.Format("15:04"), iv, ok, c.want)
			}
		}
		want := []string{"because you guys try all the time, I'm gonna limit you", "to how many documents you can retrieve.  So there!"}
		if got := g.Comments(); !slices.Equal(got, want) {
			t.Errorf("Comments = %q", got)
		}
		if rates := g.RequestRates(); len(rates) != 3 || rates[1].Window != (Window{From: 17 * 60, To: 4*60 + 59}) || rates[2].Requests != 5 {
			t.Errorf("RequestRates = %v", rates)
		}
	})
	if n := len(r.Warnings()); n != 0 {
		t.Errorf("warnings: %v", r.Warnings())
	}
}

func TestOverview2011_Examples(t *testing.T) {
	r := Parse(readTestdata(t, "overview-2011.txt"))
	runVerdicts(t, r, []verdictCase{
		{"four directories", "anybot", "/cgi-bin/x", false, 3},
		{"private", "anybot", "/private/x", false, 6},
		{"other files", "anybot", "/directory/file2.html", true, 0},
		{"BadBot private", "BadBot", "/private/x", false, 10},
		{"BadBot not in *", "BadBot", "/tmp/x", true, 0},
		{"allow a file in a disallowed folder", "folderbot", "/folder1/myfile.html", true, 13},
		{"rest of the folder", "folderbot", "/folder1/other.html", false, 14},
	})
	if d, ok := r.Group("anybot").CrawlDelay(); !ok || d != 10*time.Second {
		t.Errorf("CrawlDelay = %v %v, want 10s", d, ok)
	}
	if got := r.Sitemaps(); len(got) != 2 {
		t.Errorf("Sitemaps = %q", got)
	}
	for _, c := range []struct {
		body    string
		allowed bool
	}{
		{"User-agent: *\nDisallow:\n", true},
		{"User-agent: *\nDisallow: /\n", false},
		{"User-agent: *\nDisallow: /directory/file.html\n", false},
	} {
		if got := allowedFor(c.body, "bot", "/directory/file.html"); got != c.allowed {
			t.Errorf("%q: allowed = %v", c.body, got)
		}
	}
}
