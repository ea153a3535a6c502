package archive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A resumed run appends to the last file only if its warcinfo record still
// fits under MaxFileSize; otherwise it starts a new file, so no file
// outgrows the limit just by being reopened.
func TestOpen_ResumeDoesNotPushFilePastMaxFileSize(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteExchange(page("http://example.com/1", "/", strings.Repeat("x", 100))); err != nil {
		t.Fatal(err)
	}
	w.Close()
	first := warcFiles(t, dir)[0]
	st, _ := os.Stat(first)
	limit := st.Size() + 10 // under the limit, but a warcinfo record does not fit
	w, err = Open(Options{Dir: dir, MaxFileSize: limit})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	files := warcFiles(t, dir)
	if len(files) != 2 {
		t.Fatalf("files %v, want a new file for the resumed run's warcinfo", files)
	}
	for _, f := range files {
		if st, _ := os.Stat(f); st.Size() > limit {
			t.Errorf("%s is %d bytes, over MaxFileSize %d", filepath.Base(f), st.Size(), limit)
		}
	}
	if recs := readAll(t, files[1]); len(recs) != 1 || recs[0].Type() != "warcinfo" ||
		recs[0].Get("WARC-Filename") != filepath.Base(files[1]) {
		t.Errorf("new file should hold its own warcinfo record naming it")
	}
}

// The index and the journal are replaced through temporary files; they
// end up readable by all, like the WARC files, and a temporary file a
// crash left behind is removed by the next Open, so no replay tool that
// loads every file in the directory reads a half-written index.
func TestIndexFiles_ModeAndLeftoverTemporaries(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, tempPrefix+IndexName+"-123")
	if err := os.WriteFile(stale, []byte("half an index"), 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("leftover temporary file still there after Open: %v", err)
	}
	w.WriteExchange(page("http://example.com/1", "/", "hello"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{IndexName, JournalName} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o644 {
			t.Errorf("%s mode %v, want 0644", name, st.Mode().Perm())
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			t.Errorf("temporary file %s left after Close", e.Name())
		}
	}
}
