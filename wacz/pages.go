package wacz

import (
	"bufio"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/scheduler"
)

// PagesPath is where the WACZ lists its pages (WACZ 1.1.1, "pages.jsonl").
const PagesPath = "pages/pages.jsonl"

// pagesHeader is the first line of pages.jsonl.
const pagesHeader = `{"format":"json-pages-1.0","id":"pages","title":"All Pages"}`

// A page is one line of pages.jsonl, before its title is read.
type page struct {
	url   string
	at    loc
	seed  bool
	depth int
}

// pageLine is the JSON of one line of pages.jsonl.
type pageLine struct {
	ID    string `json:"id"`
	URL   string `json:"url"`
	TS    string `json:"ts"`
	Title string `json:"title,omitempty"`
	Seed  bool   `json:"seed"`
	Depth int    `json:"depth"`
}

// pageList is what writePages wrote.
type pageList struct {
	pages, seeds, badLines int
	main                   *pageLine // the first page (a seed if any)
	first, last            string    // the earliest and latest ts
}

// writePages writes PagesPath: the header, then the pages, seeds first.
func (p *packer) writePages(src *source, idx *pageIndex) (pageList, error) {
	var list pageList
	var pages []page
	if src.crawlLog != "" {
		var err error
		if pages, list.badLines, err = pagesFromLog(src.crawlLog, idx); err != nil {
			return list, err
		}
	} else {
		pages = pagesFromIndex(idx)
	}
	// Seeds first; each group stays in crawl order.
	slices.SortStableFunc(pages, func(a, b page) int {
		switch {
		case a.seed == b.seed:
			return 0
		case a.seed:
			return -1
		}
		return 1
	})
	e, err := p.create(PagesPath, false)
	if err != nil {
		return list, err
	}
	bw := bufio.NewWriter(e)
	bw.WriteString(pagesHeader + "\n")
	titles := &titleReader{dir: src.dir, byDigest: idx.byDigest}
	defer titles.close()
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	for _, pg := range pages {
		line := pageLine{ID: pageID(pg.url, pg.at.ts), URL: pg.url, TS: rfc3339(pg.at.ts), Title: titles.title(pg.at),
			Seed: pg.seed, Depth: pg.depth}
		if err := enc.Encode(line); err != nil {
			return list, fmt.Errorf("wacz: %s: %w", PagesPath, err)
		}
		list.add(line)
	}
	if err := bw.Flush(); err != nil {
		return list, fmt.Errorf("wacz: %s: %w", PagesPath, err)
	}
	p.list(e)
	return list, nil
}

func (l *pageList) add(line pageLine) {
	l.pages++
	if line.Seed {
		l.seeds++
	}
	if l.main == nil {
		l.main = &line
	}
	if l.first == "" || line.TS < l.first {
		l.first = line.TS
	}
	l.last = max(l.last, line.TS)
}

// pagesFromLog lists the pages of crawl.jsonl in crawl order (see the
// package doc) with the records the index holds for them, and counts the
// lines that are not JSON.
func pagesFromLog(name string, idx *pageIndex) (pages []page, bad int, err error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, fmt.Errorf("wacz: %w", err)
	}
	defer f.Close()
	seedRedirected := map[string]bool{}
	listed := map[string]bool{}
	bad, _, err = crawllog.ReadJSONL(f, func(e crawllog.CrawlEntry) {
		if pg, ok := pageOf(e, idx, seedRedirected); ok && !listed[pg.url] {
			listed[pg.url] = true
			pages = append(pages, pg)
		}
	})
	if err != nil {
		return nil, 0, fmt.Errorf("wacz: %s: %w", name, err)
	}
	return pages, bad, nil
}

// pageOf returns the page of the crawl log line e, if it is one whose
// response the index holds. seedRedirected holds the seeds (and seed
// redirect targets) that answered with a redirect: their targets are seeds
// too.
func pageOf(e crawllog.CrawlEntry, idx *pageIndex, seedRedirected map[string]bool) (page, bool) {
	if e.Kind != scheduler.KindPage.String() {
		return page{}, false
	}
	seed := e.Depth == 0 && (e.Parent == "" || seedRedirected[e.Parent])
	if seed && e.Status >= 300 && e.Status <= 399 {
		seedRedirected[e.URL] = true
	}
	if e.Status < 200 || e.Status > 299 || !isHTML(e.ContentType) {
		return page{}, false
	}
	at, ok := idx.find(e.URL, e.Time.UTC().Format(tsLayout))
	if !ok {
		return page{}, false
	}
	return page{url: e.URL, at: at, seed: seed, depth: e.Depth}, true
}

// find returns the record of url with timestamp ts or, when no record has
// it, the first record of url.
func (idx *pageIndex) find(url, ts string) (loc, bool) {
	locs := idx.byURL[url]
	if len(locs) == 0 {
		return loc{}, false
	}
	for _, l := range locs {
		if l.ts == ts {
			return l, true
		}
	}
	return locs[0], true
}

// pagesFromIndex lists the pages of a crawl without a crawl log: every 2xx
// HTML response (and revisit of one) once, in the order of the WARC files.
func pagesFromIndex(idx *pageIndex) []page {
	var pages []page
	for url, locs := range idx.byURL {
		for _, l := range locs {
			if _, ok := idx.byDigest[l.digest]; ok || !l.revisit {
				pages = append(pages, page{url: url, at: l})
				break
			}
		}
	}
	slices.SortFunc(pages, func(a, b page) int {
		if c := cmp.Compare(a.at.order, b.at.order); c != 0 {
			return c
		}
		return cmp.Compare(a.at.offset, b.at.offset)
	})
	return pages
}

// tsLayout is the layout of a CDXJ timestamp.
const tsLayout = "20060102150405"

// rfc3339 turns a CDXJ timestamp into the RFC 3339 form pages.jsonl wants;
// a timestamp that does not parse is returned as it is.
func rfc3339(ts string) string {
	t, err := time.Parse(tsLayout, ts)
	if err != nil {
		return ts
	}
	return t.UTC().Format(time.RFC3339)
}

// pageID is the id of a page: the same for the same URL and timestamp.
func pageID(url, ts string) string {
	sum := sha256.Sum256([]byte(url + " " + ts))
	return hex.EncodeToString(sum[:8])
}
