package wacz_test

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/wacz"
)

// exampleCrawl writes what a crawl of one page leaves in dir: its WARC
// file and index under archive/, and its crawl.jsonl line.
func exampleCrawl(dir string) error {
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	w, err := archive.Open(archive.Options{Dir: filepath.Join(dir, "archive"), Software: "crawl/0.1.0",
		Now: func() time.Time { return at }})
	if err != nil {
		return err
	}
	body := "<html><head><title>Hello, archive</title></head><body>Hi</body></html>"
	err = w.WriteExchange(archive.Exchange{TargetURI: "http://example.com/", Date: at,
		Request:  []byte("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n"),
		Response: fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body)})
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	line, _ := json.Marshal(crawllog.CrawlEntry{Time: at, URL: "http://example.com/", Kind: "page", Status: 200, ContentType: "text/html"})
	return os.WriteFile(filepath.Join(dir, crawllog.CrawlLogFile), append(line, '\n'), 0o644)
}

func ExampleWrite() {
	dir, _ := os.MkdirTemp("", "crawl-out-")
	defer os.RemoveAll(dir)
	if err := exampleCrawl(dir); err != nil {
		fmt.Println(err)
		return
	}
	res, err := wacz.Write(dir, wacz.Options{Name: "example", Software: "crawl/0.1.0"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(filepath.Base(res.Path), res.Pages, "page,", res.Seeds, "seed")
	zr, _ := zip.OpenReader(res.Path)
	defer zr.Close()
	for _, f := range zr.File {
		fmt.Println(f.Name)
		if f.Name == wacz.PagesPath {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			fmt.Print(string(b))
		}
	}
	// Output:
	// example.wacz 1 page, 1 seed
	// archive/crawl-20260506070809-00001.warc.gz
	// indexes/index.cdx
	// pages/pages.jsonl
	// {"format":"json-pages-1.0","id":"pages","title":"All Pages"}
	// {"id":"552e8f212c424aa1","url":"http://example.com/","ts":"2026-05-06T07:08:09Z","title":"Hello, archive","seed":true,"depth":0}
	// datapackage.json
	// datapackage-digest.json
}
