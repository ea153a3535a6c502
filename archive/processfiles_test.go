package archive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseFileNameWithProcess: file names with and without a process
// id (which may hold '-') are read from the right; others are not files
// of the prefix.
func TestParseFileNameWithProcess(t *testing.T) {
	for _, tc := range []struct {
		name, process string
		serial        int
		ok            bool
	}{
		{"crawl-20260101000000-00001.warc.gz", "", 1, true},
		{"crawl-w1-4242-a1b2c3-20260101000000-00012.warc.gz", "w1-4242-a1b2c3", 12, true},
		{"crawl-host.example-1-ff-20260101000000-123456.warc.gz", "host.example-1-ff", 123456, true},
		{"crawl--20260101000000-00001.warc.gz", "", 0, false},
		{"crawl-p-2026010100000-00001.warc.gz", "", 0, false},
		{"crawl-p-20260101000000-0001.warc.gz", "", 0, false},
		{"other-20260101000000-00001.warc.gz", "", 0, false},
		{"crawl-20260101000000-00001.warc", "", 0, false},
	} {
		serial, process, ok := parseFileName(tc.name, "crawl")
		if ok != tc.ok || ok && (serial != tc.serial || process != tc.process) {
			t.Errorf("%s: %d %q %v, want %d %q %v", tc.name, serial, process, ok, tc.serial, tc.process, tc.ok)
		}
	}
}

// TestProcessFilesResume: a writer with a Process names its files for
// it, resumes the files of earlier processes (truncating the torn tail of
// the last, indexing all of them), never appends to another process's
// file, and appends to its own.
func TestProcessFilesResume(t *testing.T) {
	dir := t.TempDir()
	write := func(process, url string) {
		t.Helper()
		w, err := Open(Options{Dir: dir, Process: process})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteExchange(page(url, "/", "body of "+url)); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write("", "http://example.com/1")
	first := warcFiles(t, dir)[0]
	f, _ := os.OpenFile(first, os.O_APPEND|os.O_WRONLY, 0)
	f.Write([]byte("\x1f\x8b torn"))
	f.Close()
	write("w1-4242-a1b2c3", "http://example.com/2")
	write("w2-77-ffffff", "http://example.com/3")
	write("w2-77-ffffff", "http://example.com/4")
	files := warcFiles(t, dir)
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f))
	}
	if len(files) != 3 || !strings.HasPrefix(names[1], "crawl-w1-4242-a1b2c3-") || !strings.HasSuffix(names[1], "-00002.warc.gz") ||
		!strings.HasPrefix(names[2], "crawl-w2-77-ffffff-") || !strings.HasSuffix(names[2], "-00003.warc.gz") {
		t.Fatalf("files %v, want the first, then one per process, serials going on", names)
	}
	if recs := readAll(t, first); len(recs) != 3 {
		t.Errorf("first file: %d records after resume, want warcinfo, request, response (the torn tail cut)", len(recs))
	}
	if recs := readAll(t, files[2]); len(recs) != 6 {
		t.Errorf("own file: %d records, want two runs' warcinfo and exchanges appended", len(recs))
	}
	idx, err := os.ReadFile(filepath.Join(dir, IndexName))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"/1", "/2", "/3", "/4"} {
		if !strings.Contains(string(idx), "http://example.com"+want) {
			t.Errorf("index.cdxj lacks page %d:\n%s", i+1, idx)
		}
	}
	for _, n := range names {
		if !strings.Contains(string(idx), n) {
			t.Errorf("index.cdxj names no record of %s", n)
		}
	}
}

// TestProcessRefusesSeparators: a Process that would put files elsewhere
// is refused.
func TestProcessRefusesSeparators(t *testing.T) {
	if _, err := Open(Options{Dir: t.TempDir(), Process: "../x"}); err == nil {
		t.Error("Open took a Process with a path separator")
	}
}
