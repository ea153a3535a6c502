package archive

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeRun writes n exchanges (bodies repeat every 5, so later ones are
// revisits) and closes the writer.
func writeRun(t *testing.T, dir string, from, n int) {
	t.Helper()
	w, err := Open(Options{Dir: dir, Dedupe: true, MaxFileSize: 4096})
	if err != nil {
		t.Fatal(err)
	}
	for i := from; i < from+n; i++ {
		if err := w.WriteExchange(page(fmt.Sprintf("http://example.com/%d", i), "/", fmt.Sprintf("body %d %s", i%5, strings.Repeat("w", 300)))); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

func indexText(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, IndexName))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestJournalSparesRescanningCoveredRecords(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, dir, 0, 12)
	files := warcFiles(t, dir)
	// Damage a response in the first file: the journal covers it, so Open
	// must not read it (a full rescan would refuse the damaged file).
	data, _ := os.ReadFile(files[0])
	data[len(data)/2] ^= 0xff
	os.WriteFile(files[0], data, 0o644)
	w, err := Open(Options{Dir: dir, Dedupe: true, MaxFileSize: 4096})
	if err != nil {
		t.Fatalf("Open rescanned journalled records: %v", err)
	}
	w.Close()
	if n := strings.Count(indexText(t, dir), "\n"); n != 12 {
		t.Errorf("index has %d lines, want 12", n)
	}
}

func TestJournalRecoveryCases(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, dir string)
	}{
		{"journal deleted", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, JournalName))
		}},
		{"journal lost its last entries and tears", func(t *testing.T, dir string) {
			p := filepath.Join(dir, JournalName)
			b, _ := os.ReadFile(p)
			lines := strings.SplitAfter(string(b), "\n")
			cut := strings.Join(lines[:len(lines)-4], "") + lines[len(lines)-4][:10]
			os.WriteFile(p, []byte(cut), 0o644)
		}},
		{"journal ahead of a file", func(t *testing.T, dir string) {
			files := warcFiles(t, dir)
			// Remove the last file's final exchange as if never written.
			recs := 0
			last := files[len(files)-1]
			var ends []int64
			f, _ := os.Open(last)
			scanMembers(f, 0, func(off, length int64, rec *Record) error {
				recs++
				ends = append(ends, off)
				return nil
			})
			f.Close()
			os.Truncate(last, ends[len(ends)-2]) // drop the last request+response pair
			os.Remove(filepath.Join(dir, IndexName))
		}},
		{"journal garbage", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, JournalName), []byte("{not json\n\x00\x01\n"), 0o644)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeRun(t, dir, 0, 12)
			tc.damage(t, dir)
			// The truth: an index rebuilt from copies of the WARC files alone.
			copyDir := t.TempDir()
			for _, f := range warcFiles(t, dir) {
				b, _ := os.ReadFile(f)
				os.WriteFile(filepath.Join(copyDir, filepath.Base(f)), b, 0o644)
			}
			if err := RebuildIndex(copyDir); err != nil {
				t.Fatal(err)
			}
			truth := indexText(t, copyDir)
			writeRun(t, dir, 12, 3)
			got := indexText(t, dir)
			if strings.Count(got, "\n") != strings.Count(truth, "\n")+3 {
				t.Errorf("index after resume has %d lines, want %d", strings.Count(got, "\n"), strings.Count(truth, "\n")+3)
			}
			for _, l := range strings.Split(strings.TrimSpace(truth), "\n") {
				if !strings.Contains(got, l+"\n") {
					t.Errorf("resumed index lost %s", l)
				}
			}
			// The rewritten journal alone now reproduces the index.
			j := loadJournal(dir)
			n := 0
			for _, es := range j {
				n += len(es)
			}
			if n != strings.Count(got, "\n") {
				t.Errorf("journal has %d entries, index %d lines", n, strings.Count(got, "\n"))
			}
			// Revisits after resume refer to responses of the first run.
			recs := readAll(t, warcFiles(t, dir)...)
			last := recs[len(recs)-1]
			if last.Type() != "revisit" || last.Get("WARC-Refers-To-Target-URI") == "" {
				t.Errorf("last record %s, refers to %q", last.Type(), last.Get("WARC-Refers-To-Target-URI"))
			}
		})
	}
}

// copyArchive copies dir's WARC files and journal, as they are on disk,
// to a new directory: what a crash at this moment would leave.
func copyArchive(t *testing.T, dir string) string {
	t.Helper()
	dst := t.TempDir()
	for _, f := range append(warcFiles(t, dir), filepath.Join(dir, JournalName)) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.Base(f)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// rebuiltIndex is the index RebuildIndex makes from copies of dir's WARC
// files alone: the truth a resumed index must equal.
func rebuiltIndex(t *testing.T, dir string) string {
	t.Helper()
	cp := copyArchive(t, dir)
	if err := RebuildIndex(cp); err != nil {
		t.Fatal(err)
	}
	return indexText(t, cp)
}

// TestJournalMissingLastLines proves what buffering the journal relies
// on: whatever suffix of the journal is lost, Open finds the records it
// no longer covers in the WARC files, so the index is complete.
func TestJournalMissingLastLines(t *testing.T) {
	dir := t.TempDir()
	writeRun(t, dir, 0, 12)
	if len(warcFiles(t, dir)) < 3 {
		t.Fatal("want several WARC files, so lost lines span files")
	}
	truth := rebuiltIndex(t, dir)
	journal, err := os.ReadFile(filepath.Join(dir, JournalName))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(journal), "\n")
	lines = lines[:len(lines)-1] // "" after the last newline
	for lost := 0; lost <= len(lines); lost++ {
		cp := copyArchive(t, dir)
		kept := strings.Join(lines[:len(lines)-lost], "")
		if err := os.WriteFile(filepath.Join(cp, JournalName), []byte(kept), 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := Open(Options{Dir: cp, Dedupe: true, MaxFileSize: 4096})
		if err != nil {
			t.Fatalf("%d lines lost: %v", lost, err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if got := indexText(t, cp); got != truth {
			t.Fatalf("%d of %d journal lines lost: index after Open\n%s\nwant\n%s", lost, len(lines), got, truth)
		}
	}
}

// TestJournalBufferedCrash copies the directory while the writer is still
// open, as a kill -9 would leave it: the journal lags behind the WARC
// files, and a writer opened on the copy still indexes every exchange.
func TestJournalBufferedCrash(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(Options{Dir: dir, MaxFileSize: 8 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	const n = 40
	for i := range n {
		body := fmt.Sprintf("%x", randomBytes(uint64(i), 300))
		if err := w.WriteExchange(page(fmt.Sprintf("http://example.com/%d", i), "/", body)); err != nil {
			t.Fatal(err)
		}
	}
	files := warcFiles(t, dir)
	if len(files) < 2 {
		t.Fatal("want a rotation, which flushes the journal")
	}
	crashed := copyArchive(t, dir)
	onDisk := loadJournal(crashed)
	// The journal on disk covers the files that were rotated away, and
	// not (all of) the current one.
	for _, f := range files[:len(files)-1] {
		if len(onDisk[filepath.Base(f)]) == 0 {
			t.Errorf("journal on disk has no entries for rotated file %s", filepath.Base(f))
		}
	}
	journalled := 0
	for _, es := range onDisk {
		journalled += len(es)
	}
	if journalled >= n {
		t.Fatalf("journal on disk has %d of %d entries: the test needs lost lines", journalled, n)
	}
	truth := rebuiltIndex(t, crashed)
	if lines := strings.Count(truth, "\n"); lines != n {
		t.Fatalf("the WARC files hold %d responses, want %d", lines, n)
	}
	w2, err := Open(Options{Dir: crashed, MaxFileSize: 8 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := w2.Close(); err != nil {
		t.Fatal(err)
	}
	if got := indexText(t, crashed); got != truth {
		t.Errorf("index after crash and Open\n%s\nwant\n%s", got, truth)
	}
	// Close flushes the journal: it then holds every entry.
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	all := 0
	for _, es := range loadJournal(dir) {
		all += len(es)
	}
	if all != n {
		t.Errorf("journal after Close has %d entries, want %d", all, n)
	}
}
