package archive

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// JournalName is the append-only journal of index entries kept in the
// output directory. It lets Open resume without decompressing every WARC
// file: only the bytes after the last journalled record of each file are
// scanned. Deleting it is safe (Open then scans everything).
const JournalName = "index.journal"

// indexEntry is one indexed (response or revisit) record, as kept in memory
// and in the journal (one JSON object per line).
type indexEntry struct {
	CDXJ        string `json:"cdxj"`
	File        string `json:"file"`
	End         int64  `json:"end"` // offset just past the record's gzip member
	URL         string `json:"url"`
	Status      string `json:"status,omitempty"`
	ContentType string `json:"ctype,omitempty"` // of the HTTP response
	Location    string `json:"loc,omitempty"`   // of a 3xx response, for the mirror
	// Digest, Date and ID are set for a response whose payload may be
	// referred to by later revisit records.
	Digest string `json:"digest,omitempty"`
	Date   string `json:"date,omitempty"`
	ID     string `json:"id,omitempty"`
}

// entryFor builds the entry of a record read back from a file.
func entryFor(rec *Record, file string, off, length int64) (indexEntry, bool) {
	c, ok := cdxFor(rec, file, off, length)
	if !ok {
		return indexEntry{}, false
	}
	h := parseHTTPHead(rec.Block)
	e := indexEntry{CDXJ: c.line(), File: file, End: off + length, URL: c.URL, Status: c.Status,
		ContentType: indexed(h.get("Content-Type"))}
	if isRedirect(c.Status) {
		e.Location = indexed(h.get("Location"))
	}
	if p, ok := rec.Payload(); ok && len(p) > 0 && rec.Type() == "response" &&
		rec.Get("WARC-Truncated") == "" && isDedupable(c.Status) {
		e.Digest, e.Date, e.ID = rec.Get("WARC-Payload-Digest"), rec.Get("WARC-Date"), rec.Get("WARC-Record-ID")
	}
	return e, true
}

// addEntry records an entry in the revisit table; resumed entries (from
// an earlier run) are also handed to the Mirror (Recall, Redirect). The
// entry's journal line is the caller's to write.
// Callers hold w.mu or own w.
func (w *Writer) addEntry(e indexEntry, resumed bool) {
	if w.opts.Dedupe && e.Digest != "" && strings.HasPrefix(e.Digest, w.opts.Digest+":") {
		w.dedupe.remember(e.Digest, revisitRef{uri: e.URL, date: e.Date, id: e.ID})
	}
	if resumed && w.mirror != nil {
		switch {
		case isDedupable(e.Status):
			w.mirror.Recall(e.URL, e.ContentType)
		case e.Location != "":
			w.mirror.Redirect(e.URL, e.Location)
		}
	}
}

// scanJournal calls fn with each entry of the journal in dir, in order. A
// missing journal has none; lines that do not parse (a torn last line) are
// skipped: their records lie after the journalled end and are scanned
// again.
func scanJournal(dir string, fn func(indexEntry) error) error { return scanJournalFrom(dir, 0, fn) }

// scanJournalFrom is scanJournal from line from (0 is the first), the
// lines before it passed over without being decoded.
func scanJournalFrom(dir string, from int, fn func(indexEntry) error) error {
	n := 0
	return eachJournalLine(dir, func(line []byte) error {
		if n++; n <= from {
			return nil
		}
		e, ok := decodeEntry(line)
		if !ok {
			return nil
		}
		return fn(e)
	})
}

// decodeEntry decodes a journal line; ok is false for a line that is no
// entry (a torn one).
func decodeEntry(line []byte) (indexEntry, bool) {
	var e indexEntry
	if json.Unmarshal(line, &e) != nil || e.File == "" || e.CDXJ == "" {
		return e, false
	}
	return e, true
}

// eachJournalLine calls fn with each line of the journal in dir, without
// its newline; a missing journal has none.
func eachJournalLine(dir string, fn func([]byte) error) error {
	f, err := os.Open(filepath.Join(dir, JournalName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("archive: journal: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if err := fn(sc.Bytes()); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("archive: journal: %w", err)
	}
	return nil
}

// beginJournal starts the journal of this Open in a temporary file, which
// resume fills with the entries of the records already archived (dropping
// torn or stale lines) and commitJournal renames into place.
func (w *Writer) beginJournal() error {
	f, err := os.CreateTemp(w.opts.Dir, tempPrefix+JournalName+"-*")
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err != nil {
		return fmt.Errorf("archive: journal: %w", err)
	}
	w.journal = newJournalWriter(f)
	return nil
}

// commitJournal makes the journal begun by beginJournal, holding what
// resume wrote to it, the journal, and keeps it open for appending.
func (w *Writer) commitJournal() error {
	j := w.journal
	err := j.flush()
	if err == nil && j.err != nil {
		err = j.err
	}
	if err == nil {
		err = j.f.Sync()
	}
	if err == nil {
		err = os.Rename(j.f.Name(), filepath.Join(w.opts.Dir, JournalName))
	}
	if err != nil {
		return fmt.Errorf("archive: journal: %w", err)
	}
	// The rename is durable once the directory is synced.
	dir, err := os.Open(w.opts.Dir)
	if err != nil {
		return fmt.Errorf("archive: journal: %w", err)
	}
	err = dir.Sync()
	dir.Close()
	if err != nil {
		return fmt.Errorf("archive: journal: %w", err)
	}
	return nil
}

// journalBufferSize is how much of the journal may wait in memory: about
// 200 index entries, whose records Open rescans after a crash.
const journalBufferSize = 64 << 10

// journalWriter appends index entries to the journal through a buffer.
// That is safe because the journal only spares work: a crash loses at
// most the buffered lines, a suffix of the journal (and maybe tears the
// last line written), and Open scans each WARC file from the end of its
// last journalled record, so it finds their records in the file (see
// resumeFile). After a write error the journal stays as it is (a valid
// prefix) for the rest of the run. Callers serialise its use (w.mu).
type journalWriter struct {
	f   *os.File
	buf *bufio.Writer
	enc *json.Encoder // writes into buf
	err error         // first write error; nothing is appended after it
}

func newJournalWriter(f *os.File) *journalWriter {
	j := &journalWriter{f: f, buf: bufio.NewWriterSize(f, journalBufferSize)}
	j.enc = json.NewEncoder(j.buf)
	return j
}

// add appends one entry as a journal line: one JSON object and a newline.
func (j *journalWriter) add(e *indexEntry) error {
	if j.err != nil {
		return nil // reported when it happened
	}
	if err := j.enc.Encode(e); err != nil {
		j.err = fmt.Errorf("archive: journal: %w", err)
		return j.err
	}
	return nil
}

// flush writes the buffered lines to the file (not synced).
func (j *journalWriter) flush() error {
	if j.err != nil {
		return nil
	}
	if err := j.buf.Flush(); err != nil {
		j.err = fmt.Errorf("archive: journal: %w", err)
		return j.err
	}
	return nil
}

// close flushes and closes the file.
func (j *journalWriter) close() error {
	err := j.flush()
	if cerr := j.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("archive: journal: %w", cerr)
	}
	return err
}
