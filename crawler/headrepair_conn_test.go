package crawler

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/internal/wiretest"
)

// Head repair end to end: a site whose guestbook script puts a
// stray line in its heads is crawled whole. Each page is fetched once,
// archived byte for byte as received, its links followed; the metadata
// record and the crawl log say what was repaired; the host is not dropped
// though every guestbook page would fail unrepaired (max_failures is 2
// here).
func TestCrawlReadsPagesWithBrokenHeads(t *testing.T) {
	t.Parallel()
	const pages = 5
	routes := map[string]wiretest.Route{}
	var links strings.Builder
	for i := range pages {
		body := fmt.Sprintf(`<html><a href="/from-guestbook-%d">next</a></html>`, i)
		routes[fmt.Sprintf("/cgi-bin/guestbook.cgi?page=%d", i)] = wiretest.Route{Resp: fmt.Sprintf(
			"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nDEBUG: user=guest\r\nWarning - could not open counter.dat\r\nContent-Length: %d\r\n\r\n%s", len(body), body)}
		fmt.Fprintf(&links, `<a href="/cgi-bin/guestbook.cgi?page=%d">g</a>`, i)
	}
	lower := `<html><a href="/from-lower">next</a></html>`
	routes["/lower"] = wiretest.Route{Resp: fmt.Sprintf("http/1.1 200 OK\r\nContent-Type: text/html\r\nX(Powered)By: PHP/4.0\r\nContent-Length: %d\r\n\r\n%s", len(lower), lower)}
	links.WriteString(`<a href="/lower">l</a><a href="/plain">p</a>`)
	index := links.String()
	routes["/"] = wiretest.Route{Resp: fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(index), index)}
	routes["/plain"] = wiretest.Route{Resp: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 4\r\n\r\nfine"}
	s := wiretest.NewServer(t, routes, nil)
	cfg := testConfig(t)
	cfg.Politeness.DefaultDelay = 10 * time.Millisecond
	sum := crawlFor(t, cfg, s.URL("/"))

	recs := wiretest.WARCRecords(t, cfg.Out)
	entries := map[string]crawllog.CrawlEntry{}
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		entries[e.URL] = e
	}
	broken := []string{"/lower"}
	for i := range pages {
		broken = append(broken, fmt.Sprintf("/cgi-bin/guestbook.cgi?page=%d", i))
	}
	for _, path := range broken {
		target := s.URL(path)
		if n := len(s.Requests(path)); n != 1 {
			t.Errorf("%s requested %d times, want once", path, n)
		}
		resps, meta := wiretest.RecordsOf(recs, "response", target), wiretest.RecordsOf(recs, "metadata", target)
		if len(resps) != 1 || len(meta) != 1 {
			t.Errorf("%s: %d response and %d metadata records, want 1 each", path, len(resps), len(meta))
			continue
		}
		if string(resps[0].Block) != routes[path].Resp {
			t.Errorf("%s: response record\n%q\nwant the bytes received\n%q", path, resps[0].Block, routes[path].Resp)
		}
		if m := string(meta[0].Block); !strings.Contains(m, "http-head-repair: line ") || !strings.Contains(m, "outlink: ") {
			t.Errorf("%s: metadata record names no repair or no outlink:\n%s", path, m)
		}
		e := entries[target]
		if e.Status != 200 || e.Error != "" || !strings.HasPrefix(e.Note, "response head repaired before parsing") || e.ContentType != "text/html" {
			t.Errorf("%s: crawl log %+v: want 200, no error, a note saying the head was repaired", path, e)
		}
	}
	if m := string(wiretest.RecordsOf(recs, "metadata", s.URL("/lower"))[0].Block); !strings.Contains(m, `"http/" written "HTTP/"`) ||
		!strings.Contains(m, "field name is not a token") {
		t.Errorf("/lower metadata does not list both repairs:\n%s", m)
	}
	for _, path := range []string{"/from-lower", "/from-guestbook-0", fmt.Sprintf("/from-guestbook-%d", pages-1), "/plain"} {
		if len(s.Requests(path)) != 1 {
			t.Errorf("%s was not requested once: the links of the repaired pages were not followed", path)
		}
	}
	if e := entries[s.URL("/plain")]; e.Note != "" {
		t.Errorf("/plain: note %q on a sound answer", e.Note)
	}
	if sum.Totals.Errors != 0 || len(sum.Hosts) != 1 || sum.Hosts[0].State == "dropped" || sum.Hosts[0].Errors != 0 {
		t.Errorf("totals %+v, hosts %+v: want no errors, the host not dropped", sum.Totals, sum.Hosts)
	}
}
