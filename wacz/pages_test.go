package wacz

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
)

// TestPagesFromLogSeedsAndOrder covers how crawl.jsonl makes the page list:
// only 2xx HTML pages of kind "page" whose record the index holds; a seed
// is a depth-0 page without a parent or at the end of a seed's redirects,
// not a depth-0 page a sitemap listed; a URL fetched twice (a resumed
// crawl) is listed once, with the record of its first fetch; a torn line
// is counted and passed over.
func TestPagesFromLogSeedsAndOrder(t *testing.T) {
	t0 := time.Date(2026, 2, 3, 4, 5, 0, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	ts := func(s int) string { return at(s).Format(tsLayout) }
	const u = "http://example.com"
	lines := []crawllog.CrawlEntry{
		{Time: at(0), URL: u + "/robots.txt", Kind: "robots", Status: 200, ContentType: "text/plain"},
		{Time: at(1), URL: u + "/a", Kind: "page", Status: 301, Redirect: "/b"},
		{Time: at(2), URL: u + "/b", Kind: "page", Status: 302, Parent: u + "/a", Redirect: "/c"},
		{Time: at(3), URL: u + "/c", Kind: "page", Status: 200, ContentType: "text/html; charset=utf-8", Parent: u + "/b"},
		{Time: at(4), URL: u + "/linked", Kind: "page", Status: 200, ContentType: "text/html", Parent: u + "/c", Depth: 1},
		{Time: at(5), URL: u + "/listed", Kind: "page", Status: 200, ContentType: "text/html", Parent: u + "/sitemap.xml"},
		{Time: at(6), URL: u + "/style.html", Kind: "requisite", Status: 200, ContentType: "text/html", Parent: u + "/c", Depth: 1},
		{Time: at(7), URL: u + "/gone", Kind: "page", Status: 404, ContentType: "text/html", Parent: u + "/c", Depth: 1},
		{Time: at(8), URL: u + "/img", Kind: "page", Status: 200, ContentType: "image/png", Parent: u + "/c", Depth: 1},
		{Time: at(9), URL: u + "/unarchived", Kind: "page", Status: 200, ContentType: "text/html", Parent: u + "/c", Depth: 1},
		{Time: at(10), URL: u + "/seed2", Kind: "page", Status: 200, ContentType: "application/xhtml+xml"},
		{Time: at(11), URL: u + "/linked", Kind: "page", Status: 200, ContentType: "text/html", Parent: u + "/c", Depth: 1},
	}
	idx := &pageIndex{byURL: map[string][]loc{}}
	for _, e := range lines {
		if e.URL != u+"/unarchived" && e.Status == 200 {
			idx.byURL[e.URL] = append(idx.byURL[e.URL], loc{file: "a.warc.gz", ts: e.Time.Format(tsLayout)})
		}
	}
	dir := t.TempDir()
	var data []byte
	for _, e := range lines {
		b, _ := json.Marshal(e)
		data = append(append(data, b...), '\n')
	}
	data = append(data, `{"time":"2026-02-03T04:`...) // torn by a crash
	log := filepath.Join(dir, crawllog.CrawlLogFile)
	os.WriteFile(log, data, 0o644)

	pages, bad, err := pagesFromLog(log, idx)
	if err != nil {
		t.Fatal(err)
	}
	want := []page{
		{url: u + "/c", seed: true, at: loc{ts: ts(3)}},
		{url: u + "/linked", depth: 1, at: loc{ts: ts(4)}},
		{url: u + "/listed", at: loc{ts: ts(5)}},
		{url: u + "/seed2", seed: true, at: loc{ts: ts(10)}},
	}
	if bad != 1 || len(pages) != len(want) {
		t.Fatalf("pages %+v, %d bad lines; want %d pages, 1 bad", pages, bad, len(want))
	}
	for i, w := range want {
		p := pages[i]
		if p.url != w.url || p.seed != w.seed || p.depth != w.depth || p.at.ts != w.at.ts {
			t.Errorf("page %d: %+v, want %+v", i, p, w)
		}
	}
}

// TestPagesFromIndexWithoutLog covers a crawl directory without
// crawl.jsonl: every 2xx HTML response (and a revisit of one) is a page,
// in the order of the WARC files, none a seed.
func TestPagesFromIndexWithoutLog(t *testing.T) {
	idx := &pageIndex{byURL: map[string][]loc{}, byDigest: map[string]loc{}}
	idx.note("http://x/2", "text/html", "200", loc{file: "b", order: 1, offset: 5, digest: "sha1:B"})
	idx.note("http://x/1", "text/html", "200", loc{file: "a", order: 0, offset: 900, digest: "sha1:A"})
	idx.note("http://x/0", "text/html", "200", loc{file: "a", order: 0, offset: 10, digest: "sha1:Z"})
	idx.note("http://x/copy", "warc/revisit", "200", loc{file: "b", order: 1, offset: 50, digest: "sha1:A"})
	idx.note("http://x/img-copy", "warc/revisit", "200", loc{file: "b", order: 1, offset: 60, digest: "sha1:IMG"})
	idx.note("http://x/img", "image/png", "200", loc{file: "a", order: 0, offset: 20, digest: "sha1:IMG"})
	idx.note("http://x/404", "text/html", "404", loc{file: "a", order: 0, offset: 30})
	var got []string
	for _, p := range pagesFromIndex(idx) {
		got = append(got, p.url)
		if p.seed {
			t.Errorf("%s marked seed", p.url)
		}
	}
	want := []string{"http://x/0", "http://x/1", "http://x/2", "http://x/copy"}
	if len(got) != len(want) {
		t.Fatalf("pages %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("pages %v, want %v", got, want)
			break
		}
	}
}
