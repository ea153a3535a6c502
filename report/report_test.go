package report

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

var update = flag.Bool("update", false, "rewrite golden files (and docs/report.png when chromium is present)")

// fixtureRequests counts crawl.jsonl lines per host and kind.
func fixtureRequests(t *testing.T, fixture string) map[string]map[string]int {
	t.Helper()
	f, err := os.Open(filepath.Join(fixtureDir, fixture, CrawlFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := make(map[string]map[string]int)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r request
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue
		}
		h := hostOf(r.Host, r.URL)
		if out[h] == nil {
			out[h] = make(map[string]int)
		}
		out[h][r.Kind]++
	}
	return out
}

func TestWriteGolden(t *testing.T) {
	page, _ := writeAndParse(t, "demo")
	golden := filepath.Join(fixtureDir, "demo.golden.html")
	if *update {
		if err := os.WriteFile(golden, []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test ./report -update to create it)", err)
	}
	if page != string(want) {
		t.Errorf("report.html differs from %s; inspect and run go test ./report -update if the change is intended", golden)
	}
}

func TestWriteSelfContained(t *testing.T) {
	page, doc := writeAndParse(t, "demo")
	if !strings.HasPrefix(page, "<!doctype html>") {
		t.Error("no doctype")
	}
	for _, n := range findAll(doc, func(n *html.Node) bool { return true }) {
		switch n.Data {
		case "script", "link", "iframe", "img", "object", "embed":
			t.Errorf("page has a <%s> element; it must be self-contained with no script", n.Data)
		}
		if src := attr(n, "src"); src != "" {
			t.Errorf("<%s src=%q> would fetch", n.Data, src)
		}
		if href := attr(n, "href"); href != "" && !strings.HasPrefix(href, "#") {
			t.Errorf("<%s href=%q> leaves the page", n.Data, href)
		}
	}
	for _, bad := range []string{"@import", "url(", "@font-face"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	vp := findAll(doc, func(n *html.Node) bool { return n.Data == "meta" && attr(n, "name") == "viewport" })
	if len(vp) != 1 || !strings.Contains(attr(vp[0], "content"), "width=device-width") {
		t.Error("no responsive viewport meta")
	}
}

func TestWriteHostSections(t *testing.T) {
	_, doc := writeAndParse(t, "demo")
	sections := hostSections(doc)
	reqs := fixtureRequests(t, "demo")
	for host, kinds := range reqs {
		sec := sections[host]
		if sec == nil {
			t.Errorf("no section for %s", host)
			continue
		}
		svgs := findAll(sec, func(n *html.Node) bool { return n.Data == "svg" && hasClass(n, "timeline") })
		if len(svgs) != 1 {
			t.Fatalf("%s: %d timelines, want 1", host, len(svgs))
		}
		if attr(svgs[0], "viewBox") == "" {
			t.Errorf("%s: timeline without viewBox", host)
		}
		marks := findAll(svgs[0], isMark)
		robots := findAll(svgs[0], func(n *html.Node) bool { return isMark(n) && hasClass(n, "robots") })
		total := 0
		for _, n := range kinds {
			total += n
		}
		if len(marks) != total || len(robots) != kinds["robots"] {
			t.Errorf("%s: %d marks (%d robots), want %d (%d robots)", host, len(marks), len(robots), total, kinds["robots"])
		}
	}
	// Every host of summary.json has a section, with or without requests.
	var s summary
	b, err := os.ReadFile(filepath.Join(fixtureDir, "demo", SummaryFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	for _, h := range s.Hosts {
		if sections[h.Host] == nil {
			t.Errorf("summary host %s has no section", h.Host)
		}
	}
	if len(s.Hosts) != 10 || len(sections) != 11 {
		t.Errorf("%d summary hosts and %d sections, want 10 and 11 (the redirect target has requests but no summary)", len(s.Hosts), len(sections))
	}
}

// TestWriteRobotsLinesDecide checks the wildcard host: RFC 9309 2.2.2, the
// longest match wins, so line 4 (Allow: /shop/*?page=1$) allowed one URL,
// line 3 blocked two and line 5 (Disallow: /*.pdf$) one.
func TestWriteRobotsLinesDecide(t *testing.T) {
	_, doc := writeAndParse(t, "demo")
	sec := hostSections(doc)["http://127.0.0.1:41005"]
	if sec == nil {
		t.Fatal("no wildcard host section")
	}
	id := attr(sec, "id")
	tests := []struct {
		line int
		want []string
		not  string
	}{
		{3, []string{"blocked 2", "/shop/shoes?page=2", "/shop/shoes?sort=price"}, "allowed"},
		{4, []string{"allowed 1", "/shop/shoes?page=1"}, "blocked"},
		{5, []string{"blocked 1", "/files/manual.pdf"}, "allowed"},
	}
	for _, tt := range tests {
		li := byID(doc, lineAnchor(id, tt.line))
		if li == nil || !hasClass(li, "decided") {
			t.Errorf("line %d not highlighted", tt.line)
			continue
		}
		txt := text(li)
		for _, w := range tt.want {
			if !strings.Contains(txt, w) {
				t.Errorf("line %d: %q lacks %q", tt.line, txt, w)
			}
		}
		if strings.Contains(txt, tt.not) {
			t.Errorf("line %d: %q should not mention %q", tt.line, txt, tt.not)
		}
	}
	if li := byID(doc, lineAnchor(id, 2)); li == nil || hasClass(li, "decided") {
		t.Error("line 2 (User-agent) should be shown and not highlighted")
	}
	// Skip examples link to the deciding line.
	links := findAll(doc, func(n *html.Node) bool { return n.Data == "a" && attr(n, "href") == "#"+lineAnchor(id, 5) })
	if len(links) == 0 {
		t.Error("no link to the line that blocked the PDF")
	}
}

func TestWriteOverviewAndLessons(t *testing.T) {
	page, doc := writeAndParse(t, "demo")
	sections := hostSections(doc)
	overview := text(byID(doc, "overview"))
	for _, want := range []string{"Resume after 2026-11-22 00:04:00 UTC", "default delay", "200ms", "max wait", "5s", "http://127.0.0.1:41004"} {
		if !strings.Contains(overview, want) {
			t.Errorf("overview lacks %q", want)
		}
	}
	if strings.Contains(overview, "shorter than the interval") {
		t.Error("the demo fixture keeps its pace, but the overview reports short gaps")
	}
	open := sections["http://127.0.0.1:41003"]
	if w := findAll(open, func(n *html.Node) bool { return n.Data == "rect" && hasClass(n, "window") }); len(w) != 1 {
		t.Errorf("open Visit-time host: %d shaded windows, want 1", len(w))
	}
	closed := sections["http://127.0.0.1:41004"]
	if w := findAll(closed, func(n *html.Node) bool { return n.Data == "rect" && hasClass(n, "window") }); len(w) != 0 {
		t.Errorf("closed Visit-time host: %d shaded windows, want 0", len(w))
	}
	for _, want := range []string{"next opens at 2026-11-22 00:04:00 UTC", "Deferred URLs", "parked", "deferred"} {
		if !strings.Contains(text(closed), want) {
			t.Errorf("closed Visit-time host lacks %q", want)
		}
	}
	comments := text(sections["http://127.0.0.1:41010"])
	if !strings.Contains(comments, "please crawl gently") || !strings.Contains(comments, "Message from the site") {
		t.Error("Comment: lines are not passed on to the operator")
	}
	retry := sections["http://127.0.0.1:41008"]
	if ev := findAll(retry, func(n *html.Node) bool { return hasClass(n, "ev") && hasClass(n, "retry-after") }); len(ev) != 1 {
		t.Errorf("retry-after host: %d event marks, want 1", len(ev))
	}
	skips := text(byID(doc, "skips"))
	if !strings.Contains(skips, "robots-disallowed · 6") || !strings.Contains(skips, "robots-unreachable · 1") {
		t.Errorf("skip groups wrong: %s", skips)
	}
	if strings.Count(page, `class="gap short"`) != 0 {
		t.Error("demo fixture drew a short gap")
	}
}

func TestWriteEscapesHostileInput(t *testing.T) {
	page, doc := writeAndParse(t, "hostile")
	for _, n := range findAll(doc, func(*html.Node) bool { return true }) {
		switch n.Data {
		case "script", "img":
			t.Errorf("input produced a <%s> element", n.Data)
		}
		for _, a := range n.Attr {
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("input produced an event handler attribute %s on <%s>", a.Key, n.Data)
			}
			if strings.Contains(strings.ToLower(a.Val), "javascript:") {
				t.Errorf("attribute %s=%q carries a javascript: URL", a.Key, a.Val)
			}
		}
	}
	if n := len(findAll(doc, func(n *html.Node) bool { return n.Data == "style" })); n != 1 {
		t.Errorf("%d <style> elements, want only ours", n)
	}
	all := text(doc)
	for _, literal := range []string{
		`</style><script>alert("robots")</script>`,
		`<b onclick="x()">bold</b> & friends`,
		`<img src=x onerror=alert(2)>`,
		`javascript:alert(1)`,
	} {
		if !strings.Contains(all, literal) {
			t.Errorf("hostile text %q is not shown as text", literal)
		}
	}
	if strings.Contains(page, "<script") {
		t.Error("raw <script in the page")
	}
	if !strings.Contains(all, "interrupted") {
		t.Error("interrupted crawl not mentioned")
	}
	if !strings.Contains(all, "25:00-bad (unreadable)") {
		t.Error("an unreadable Visit-time is not reported")
	}
}

func TestWriteToleratesMissingFilesAndBadLines(t *testing.T) {
	_, doc := writeAndParse(t, "partial")
	notes := text(byID(doc, "overview"))
	for _, want := range []string{
		"skips.jsonl is missing",
		"robots.jsonl is missing",
		"crawl.jsonl: ignored 2 malformed line(s), the first on line 2.",
		"1 gap(s) between requests to one host were shorter than the interval in force",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("overview lacks %q", want)
		}
	}
	sec := hostSections(doc)["http://127.0.0.1:5555"]
	if sec == nil {
		t.Fatal("no host section")
	}
	if !strings.Contains(text(sec), "robots.txt has 2 unreadable lines") {
		t.Error("the host's warning is not shown")
	}
	// Skips counted in summary.json but not logged one by one still get a group.
	if g := text(byID(doc, "skip-duplicate")); !strings.Contains(g, "duplicate · 12") || !strings.Contains(g, "12 counted, not logged one by one") {
		t.Errorf("duplicate group = %q", g)
	}
	if marks := findAll(sec, isMark); len(marks) != 2 {
		t.Errorf("%d marks, want 2 (the line without host belongs to its URL's authority)", len(marks))
	}
	if short := findAll(sec, func(n *html.Node) bool { return hasClass(n, "gap") && hasClass(n, "short") }); len(short) != 1 {
		t.Errorf("%d short gaps drawn, want 1", len(short))
	}
}

func TestWriteMissingSummary(t *testing.T) {
	err := Write(t.TempDir())
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want one wrapping fs.ErrNotExist", err)
	}
	if !strings.HasPrefix(err.Error(), "report: ") {
		t.Errorf("error %q lacks the package prefix", err)
	}
}

func TestWriteBadSummary(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, SummaryFile), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := Write(dir)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want a parse error", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ReportFile)); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a report was written from a broken summary")
	}
}

func TestReadJSONLSkipsOverlongLine(t *testing.T) {
	dir := t.TempDir()
	long := `{"url":"` + strings.Repeat("a", maxLine+10) + `"}`
	content := `{"url":"http://h/1"}` + "\n" + long + "\n" + `{"url":"http://h/2"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, SkipsFile), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	var notes []string
	got, err := readJSONL[skip](outDirs{dir}, SkipsFile, &notes)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].URL != "http://h/1" || got[1].URL != "http://h/2" {
		t.Errorf("got %+v", got)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "ignored 1 malformed line(s), the first on line 2") {
		t.Errorf("notes = %q", notes)
	}
}
