package report

import (
	"reflect"
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
	if len(lines) != 5 || omitted != 0 {
		t.Fatalf("%d lines, %d omitted", len(lines), omitted)
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

func TestBuildRobotsLinesCapsBody(t *testing.T) {
	body := ""
	for range maxRobotsLines + 7 {
		body += "Disallow: /x\n"
	}
	lines, omitted, _ := buildRobotsLines("h", "", body, nil, nil, nil, nil)
	if len(lines) != maxRobotsLines || omitted != 7 {
		t.Errorf("%d lines shown, %d omitted", len(lines), omitted)
	}
}
