package crawler

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOpenLinesEndsATornLine: a JSONL file (one JSON object per line,
// /work/notes/outputs.md) whose last line lost its end in a failed write
// gets the newline before the next line is appended, so only the torn
// line is lost.
func TestOpenLinesEndsATornLine(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ before, want string }{
		{"", "{\"b\":2}\n"},
		{"{\"a\":1}\n", "{\"a\":1}\n{\"b\":2}\n"},
		{"{\"a\":1}\n{\"time\":\"2026-11-22T12:31:2", "{\"a\":1}\n{\"time\":\"2026-11-22T12:31:2\n{\"b\":2}\n"},
	} {
		path := filepath.Join(dir, "crawl.jsonl")
		if err := os.WriteFile(path, []byte(c.before), 0o644); err != nil {
			t.Fatal(err)
		}
		j, err := openJSONL(dir, "crawl.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		if err := j.write(map[string]int{"b": 2}); err != nil {
			t.Fatal(err)
		}
		j.f.Close()
		got, _ := os.ReadFile(path)
		if string(got) != c.want {
			t.Errorf("after %q: file is %q, want %q", c.before, got, c.want)
		}
	}
}
