package crawler

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gocolly/colly/v2"
)

// pageTransport answers every request with one HTML page, in memory.
type pageTransport []byte

func (p pageTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Request: r,
		Header:        http.Header{"Content-Type": {"text/html; charset=utf-8"}},
		Body:          io.NopCloser(bytes.NewReader(p)),
		ContentLength: int64(len(p))}, nil
}

// styledPage is a page of about size octets of paragraphs, each with an
// image and a link, inside depth nested <div style> wrappers, as page
// builders nest them.
func styledPage(size, depth int) []byte {
	var b strings.Builder
	b.WriteString(`<!doctype html><html><head><title>t</title><link rel="stylesheet" href="/s.css"></head><body style="margin:0">`)
	for i := range depth {
		fmt.Fprintf(&b, `<div style="padding:%dpx">`, i)
	}
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `<p>Paragraph %d with some words of text in it. <img src="/i%d.png" srcset="/i%d-2x.png 2x"> <a href="/p%d">next</a></p>`, i, i, i, i)
	}
	b.WriteString(strings.Repeat("</div>", depth) + "</body></html>")
	return []byte(b.String())
}

// BenchmarkPageRequisites reads the links and requisites of one page
// through the crawl's collector (fetch.requisites on): a 100 KB page with
// 3 styled wrappers and an 870 KB page with 31.
func BenchmarkPageRequisites(b *testing.B) {
	for _, tc := range []struct{ size, depth int }{{100 << 10, 3}, {870 << 10, 31}} {
		b.Run(fmt.Sprintf("%dKB-%dstyled", tc.size>>10, tc.depth), func(b *testing.B) {
			page := styledPage(tc.size, tc.depth)
			cfg := testConfig(b)
			cfg.Fetch.Requisites = true
			budget := newParseBudget(64 << 20)
			col := newCollector(pageTransport(page), cfg, budget)
			b.SetBytes(int64(len(page)))
			for b.Loop() {
				j := &job{}
				ctx := colly.NewContext()
				ctx.Put("job", j)
				if err := col.Request(http.MethodGet, "http://bench.test/page.html", nil, ctx, nil); err != nil {
					b.Fatal(err)
				}
				if len(j.links.urls) == 0 {
					b.Fatal("no link read")
				}
				budget.give(j.parsing)
			}
		})
	}
}
