package archive

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fillingDisk is a WARC file's disk that holds room more bytes: the write
// that needs more writes what fits and fails with ENOSPC, as a full file
// system does.
type fillingDisk struct {
	room   int
	writes int // calls, failed ones included
}

func (d *fillingDisk) write(f *os.File, p []byte) (int, error) {
	d.writes++
	if len(p) <= d.room {
		d.room -= len(p)
		return f.Write(p)
	}
	n, err := f.Write(p[:d.room])
	d.room = 0
	if err != nil {
		return n, err
	}
	return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

// diskPage is the exchange of page n: an incompressible body, so every
// exchange takes about as many bytes on disk as it holds.
func diskPage(n int) Exchange {
	e := page(fmt.Sprintf("http://example.com/p%d", n), fmt.Sprintf("/p%d", n), string(randomBytes(uint64(n), 4000)))
	e.Metadata = []Field{{Name: "depth", Value: "1"}}
	return e
}

// TestFullDiskLeavesNoPartialExchange protects the all-or-none write of an
// exchange: when the disk fills part way through its records, the file is
// cut back to where they began, the error names the file and wraps
// ENOSPC, nothing is appended after it, and the directory resumes with
// the exchanges written before, whole.
func TestFullDiskLeavesNoPartialExchange(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Dir: dir, Now: fixedClock(time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)), newID: seqIDs()}
	w, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	files := warcFiles(t, dir)
	st, _ := os.Stat(files[0])
	if err := w.WriteExchange(diskPage(0)); err != nil {
		t.Fatal(err)
	}
	one, _ := os.Stat(files[0])
	size := int(one.Size() - st.Size())
	// Room for two more exchanges (of about the same size) and half a third.
	disk := &fillingDisk{room: 2*size + size/2}
	w.opts.writeFile = disk.write
	var failed error
	written := 1
	for n := 1; n < 10; n++ {
		if err := w.WriteExchange(diskPage(n)); err != nil {
			failed = err
			break
		}
		written++
	}
	if written != 3 || failed == nil {
		t.Fatalf("wrote %d exchanges before an error (%v), want 3 and then ENOSPC", written, failed)
	}
	if !errors.Is(failed, syscall.ENOSPC) || !strings.Contains(failed.Error(), files[0]) ||
		strings.Count(failed.Error(), files[0]) != 1 || !strings.HasPrefix(failed.Error(), "archive: ") {
		t.Errorf("error %q: want ENOSPC, naming %s once, prefixed archive:", failed, files[0])
	}
	after, _ := os.Stat(files[0])
	calls := disk.writes
	if err := w.WriteExchange(diskPage(9)); err == nil || err.Error() != failed.Error() {
		t.Errorf("write after the failure returned %v, want the first failure again", err)
	}
	if disk.writes != calls {
		t.Errorf("a write after the failure reached the file")
	}
	if err := w.Close(); err == nil || err.Error() != failed.Error() {
		t.Errorf("Close returned %v, want the write's failure", err)
	}
	recs := readAll(t, files[0])
	if len(recs) != 1+3*3 || after.Size() <= st.Size() {
		t.Fatalf("the file holds %d records, want the warcinfo and 3 exchanges of 3 records", len(recs))
	}
	for i, rec := range recs {
		if err := rec.VerifyBlockDigest(); err != nil {
			t.Errorf("record %d: %v", i, err)
		}
	}
	if got := len(readIndex(t, dir)); got != 3 {
		t.Errorf("index.cdxj has %d lines, want the 3 exchanges written", got)
	}

	// Space freed: the same directory takes the exchange that failed.
	w, err = Open(Options{Dir: dir, Now: opts.Now})
	if err != nil {
		t.Fatalf("open after the failure: %v", err)
	}
	if err := w.WriteExchange(diskPage(3)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, rec := range readAll(t, warcFiles(t, dir)...) {
		if rec.Type() == "response" {
			seen[rec.Get("WARC-Target-URI")]++
		}
	}
	for n := range 4 {
		if u := fmt.Sprintf("http://example.com/p%d", n); seen[u] != 1 {
			t.Errorf("%s archived %d times, want once", u, seen[u])
		}
	}
}

// failingWriter fails every write with ENOSPC.
type failingWriter struct{ path string }

func (f failingWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: f.path, Err: syscall.ENOSPC}
}

// TestFullDiskInJournal protects an exchange whose records were written
// when the journal's write failed: it is archived (and indexed at Close),
// the next exchange is refused with the journal's error, and Close
// reports it; the journal is rebuilt from the files on the next Open.
func TestFullDiskInJournal(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	path := w.journal.f.Name()
	w.journal.buf = bufio.NewWriterSize(failingWriter{path}, 16)
	w.journal.enc = json.NewEncoder(w.journal.buf)
	if err := w.WriteExchange(diskPage(0)); err != nil {
		t.Fatalf("exchange whose journal line failed: %v, want it archived", err)
	}
	err = w.WriteExchange(diskPage(1))
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), path) {
		t.Errorf("next exchange: %v, want the journal's ENOSPC naming %s", err, path)
	}
	if cerr := w.Close(); cerr == nil || cerr.Error() != err.Error() {
		t.Errorf("Close: %v, want %v", cerr, err)
	}
	w, err = Open(Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	lines := readIndex(t, dir)
	if len(lines) != 1 || lines[0].fields["url"] != "http://example.com/p0" {
		t.Errorf("index after reopening: %v, want p0 alone", lines)
	}
	j, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	data, _ := io.ReadAll(j)
	if strings.Count(string(data), "\n") != 1 || !strings.Contains(string(data), "/p0") {
		t.Errorf("journal after reopening: %q, want p0's line", data)
	}
}
