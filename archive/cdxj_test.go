package archive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pywb CDXJ: "<surt> <14-digit timestamp> <json>", sorted; offsets and
// lengths as strings; the sha1 label dropped from the digest.
func TestCDXJLineFormat(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	e := page("http://example.com/b?x=1&y=2", "/b", "hello world")
	if err := w.WriteExchange(e); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteExchange(page("http://example.com/a", "/a", "hello world")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, IndexName))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("index:\n%s", data)
	}
	name := filepath.Base(warcFiles(t, dir)[0])
	want := `com,example)/b?x=1&y=2 20260304050607 {"url":"http://example.com/b?x=1&y=2","mime":"text/html","status":"200","digest":"FKXGYNOJJ7H3IFO35FPUBC445EPOQRXN","length":"`
	if !strings.HasPrefix(lines[1], want) || !strings.HasSuffix(lines[1], `","filename":"`+name+`"}`) {
		t.Errorf("line 2 = %s\nwant prefix %s", lines[1], want)
	}
	if !strings.HasPrefix(lines[0], "com,example)/a 20260304050607 ") {
		t.Errorf("line 1 = %s (not sorted?)", lines[0])
	}
}

func TestRebuildIndexIgnoresTornTail(t *testing.T) {
	dir := t.TempDir()
	w, _ := Open(Options{Dir: dir})
	w.WriteExchange(page("http://example.com/a", "/a", "one"))
	w.Close()
	f := warcFiles(t, dir)[0]
	data, _ := os.ReadFile(f)
	os.WriteFile(f, append(data, data[:len(data)/2]...), 0o644)
	if err := RebuildIndex(dir); err != nil {
		t.Fatal(err)
	}
	if n := len(readIndex(t, dir)); n != 1 {
		t.Errorf("%d lines, want 1", n)
	}
	after, _ := os.ReadFile(f)
	if len(after) != len(data)+len(data)/2 {
		t.Error("RebuildIndex modified a WARC file")
	}
}
