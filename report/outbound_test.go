package report

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/crawlproject/crawl/crawllog"
)

// writeLines writes v, one JSON value a line, to dir/name.
func writeLines[T any](t *testing.T, dir, name string, v []T) {
	t.Helper()
	var b strings.Builder
	for _, x := range v {
		line, err := json.Marshal(x)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOutboundLinksAreOneTable: a crawl of one site whose pages link to
// 600 other hosts gives sections to the hosts it contacted (the crawled
// one, and one whose queued pages a page limit skipped) only; the links
// out of scope are counted per host in one table, most linked first, its
// rows bounded.
func TestOutboundLinksAreOneTable(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	const site = "http://site.test:80"
	sum := summary{Started: t0, Finished: t0.Add(time.Minute), Agent: "testbot",
		Hosts:  []hostSummary{{Host: site, State: "done", Fetched: 2, PagesByStatus: map[string]int{"200": 2}}},
		Totals: totals{Fetched: 2}}
	b, _ := json.Marshal(sum)
	if err := os.WriteFile(filepath.Join(dir, SummaryFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	writeLines(t, dir, CrawlFile, []crawllog.CrawlEntry{
		{Time: t0, URL: "http://site.test/robots.txt", Host: site, Kind: "robots", Status: 200},
		{Time: t0.Add(time.Second), URL: "http://site.test/", Host: site, Kind: "page", Status: 200},
		{Time: t0.Add(2 * time.Second), URL: "http://site.test/a", Host: site, Kind: "page", Status: 200},
	})
	var skips []crawllog.SkipEntry
	for i := range 600 {
		h := fmt.Sprintf("http://out%03d.test:80", i)
		for j := range 1 + i%3 {
			skips = append(skips, crawllog.SkipEntry{Time: t0, URL: fmt.Sprintf("http://out%03d.test/%d", i, j), Host: h,
				Reason: "out-of-scope", Parent: "http://site.test/"})
		}
	}
	for j := range 41 {
		skips = append(skips, crawllog.SkipEntry{Time: t0, URL: fmt.Sprintf("http://popular.test/%d", j), Host: "http://popular.test:80",
			Reason: "out-of-scope", Parent: "http://site.test/"})
	}
	skips = append(skips,
		crawllog.SkipEntry{Time: t0, URL: "http://limited.test/", Host: "http://limited.test:80", Reason: "max-pages", Parent: "http://site.test/"},
		crawllog.SkipEntry{Time: t0, URL: "http://site.test/%zz", Host: "", Reason: "invalid-url", Parent: "http://site.test/"})
	writeLines(t, dir, SkipsFile, skips)
	if err := Write(dir); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(page)))
	if err != nil {
		t.Fatal(err)
	}
	sections := hostSections(doc)
	if len(sections) != 2 || sections[site] == nil || sections["http://limited.test:80"] == nil {
		t.Errorf("host sections %v; want the crawled host and the host skipped by the page limit", keys(sections))
	}
	chips := findAll(doc, func(n *html.Node) bool { return n.Data == "a" && n.Parent != nil && n.Parent.Data == "nav" })
	if len(chips) != 2 {
		t.Errorf("%d host chips, want 2", len(chips))
	}
	out := byID(doc, "outbound")
	if out == nil {
		t.Fatal("no table of links out of scope")
	}
	rows := findAll(doc, func(n *html.Node) bool {
		return n.Data == "tr" && n.Parent != nil && n.Parent.Data == "tbody" && n.Parent.Parent != nil && n.Parent.Parent.Parent != nil && hasClass(n.Parent.Parent.Parent, "outbound")
	})
	if len(rows) != maxOutboundRows+1 {
		t.Fatalf("%d rows, want %d hosts and a line for the rest", len(rows), maxOutboundRows)
	}
	if first := text(rows[0]); !strings.Contains(first, "http://popular.test:80") || !strings.Contains(first, "41") {
		t.Errorf("first row %q; want popular.test with its 41 links", first)
	}
	if last := text(rows[len(rows)-1]); !strings.Contains(last, "and 101 more host(s)") {
		t.Errorf("last row %q; want the 101 hosts past the table counted", last)
	}
	if intro := text(out.NextSibling.NextSibling); !strings.Contains(intro, "1241 link(s) to 601 host(s)") {
		t.Errorf("intro %q; want 1241 links to 601 hosts", intro)
	}
	if len(page) > 300<<10 {
		t.Errorf("report of %d bytes; the outbound links must not make it grow by a section each", len(page))
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
