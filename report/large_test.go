package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/crawlproject/crawl/crawllog"
)

// renderWithin renders the report of dir read within lim.
func renderWithin(t *testing.T, dir string, lim limits) string {
	t.Helper()
	in, err := readWithin(dir, lim)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := render(&b, in); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A crawl reported from counts, with a section for every host, shows what
// the report read whole shows: counting in time order one request at a
// time loses nothing the page draws, counts or lists. Only the hosts table
// is in another order (hosts that most need a look first).
func TestCountedReportMatchesWholeReport(t *testing.T) {
	for _, dir := range []string{fixtureDir + "/demo", fixtureDir + "/hostile", fixtureDir + "/partial", screenshotDir} {
		t.Run(dir, func(t *testing.T) {
			src := copyDir(t, dir)
			whole := renderWithin(t, src, defaultLimits())
			counted := renderWithin(t, src, limits{held: 1, sections: 1000, rows: 1000})
			counted = dropNote(counted, "This crawl made ")
			whole, counted = sortHostRows(whole), sortHostRows(counted)
			if counted != whole {
				i := 0
				for i < len(whole) && i < len(counted) && whole[i] == counted[i] {
					i++
				}
				t.Errorf("the counted report differs at octet %d:\nwhole:   %q\ncounted: %q", i, clip(whole, i), clip(counted, i))
			}
		})
	}
}

// dropNote removes the list item of the input notes that starts with
// prefix, and the notes list if it held only that.
func dropNote(page, prefix string) string {
	i := strings.Index(page, "<li>"+prefix)
	if i < 0 {
		return page
	}
	j := strings.Index(page[i:], "</li>") + i + len("</li>")
	page = page[:i] + page[j:]
	return strings.Replace(page, `<h3>Notes on the input</h3><ul class="plain"></ul>`, "", 1)
}

// sortHostRows puts the rows of the hosts table in order of their text.
func sortHostRows(page string) string {
	i := strings.Index(page, "<h3>Hosts</h3>")
	start := strings.Index(page[i:], "<tbody>") + i + len("<tbody>")
	end := strings.Index(page[start:], "</tbody>") + start
	rows := strings.SplitAfter(page[start:end], "</tr>")
	slices.Sort(rows)
	return page[:start] + strings.Join(rows, "") + page[end:]
}

func clip(s string, i int) string {
	return s[max(i-80, 0):min(i+120, len(s))]
}

// writeCrawl writes a crawl of hosts hosts of n requests each, a second
// apart per host, all hosts interleaved in the log, to a new directory.
// shortHost's requests come half a second apart under a 1 s pace.
func writeCrawl(t *testing.T, hosts, n, shortHost int) string {
	t.Helper()
	dir := t.TempDir()
	s := summary{Started: t0, Finished: at(float64(n + 1)), Agent: "crawl"}
	var log bytes.Buffer
	for i := range n {
		for h := range hosts {
			host := fmt.Sprintf("http://h%d.test", h)
			step := 1.0
			if h == shortHost {
				step = 0.5
			}
			e := crawllog.CrawlEntry{Time: at(float64(i) * step), URL: fmt.Sprintf("%s/p%d", host, i), Host: host,
				Kind: "page", Status: 200, PaceSeconds: 1, PaceRule: "crawl-delay 1s (line 2)"}
			b, _ := json.Marshal(e)
			log.Write(append(b, '\n'))
		}
	}
	for h := range hosts {
		s.Hosts = append(s.Hosts, hostSummary{Host: fmt.Sprintf("http://h%d.test", h), State: "done", Fetched: n})
	}
	b, _ := json.Marshal(s)
	if err := os.WriteFile(filepath.Join(dir, SummaryFile), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, CrawlFile), log.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Beyond its bounds the report keeps sections for the hosts that most need
// a look (a host with short gaps first), still counts every request and
// every short gap, lists a bounded hosts table, and holds only the first
// requests of the hosts with a section.
func TestCountedReportBounds(t *testing.T) {
	dir := writeCrawl(t, 30, 70, 25)
	in, err := readWithin(dir, limits{held: 10, sections: 5, rows: 8})
	if err != nil {
		t.Fatal(err)
	}
	if got, max := len(in.requests), 5*(in.large.marks+1); got > max {
		t.Errorf("held %d requests, want at most %d", got, max)
	}
	v := buildView(in, "")
	if len(v.Hosts) != 5 || v.Hosts[0].Host != "http://h0.test" {
		t.Fatalf("%d sections, first %s; want 5 in page order", len(v.Hosts), v.Hosts[0].Host)
	}
	found := false
	for _, hv := range v.Hosts {
		if hv.Host == "http://h25.test" {
			found = true
			if tl := hv.Timeline; tl.Short != 69 || tl.Requests != 70 {
				t.Errorf("h25 timeline: %d short gaps in %d requests, want 69 in 70", tl.Short, tl.Requests)
			}
		}
		if hv.Timeline.Requests != 70 || len(hv.Requests) != maxRequestRows || hv.RequestsMore != 70-maxRequestRows {
			t.Errorf("%s: %d requests counted, %d rows left out", hv.Host, hv.Timeline.Requests, hv.RequestsMore)
		}
	}
	if !found {
		t.Error("the host with short gaps has no section")
	}
	if len(v.Table) != 8 || v.TableMore != 22 || v.Table[0].Host != "http://h25.test" {
		t.Errorf("hosts table: %d rows (first %s), %d more; want 8 rows, the host with short gaps first, 22 more", len(v.Table), v.Table[0].Host, v.TableMore)
	}
	if o := v.Overview; o.Requests != 2100 || o.ShortGaps != 69 {
		t.Errorf("overview: %d requests, %d short gaps; want 2100 and 69", o.Requests, o.ShortGaps)
	}
}
