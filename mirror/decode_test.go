package mirror

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/andybalholm/brotli"
)

// brBytes is s in the br coding (RFC 7932).
func brBytes(s string) string {
	var b bytes.Buffer
	bw := brotli.NewWriter(&b)
	bw.Write([]byte(s))
	bw.Close()
	return b.String()
}

// TestMirrorDecodesEveryCodingTheCrawlerAsksFor: the crawler asks for gzip
// and br (RFC 9110 12.5.3), so the mirror undoes both, alone, in a list
// (RFC 9110 8.4: the last applied undone first) and inside a chunked
// transfer coding; a coding it cannot undo leaves the body in the WARC
// only, with no error.
func TestMirrorDecodesEveryCodingTheCrawlerAsksFor(t *testing.T) {
	dir, w, must := openMirrorWriter(t)
	coded := func(url, path, head, body string) {
		e := page(url, path, "")
		e.Response = []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n%s\r\n%s", head, body))
		must(e)
	}
	br := brBytes("<p>br page</p>")
	coded("http://example.com/br.html", "/br.html", fmt.Sprintf("Content-Encoding: br\r\nContent-Length: %d\r\n", len(br)), br)
	both := brBytes(gzipBytes("<p>gzip then br</p>"))
	coded("http://example.com/both.html", "/both.html", fmt.Sprintf("Content-Encoding: gzip, br\r\nContent-Length: %d\r\n", len(both)), both)
	coded("http://example.com/chunked.html", "/chunked.html", "Content-Encoding: br\r\nTransfer-Encoding: chunked\r\n",
		fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(br), br))
	coded("http://example.com/zstd.html", "/zstd.html", "Content-Encoding: zstd\r\nContent-Length: 4\r\n", "\x28\xb5\x2f\xfd")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "mirror")
	for url, want := range map[string]string{
		"http://example.com/br.html":      "<p>br page</p>",
		"http://example.com/both.html":    "<p>gzip then br</p>",
		"http://example.com/chunked.html": "<p>br page</p>",
	} {
		if b, err := os.ReadFile(mustMirrorPath(t, root, url)); err != nil || string(b) != want {
			t.Errorf("%s: mirror file %q, %v; want %q", url, b, err, want)
		}
	}
	if _, err := os.Stat(mustMirrorPath(t, root, "http://example.com/zstd.html")); !os.IsNotExist(err) {
		t.Errorf("a zstd body was mirrored (%v); it stays in the WARC only", err)
	}
}
