package archive

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchPages makes n distinct HTML pages of about size bytes, built from
// varied markup and words so they compress like real pages (not like one
// repeated string).
func benchPages(n, size int) [][]byte {
	rng := rand.New(rand.NewPCG(7, 8))
	words := strings.Fields("the crawler fetches pages politely and archives every response with its headers " +
		"robots txt crawl delay request rate visit time sitemap host queue frontier scheduler archive mirror " +
		"index replay pywb warcio heritrix wget record digest payload block gzip member rotation resume")
	tags := []string{"<p>", "</p>\n", "<li>", "</li>\n", "<a href=\"/page/%d\">", "</a>", "<div class=\"c%d\">", "</div>\n"}
	pages := make([][]byte, n)
	for i := range pages {
		var b strings.Builder
		fmt.Fprintf(&b, "<!doctype html><html><head><title>Page %d</title></head><body>\n", i)
		for b.Len() < size {
			t := tags[rng.IntN(len(tags))]
			if strings.Contains(t, "%d") {
				t = fmt.Sprintf(t, rng.IntN(100000))
			}
			b.WriteString(t)
			for range 1 + rng.IntN(12) {
				b.WriteString(words[rng.IntN(len(words))])
				b.WriteByte(' ')
			}
		}
		b.WriteString("</body></html>")
		body := b.String()[:size]
		resp := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n"+
			"Date: Tue, 03 Mar 2026 10:00:00 GMT\r\nServer: bench\r\n\r\n%s", len(body), body)
		pages[i] = []byte(resp)
	}
	return pages
}

// BenchmarkWrite10kPages writes 10,000 HTML pages of 20 KB (request,
// response and metadata records each), gzip at its default level, through
// one goroutine; MB/s counts response bytes.
func BenchmarkWrite10kPages(b *testing.B) { benchWrite10k(b, 0) }

// BenchmarkWrite10kPagesBestSpeed is BenchmarkWrite10kPages with
// Options.GzipLevel 1, for comparison (larger files).
func BenchmarkWrite10kPagesBestSpeed(b *testing.B) { benchWrite10k(b, 1) }

func benchWrite10k(b *testing.B, level int) {
	const n, size = 10000, 20 << 10
	pages := benchPages(n, size)
	req := []byte("GET /page HTTP/1.1\r\nHost: example.com\r\nUser-Agent: crawl/1.0\r\nAccept-Encoding: gzip\r\n\r\n")
	meta := []Field{{"pace", "1s"}, {"pace-source", "config"}, {"outlink", "http://example.com/next"}}
	total := 0
	for _, p := range pages {
		total += len(p)
	}
	b.SetBytes(int64(total))
	b.ReportAllocs()
	date := time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)
	var warcBytes int64
	for b.Loop() {
		dir := b.TempDir()
		w, err := Open(Options{Dir: dir, MaxFileSize: 100 << 20, GzipLevel: level})
		if err != nil {
			b.Fatal(err)
		}
		for i, p := range pages {
			err := w.WriteExchange(Exchange{TargetURI: fmt.Sprintf("http://example.com/page/%d", i), Date: date,
				IP: "192.0.2.1", Request: req, Response: p, Metadata: meta})
			if err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		warcBytes = warcSize(b, dir)
		b.StartTimer()
	}
	// The size side of the speed: WARC bytes (all records, all files) per
	// page, and input response bytes per WARC byte.
	b.ReportMetric(float64(warcBytes)/n, "warcB/page")
	b.ReportMetric(float64(total)/float64(warcBytes), "ratio")
}

// warcSize sums the sizes of dir's WARC files.
func warcSize(b *testing.B, dir string) int64 {
	files, err := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if err != nil || len(files) == 0 {
		b.Fatalf("no warc files in %s: %v", dir, err)
	}
	var size int64
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			b.Fatal(err)
		}
		size += st.Size()
	}
	return size
}

// BenchmarkWriteExchangeParallel writes 20 KB pages from GOMAXPROCS
// goroutines: compression runs outside the lock, so it scales with cores.
func BenchmarkWriteExchangeParallel(b *testing.B) {
	pages := benchPages(256, 20<<10)
	req := []byte("GET /page HTTP/1.1\r\nHost: example.com\r\n\r\n")
	b.SetBytes(int64(len(pages[0])))
	w, err := Open(Options{Dir: b.TempDir(), MaxFileSize: 256 << 20})
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			i++
			err := w.WriteExchange(Exchange{TargetURI: "http://example.com/p", Request: req, Response: pages[i%len(pages)]})
			if err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	w.Close()
}
