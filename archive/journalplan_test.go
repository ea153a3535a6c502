package archive

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A journal of whole entries of the files is kept and appended to by the
// next Open, not rewritten; a torn last line is cut first.
func TestJournalKeptAndAppended(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, dir, 0, 6)
	path := filepath.Join(dir, JournalName)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	torn := append(bytes.Clone(before), []byte(`{"cdxj":"com,example)/ 2026`)...)
	os.WriteFile(path, torn, 0o644)
	writeRun(t, dir, 6, 3)
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(after, before) || bytes.Count(after, []byte("\n")) != 9 {
		t.Errorf("journal after a second run: %d lines, first run's kept %v; want its 6 lines kept and 3 appended",
			bytes.Count(after, []byte("\n")), bytes.HasPrefix(after, before))
	}
	if n := strings.Count(indexText(t, dir), "\n"); n != 9 {
		t.Errorf("index has %d lines, want 9", n)
	}
}

// journalPlace and journalCDXJ read a journal line's file, end and cdxj
// as json does, and refuse lines they cannot read so.
func TestJournalPlace(t *testing.T) {
	e := indexEntry{CDXJ: `com,example)/ 20260101000000 {"url":"http://example.com/","file":"x","filename":"a.warc.gz"}`,
		File: "crawl-20260101000000-00001.warc.gz", End: 1234, URL: "http://example.com/\",\"file\":\"evil"}
	var b bytes.Buffer
	json.NewEncoder(&b).Encode(&e)
	file, end, ok := journalPlace(b.Bytes())
	if !ok || file != e.File || end != e.End {
		t.Errorf("journalPlace = %q %d %v, want %q %d", file, end, ok, e.File, e.End)
	}
	if cdxj, ok := journalCDXJ(b.Bytes()); !ok || cdxj != e.CDXJ {
		t.Errorf("journalCDXJ = %q %v, want %q", cdxj, ok, e.CDXJ)
	}
	for _, bad := range []string{`{"file":"a","end":1}`, `{"cdxj":"x","file":"a\"b","end":1}`, `{"cdxj":"x","file":"a","end":}`, "not json\n"} {
		if _, _, ok := journalPlace([]byte(bad)); ok {
			t.Errorf("journalPlace(%s) read it", bad)
		}
	}
}
