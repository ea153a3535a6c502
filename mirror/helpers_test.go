package mirror

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
)

// newMirror is New as archive.Options.NewMirror takes it.
func newMirror(root string) archive.Mirror { return New(root) }

// options are the archive options of a Writer in dir with the mirror on.
func options(dir string) archive.Options {
	return archive.Options{Dir: dir, NewMirror: newMirror}
}

// page builds a simple exchange for url with the given body.
func page(url, path, body string) archive.Exchange {
	return archive.Exchange{
		TargetURI: url,
		Date:      time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC),
		IP:        "127.0.0.1",
		Request:   []byte("GET " + path + " HTTP/1.1\r\nHost: example.com\r\n\r\n"),
		Response: []byte(fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s",
			len(body), body)),
	}
}

// relLink is the link a rewritten page holds to the file at the relative
// slash-separated path rel: rel percent-encoded as a URL path, so that a
// browser asks for that file ("b?x=1" is "b%3Fx=1", "a%2Fb" "a%252Fb").
func relLink(rel string) string { return (&url.URL{Path: rel}).String() }

// openMirrorWriter opens a Writer with the mirror on in a new directory,
// and returns it with a WriteExchange that fails the test on error.
func openMirrorWriter(t *testing.T) (string, *archive.Writer, func(archive.Exchange)) {
	t.Helper()
	dir := t.TempDir()
	w, err := archive.Open(options(dir))
	if err != nil {
		t.Fatal(err)
	}
	return dir, w, func(e archive.Exchange) {
		t.Helper()
		if err := w.WriteExchange(e); err != nil {
			t.Fatal(err)
		}
	}
}

// gzipBytes is s compressed as one gzip member.
func gzipBytes(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

// indexLines counts the lines of dir's index.cdxj.
func indexLines(t *testing.T, dir string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, archive.IndexName))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}

// warcFiles returns the WARC files of dir in name order.
func warcFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	return files
}
