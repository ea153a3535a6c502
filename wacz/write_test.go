package wacz

import (
	"archive/zip"
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
)

// openWACZ opens a WACZ and returns its entries by name.
func openWACZ(t *testing.T, path string) (*zip.ReadCloser, map[string]*zip.File) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { zr.Close() })
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[f.Name] = f
	}
	return zr, files
}

func readEntry(t *testing.T, f *zip.File) []byte {
	t.Helper()
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("%s: %v", f.Name, err)
	}
	return b
}

// splitLines returns the lines of s, without the empty one after the last
// newline.
func splitLines(s string) []string {
	if s = strings.TrimSuffix(s, "\n"); s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// TestWACZLayoutAndManifest checks the layout WACZ 1.1.1 "Directory Layout"
// asks for, that the WARC files are stored uncompressed by the ZIP ("Zip
// Compression"), and that datapackage.json lists every file with the
// SHA-256 and size of its entry and datapackage-digest.json the hash of
// datapackage.json.
func TestWACZLayoutAndManifest(t *testing.T) {
	dir, _ := crawledSite(t)
	created := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	res, err := Write(dir, Options{Name: "layout", Title: "Test garden", Software: "crawl/test", Created: created})
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != filepath.Join(dir, "layout.wacz") {
		t.Errorf("path %s", res.Path)
	}
	if st, err := os.Stat(res.Path); err != nil || st.Size() != res.Bytes {
		t.Errorf("result says %d bytes, file: %v %v", res.Bytes, st, err)
	}
	zr, files := openWACZ(t, res.Path)
	var warcs []string
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "archive/") {
			warcs = append(warcs, f.Name)
			if f.Method != zip.Store {
				t.Errorf("%s compressed with method %d, want stored", f.Name, f.Method)
			}
		}
		if !f.Modified.Equal(created) {
			t.Errorf("%s modified %s, want %s", f.Name, f.Modified, created)
		}
	}
	if len(warcs) == 0 || len(warcs) != res.WARCFiles {
		t.Errorf("archive/ entries %v, result says %d", warcs, res.WARCFiles)
	}
	for _, name := range []string{IndexPath, PagesPath, DataPackagePath, DataPackageDigestPath} {
		if files[name] == nil {
			t.Errorf("no %s in the WACZ", name)
		}
	}
	raw := readEntry(t, files[DataPackagePath])
	var dp DataPackage
	if err := json.Unmarshal(raw, &dp); err != nil {
		t.Fatal(err)
	}
	if dp.Profile != "data-package" || dp.WACZVersion != "1.1.1" || dp.Title != "Test garden" || dp.Software != "crawl/test" ||
		dp.Created != "2026-03-04T05:06:07Z" {
		t.Errorf("datapackage.json %+v", dp)
	}
	if dp.MainPageURL != siteCrawl.url+"/" || dp.MainPageDate == "" {
		t.Errorf("main page %q %q, want the first seed", dp.MainPageURL, dp.MainPageDate)
	}
	listed := map[string]bool{}
	for _, r := range dp.Resources {
		listed[r.Path] = true
		f := files[r.Path]
		if f == nil {
			t.Errorf("datapackage.json lists %s, which the WACZ lacks", r.Path)
			continue
		}
		b := readEntry(t, f)
		if r.Hash != sha256Hex(b) || r.Bytes != int64(len(b)) || r.Name != filepath.Base(r.Path) {
			t.Errorf("%s listed as %s %d bytes, entry is %s %d bytes", r.Path, r.Hash, r.Bytes, sha256Hex(b), len(b))
		}
	}
	for name := range files {
		if !listed[name] && name != DataPackagePath && name != DataPackageDigestPath {
			t.Errorf("%s is in the WACZ but not in datapackage.json", name)
		}
	}
	var dg DataPackageDigest
	if err := json.Unmarshal(readEntry(t, files[DataPackageDigestPath]), &dg); err != nil {
		t.Fatal(err)
	}
	if dg.Path != DataPackagePath || dg.Hash != sha256Hex(raw) {
		t.Errorf("datapackage-digest.json %+v, datapackage.json hashes to %s", dg, sha256Hex(raw))
	}
}

// TestIndexPointsIntoStoredWARCs reads, for every line of the WACZ's index,
// the record at its offset and length inside the WARC file as stored in
// the ZIP (as a replay tool reads it, by range): it must be the response
// or revisit of that URL at that time. Filenames are bare names of files in
// archive/, and digests carry their algorithm.
func TestIndexPointsIntoStoredWARCs(t *testing.T) {
	dir, _ := crawledSite(t)
	res, err := Write(dir, Options{Name: "offsets"})
	if err != nil {
		t.Fatal(err)
	}
	zf, err := os.Open(res.Path)
	if err != nil {
		t.Fatal(err)
	}
	defer zf.Close()
	_, files := openWACZ(t, res.Path)
	index := readEntry(t, files[IndexPath])
	lines := splitLines(string(index))
	if len(lines) != res.Indexed || len(lines) < 10 {
		t.Fatalf("%d index lines, result says %d", len(lines), res.Indexed)
	}
	revisits := 0
	for _, line := range lines {
		c, err := parseCDXLine(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		name := c.str("filename")
		warc := files["archive/"+name]
		if warc == nil || strings.Contains(name, "/") {
			t.Errorf("%q names no WARC file in archive/", name)
			continue
		}
		if d := c.str("digest"); !strings.HasPrefix(d, "sha1:") {
			t.Errorf("digest %q has no algorithm label", d)
		}
		start, err := warc.DataOffset()
		if err != nil {
			t.Fatal(err)
		}
		off, _ := strconv.ParseInt(c.str("offset"), 10, 64)
		length, _ := strconv.ParseInt(c.str("length"), 10, 64)
		rec, err := archive.NewReader(io.NewSectionReader(zf, start+off, length)).Next()
		if err != nil {
			t.Errorf("%s: record at %d+%d: %v", c.str("url"), off, length, err)
			continue
		}
		date, _ := time.Parse(time.RFC3339, rec.Get("WARC-Date"))
		if typ := rec.Type(); (typ != "response" && typ != "revisit") || rec.Get("WARC-Target-URI") != c.str("url") ||
			date.Format(tsLayout) != c.ts {
			t.Errorf("index line %q points at a %s record of %s at %s", line, rec.Type(), rec.Get("WARC-Target-URI"), rec.Get("WARC-Date"))
		}
		if err := rec.VerifyBlockDigest(); err != nil {
			t.Errorf("%s: %v", c.str("url"), err)
		}
		if rec.Type() == "revisit" {
			revisits++
		}
	}
	if revisits == 0 {
		t.Error("no revisit record indexed: the twin pages should make one")
	}
}

// readPages returns the lines of the WACZ's pages.jsonl after the header,
// checking the header (WACZ 1.1.1, "pages.jsonl").
func readPages(t *testing.T, files map[string]*zip.File) []pageLine {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(string(readEntry(t, files[PagesPath]))))
	if !sc.Scan() || sc.Text() != pagesHeader {
		t.Fatalf("pages.jsonl header %q", sc.Text())
	}
	var pages []pageLine
	for sc.Scan() {
		var p pageLine
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("pages.jsonl line %q: %v", sc.Text(), err)
		}
		pages = append(pages, p)
	}
	return pages
}

// TestPagesListHTMLPagesSeedsFirstWithTitles checks pages.jsonl: one line
// per HTML page fetched with a 2xx, seeds first (the target of a seed's
// redirect is a seed), each with its title read in the page's encoding
// from the archived response, whatever its transfer and content coding
// (a revisit's from the response with its payload);
// no line for the 404, the stylesheet, the image, the redirect, or the
// page robots.txt disallowed.
func TestPagesListHTMLPagesSeedsFirstWithTitles(t *testing.T) {
	dir, site := crawledSite(t)
	res, err := Write(dir, Options{Name: "pages"})
	if err != nil {
		t.Fatal(err)
	}
	_, files := openWACZ(t, res.Path)
	pages := readPages(t, files)
	want := map[string]string{
		"/": "Home & garden", "/landing": "Landing", "/about": "About this site", "/gz": "Zipped page",
		"/deflate": "Deflated page", "/chunked": "Chunked page", "/latin1": "Café latin", "/meta1252": "Price 5 €",
		"/twin-a": "Twin", "/twin-b": "Twin",
	}
	got := map[string]string{}
	for i, p := range pages {
		path := strings.TrimPrefix(p.URL, site)
		got[path] = p.Title
		seed := path == "/" || path == "/landing"
		if p.Seed != seed {
			t.Errorf("%s seed %v, want %v", path, p.Seed, seed)
		}
		if seed && i > 1 {
			t.Errorf("seed %s is line %d, want the seeds first", path, i+1)
		}
		if ts, err := time.Parse(time.RFC3339, p.TS); err != nil || ts.IsZero() {
			t.Errorf("%s ts %q is not RFC 3339", path, p.TS)
		}
		if p.ID != pageID(p.URL, ts14(p.TS)) {
			t.Errorf("%s id %q", path, p.ID)
		}
	}
	if len(got) != len(pages) {
		t.Errorf("a URL is listed twice: %v", pages)
	}
	for path, title := range want {
		if g, ok := got[path]; !ok || g != title {
			t.Errorf("page %s title %q (listed %v), want %q", path, g, ok, title)
		}
	}
	for path := range got {
		if _, ok := want[path]; !ok {
			t.Errorf("pages.jsonl lists %s, which is no 2xx HTML page", path)
		}
	}
	if res.Pages != len(pages) || res.Seeds != 2 {
		t.Errorf("result %d pages %d seeds, file %d", res.Pages, res.Seeds, len(pages))
	}
	if strings.Contains(string(readEntry(t, files[IndexPath])), "/private") {
		t.Error("the index lists the page robots.txt disallowed")
	}
}

// ts14 turns an RFC 3339 time back into a CDXJ timestamp.
func ts14(s string) string {
	t, _ := time.Parse(time.RFC3339, s)
	return t.Format(tsLayout)
}

// TestWriteReplacesWholeOrLeavesOld checks that a WACZ appears under its
// name only whole: a second Write replaces the first, and a Write that
// fails (an index line naming a WARC file the directory lacks) leaves the
// earlier WACZ as it was and no temporary file behind.
func TestWriteReplacesWholeOrLeavesOld(t *testing.T) {
	crawled, _ := crawledSite(t)
	dir := t.TempDir()
	copyTree(t, crawled, dir)
	first, err := Write(dir, Options{Name: "w", Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(first.Path)
	if _, err := Write(dir, Options{Name: "w", Created: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(first.Path)
	if string(before) == string(after) {
		t.Error("a second Write did not replace the WACZ")
	}
	idx := filepath.Join(dir, archiveDir, archive.IndexName)
	b, _ := os.ReadFile(idx)
	os.WriteFile(idx, append(b, []byte(`com,example)/ 20260101000000 {"url":"http://example.com/","filename":"gone.warc.gz","offset":"0","length":"10"}`+"\n")...), 0o644)
	if _, err := Write(dir, Options{Name: "w"}); err == nil || !strings.Contains(err.Error(), "gone.warc.gz") {
		t.Fatalf("Write with a dangling index line: %v", err)
	}
	if now, _ := os.ReadFile(first.Path); string(now) != string(after) {
		t.Error("a failed Write changed the WACZ")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("left %s behind", e.Name())
		}
	}
}

// TestWriteWithoutArchive checks the error for a directory without WARC
// files (archive.warc off, or not a crawl's output).
func TestWriteWithoutArchive(t *testing.T) {
	if _, err := Write(t.TempDir(), Options{}); err == nil || !strings.Contains(err.Error(), "no WARC file") {
		t.Errorf("got %v", err)
	}
}

// copyTree copies the files of a crawl output directory (one level of
// subdirectories) from src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if strings.HasSuffix(p, Extension) {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
