package wacz

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawler"
)

// The test site: a small web site on 127.0.0.1 with what a WACZ must carry
// and replay: HTML pages, a stylesheet and an image they need, pages in
// gzip, deflate and chunked encodings and in windows-1252, a redirect from
// a seed, two URLs with one payload (the second archived as a revisit),
// a 404, and a page robots.txt disallows.
const (
	siteRobots = "User-agent: *\nDisallow: /private\n"
	homeText   = "Welcome to the archived test garden"
	secretText = "This secret page must never be fetched"
	siteCSS    = "body { background-color: rgb(250, 240, 200); }\nh1 { color: rgb(20, 90, 160); }\n"
)

// The colour of the site's image, which a replay must show.
var logoColor = color.RGBA{R: 200, G: 30, B: 40, A: 255}

// sitePages are the HTML pages by path: title markup and body.
var sitePages = map[string]struct{ title, body string }{
	"/":               {"Home &amp; garden", `<h1>Garden</h1><p>` + homeText + `</p><img id="logo" src="/logo.png" alt="logo"> <a href="/about">about</a> <a href="/private/secret">secret</a> <a href="/gz">gz</a> <a href="/deflate">deflate</a> <a href="/chunked">chunked</a> <a href="/latin1">latin1</a> <a href="/meta1252">meta</a> <a href="/old">old</a> <a href="/missing">missing</a> <a href="/twin-a">twin a</a> <a href="/twin-b">twin b</a>`},
	"/about":          {"  About\n\tthis   site ", `<p>About the garden.</p><a href="/">home</a>`},
	"/landing":        {"Landing", `<p>Where the second seed leads.</p><a href="/">home</a>`},
	"/gz":             {"Zipped page", `<p>Sent with gzip.</p>`},
	"/deflate":        {"Deflated page", `<p>Sent with deflate.</p>`},
	"/chunked":        {"Chunked page", `<p>Sent in chunks.</p>`},
	"/twin-a":         {"Twin", `<p>Two URLs, one payload: the second is archived as a revisit.</p>`},
	"/twin-b":         {"Twin", `<p>Two URLs, one payload: the second is archived as a revisit.</p>`},
	"/private/secret": {"Secret", `<p>` + secretText + `</p>`},
}

// htmlPage renders a page of the site.
func htmlPage(title, body string) string {
	return `<!doctype html><html><head><meta charset="utf-8"><title>` + title +
		`</title><link rel="stylesheet" href="/style.css"></head><body>` + body + `</body></html>`
}

// logoPNG is the site's image: a 40x20 block of logoColor.
func logoPNG() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 40, 20))
	for y := 0; y < 20; y++ {
		for x := 0; x < 40; x++ {
			img.Set(x, y, logoColor)
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

// gzipped is s in gzip (RFC 1952).
func gzipped(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

// zlibbed is s in zlib-wrapped deflate (RFC 1950), HTTP's "deflate".
func zlibbed(s string) string {
	var b bytes.Buffer
	zw := zlib.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

// siteHandler serves the test site.
func siteHandler() http.Handler {
	logo := logoPNG()
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte(siteRobots))
	})
	mux.HandleFunc("/style.css", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/css")
		w.Write([]byte(siteCSS))
	})
	mux.HandleFunc("/logo.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(logo)
	})
	mux.HandleFunc("/seed2", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/landing", http.StatusFound) })
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/about", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/latin1", func(w http.ResponseWriter, r *http.Request) {
		// windows-1252 by the header: "Café" with é as the octet 0xE9.
		w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
		w.Write([]byte("<html><head><title>Caf\xe9 latin</title></head><body>ol\xe9</body></html>"))
	})
	mux.HandleFunc("/meta1252", func(w http.ResponseWriter, r *http.Request) {
		// windows-1252 by a <meta>: 0x80 is the euro sign there.
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><head><meta charset=\"windows-1252\"><title>Price 5 \x80</title></head><body>x</body></html>"))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		p, ok := sitePages[r.URL.Path]
		if !ok {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(htmlPage("Not here", "<p>404</p>")))
			return
		}
		body := []byte(htmlPage(p.title, p.body))
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/gz":
			body = []byte(gzipped(string(body)))
			w.Header().Set("Content-Encoding", "gzip")
		case "/deflate":
			body = []byte(zlibbed(string(body)))
			w.Header().Set("Content-Encoding", "deflate")
		case "/chunked":
			half := len(body) / 2
			w.Write(body[:half])
			w.(http.Flusher).Flush() // no Content-Length: chunked
			body = body[half:]
		}
		w.Write(body)
	})
	return mux
}

// siteCrawl is the output directory of one crawl of the test site, made
// once for the package's tests (which only read it and write WACZ files of
// their own names into it).
var siteCrawl struct {
	once sync.Once
	dir  string
	url  string
	err  error
	stop func()
}

// siteHits counts the requests the test site answered: a replay must add
// none.
var siteHits atomic.Int64

// TestMain removes the shared crawl when the tests end.
func TestMain(m *testing.M) {
	code := m.Run()
	if siteCrawl.stop != nil {
		siteCrawl.stop()
	}
	os.Exit(code)
}

// crawledSite returns the output directory of a crawl of the test site and
// the site's URL (ending without "/"). The site keeps running, so a test
// can tell the archive from the live site.
func crawledSite(t *testing.T) (dir, site string) {
	t.Helper()
	siteCrawl.once.Do(func() {
		h := siteHandler()
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			siteHits.Add(1)
			h.ServeHTTP(w, r)
		}))
		out, err := os.MkdirTemp("", "wacz-test-*")
		if err != nil {
			siteCrawl.err = err
			srv.Close()
			return
		}
		siteCrawl.stop = func() { srv.Close(); os.RemoveAll(out) }
		siteCrawl.dir, siteCrawl.url = out, srv.URL
		siteCrawl.err = runCrawl(out, srv.URL+"/", srv.URL+"/seed2")
	})
	if siteCrawl.err != nil {
		t.Fatalf("crawl of the test site: %v", siteCrawl.err)
	}
	return siteCrawl.dir, siteCrawl.url
}

// runCrawl crawls seeds into out with the crawler's defaults, its page
// requisites on and a short pace.
func runCrawl(out string, seeds ...string) error {
	cfg := config.Default()
	cfg.Out = out
	cfg.Politeness.DefaultDelay = 20 * time.Millisecond
	cfg.Fetch.Requisites = true
	cfg.Fetch.Timeout = 5 * time.Second
	cfg.Log.Progress = "never"
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := crawler.Run(ctx, cfg, crawler.Options{Seeds: seeds}); err != nil {
		return fmt.Errorf("crawl: %w", err)
	}
	return nil
}
