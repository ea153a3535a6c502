package wacz

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/crawllog"
)

// sparseWriter writes to f, seeking over runs of zeros instead of writing
// them, so a file of gigabytes of zeros costs no disk; finish gives the
// file its full length.
type sparseWriter struct {
	f    *os.File
	n    int64
	zero []byte
}

func (s *sparseWriter) Write(p []byte) (int, error) {
	if len(s.zero) < len(p) {
		s.zero = make([]byte, len(p))
	}
	if bytes.Equal(p, s.zero[:len(p)]) {
		s.n += int64(len(p))
		return len(p), nil
	}
	n, err := s.f.WriteAt(p, s.n)
	s.n += int64(n)
	return n, err
}

func (s *sparseWriter) finish() error { return s.f.Truncate(s.n) }

// zeros reads as n zero bytes.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	if z.n == 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), z.n)]
	clear(p)
	z.n -= int64(len(p))
	return len(p), nil
}

// bigWARC makes a crawl output directory whose one WARC file is larger than
// 4 GiB, sparse on disk: zeros, then at an offset past 4 GiB the records of
// one HTML page, which the index and crawl.jsonl name. It returns the
// directory, the page's URL, the file's size, and a reader of the same
// bytes that makes its zeros instead of reading them (reading gigabytes of
// a sparse file takes the kernel longer than the hashes take).
func bigWARC(t *testing.T) (dir, pageURL string, size int64, contents func() io.Reader) {
	t.Helper()
	small := t.TempDir()
	w, err := archive.Open(archive.Options{Dir: small, Software: "crawl/test"})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	pageURL = "http://example.com/far"
	body := "<html><head><title>Past four gigabytes</title></head><body>far</body></html>"
	err = w.WriteExchange(archive.Exchange{TargetURI: pageURL, Date: at,
		Request:  []byte("GET /far HTTP/1.1\r\nHost: example.com\r\n\r\n"),
		Response: fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(body), body)})
	if err == nil {
		err = w.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	warcs, _ := filepath.Glob(filepath.Join(small, "*.warc.gz"))
	records, err := os.ReadFile(warcs[0])
	if err != nil {
		t.Fatal(err)
	}
	const shift = 1<<32 + 64<<10
	size = shift + int64(len(records)) + 1<<20
	dir = t.TempDir()
	os.MkdirAll(filepath.Join(dir, archiveDir), 0o755)
	f, err := os.Create(filepath.Join(dir, archiveDir, "big.warc.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(records, shift); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(size); err != nil {
		t.Skipf("no sparse file of %d bytes here: %v", size, err)
	}
	// The small archive's index, moved into the big file.
	idx, _ := os.ReadFile(filepath.Join(small, archive.IndexName))
	var moved strings.Builder
	for _, line := range splitLines(string(idx)) {
		c, err := parseCDXLine(line)
		if err != nil {
			t.Fatal(err)
		}
		off, _ := strconv.ParseInt(c.str("offset"), 10, 64)
		c.set("offset", strconv.FormatInt(off+shift, 10))
		c.set("filename", "big.warc.gz")
		c.render(&moved)
	}
	os.WriteFile(filepath.Join(dir, archiveDir, archive.IndexName), []byte(moved.String()), 0o644)
	log, _ := json.Marshal(crawllog.CrawlEntry{Time: at, URL: pageURL, Kind: "page", Status: 200, ContentType: "text/html"})
	os.WriteFile(filepath.Join(dir, crawllog.CrawlLogFile), append(log, '\n'), 0o644)
	contents = func() io.Reader {
		return io.MultiReader(&zeros{shift}, bytes.NewReader(records), &zeros{size - shift - int64(len(records))})
	}
	return dir, pageURL, size, contents
}

// TestZIP64ForWARCsPast4GiB packages a WARC file of more than 4 GiB (sparse
// on disk, its zeros made rather than read while it is copied, and the
// WACZ written sparse too): archive/zip writes the ZIP64 records (PKWARE
// APPNOTE 4.3.14, 4.5.3), the result opens as a valid ZIP with the entry's
// full size, and the index and the page's title reach a record that lies
// past 4 GiB inside the stored file. About 4 GiB pass through SHA-256 and
// CRC-32: a few seconds, so -short skips it.
func TestZIP64ForWARCsPast4GiB(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 4 GiB through the hashes")
	}
	dir, pageURL, size, contents := bigWARC(t)
	src, err := openSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	src.open = func(string) (io.ReadCloser, error) { return io.NopCloser(contents()), nil }
	out, err := os.Create(filepath.Join(t.TempDir(), "big.wacz"))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	sw := &sparseWriter{f: out}
	res, err := pack(sw, src, Options{Name: "big", Title: "big", Software: "crawl/test", Created: time.Now().UTC()})
	if err != nil {
		t.Fatal(err)
	}
	if err := sw.finish(); err != nil {
		t.Fatal(err)
	}
	if res.WARCBytes != size || res.Pages != 1 {
		t.Fatalf("result %+v", res)
	}
	tail := make([]byte, 200)
	out.ReadAt(tail, sw.n-int64(len(tail)))
	if !bytes.Contains(tail, []byte("PK\x06\x06")) || !bytes.Contains(tail, []byte("PK\x06\x07")) {
		t.Error("no ZIP64 end of central directory record and locator")
	}
	zr, err := zip.NewReader(out, sw.n)
	if err != nil {
		t.Fatalf("the ZIP64 WACZ does not open: %v", err)
	}
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[f.Name] = f
	}
	big := files["archive/big.warc.gz"]
	if big == nil || big.UncompressedSize64 != uint64(size) || big.CompressedSize64 != uint64(size) {
		t.Fatalf("archive/big.warc.gz entry %+v, want %d bytes stored", big, size)
	}
	pages := readPages(t, files)
	if len(pages) != 1 || pages[0].URL != pageURL || pages[0].Title != "Past four gigabytes" {
		t.Errorf("pages %+v", pages)
	}
	var dp DataPackage
	json.Unmarshal(readEntry(t, files[DataPackagePath]), &dp)
	if len(dp.Resources) == 0 || dp.Resources[0].Bytes != size {
		t.Errorf("datapackage resources %+v", dp.Resources)
	}
	start, _ := big.DataOffset()
	for _, line := range splitLines(string(readEntry(t, files[IndexPath]))) {
		c, _ := parseCDXLine(line)
		off, _ := strconv.ParseInt(c.str("offset"), 10, 64)
		length, _ := strconv.ParseInt(c.str("length"), 10, 64)
		rec, err := archive.NewReader(io.NewSectionReader(out, start+off, length)).Next()
		if err != nil || rec.Get("WARC-Target-URI") != c.str("url") || off < 1<<32 {
			t.Errorf("index line %q: record %v, %v", line, rec, err)
		}
	}
}
